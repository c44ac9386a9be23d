package org.pagecache;

import org.pagecache.stats.TagInvalidation;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.pagecache.SiteUnderTest.Backend;
import org.pagecache.SiteUnderTest.BothStores;
import org.pagecache.SiteUnderTest.Response;
import org.pagecache.testing.Eventually;
import org.pagecache.testing.MemcachedExtension;

/**
 * Specification, on both stores: tags come from {@code Surrogate-Key}, {@code Cache-Tag} and
 * {@code xkey} (space- or comma-separated) as from {@code X-Cache-Tags}; those headers are stripped
 * before the client unless {@code tags.headers=pass}; several tags are invalidated in one call; a
 * hard purge never serves a tag's pages again, not even stale, and a page built across it is not
 * served with its old content.
 */
class SurrogateKeysSpec {
  @RegisterExtension
  static MemcachedExtension memcached = MemcachedExtension.nodes(1);

  @RegisterExtension
  final SiteUnderTest.Sites sites = new SiteUnderTest.Sites(memcached);

  private final AtomicInteger edition = new AtomicInteger(1);
  private static final AtomicInteger SITES = new AtomicInteger();

  /** An article page naming its tags in the three CDN headers. */
  private SiteServlets.Handler article() {
    return SiteServlets.of((req, res, call) -> {
      res.setContentType("text/html;charset=UTF-8");
      res.setHeader("Surrogate-Key", "article:7 section:sport");
      res.setHeader("Cache-Tag", "author:3,home");
      res.setHeader("xkey", "feed");
      res.getWriter().print("<p>edition " + edition.get() + "</p>");
    });
  }

  private SiteUnderTest site(Backend backend, SiteServlets.Handler h) {
    return sites.on(backend).handler("article", h, "/article/*").start();
  }

  @BothStores
  void eachCdnHeaderTagsThePageAndNoneReachesTheClient(Backend backend) {
    SiteServlets.Handler h = article();
    SiteUnderTest site = site(backend, h);
    Response built = site.get("/article/7");
    for (String header : List.of("Surrogate-Key", "Cache-Tag", "xkey", "X-Cache-Tags")) {
      assertNull(built.header(header), header + " is stripped: " + built);
    }
    int calls = 1;
    for (String tag : List.of("article:7", "section:sport", "author:3", "home", "feed")) {
      Response hit = site.get("/article/7");
      assertEquals("HIT", hit.xcache());
      assertNull(hit.header("Surrogate-Key"), "nor on a hit");
      site.cache.invalidateTag(tag);
      assertNotEquals("HIT", site.get("/article/7").xcache(), tag + " tags the page");
      assertEquals(++calls, site.calls("article"), tag);
    }
  }

  @BothStores
  void tagsHeadersPassSendsThemOnToTheCdn(Backend backend) {
    SiteUnderTest site = sites.on(backend).set("tags.headers", "pass").handler("article", article(), "/article/*").start();
    Response built = site.get("/article/7");
    Response hit = site.get("/article/7");
    assertEquals("HIT", hit.xcache());
    for (Response r : List.of(built, hit)) {
      assertEquals("article:7 section:sport", r.header("Surrogate-Key"));
      assertEquals("author:3,home", r.header("Cache-Tag"));
      assertEquals("feed", r.header("xkey"));
    }
  }

  @BothStores
  void severalTagsInOneCall(Backend backend) {
    SiteServlets.Handler other = SiteServlets.of((req, res, call) -> {
      res.setHeader("xkey", "video:1");
      res.getWriter().print("video");
    });
    SiteUnderTest site = sites.on(backend).handler("article", article(), "/article/*")
        .handler("video", other, "/video/*").start();
    site.get("/article/7");
    site.get("/video/1");
    List<TagInvalidation> done = site.cache.invalidateTags(List.of("feed", "video:1"));
    assertEquals(List.of("feed", "video:1"), done.stream().map(TagInvalidation::tag).toList());
    assertNotEquals("HIT", site.get("/article/7").xcache());
    assertNotEquals("HIT", site.get("/video/1").xcache());
    IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
        () -> site.cache.invalidateTags(List.of("ok", "not ok")));
    assertTrue(bad.getMessage().startsWith("tag:"), bad.getMessage());
  }

  @BothStores
  void aHardPurgeIsNeverServedStaleWhereASoftOneIs(Backend backend) {
    SiteServlets.Handler h = article();
    SiteUnderTest site = site(backend, h);
    site.get("/article/7");
    // soft: the handler fails, the stale copy stands in (within grace)
    site.cache.invalidateTag("article:7");
    h.failure.set(new IllegalStateException("database down"));
    Response soft = site.get("/article/7");
    assertEquals(200, soft.status());
    assertTrue(soft.text().contains("edition 1"), "a soft invalidation serves the stale copy: " + soft);
    // hard: never again, not even when the rebuild fails
    TagInvalidation purge = site.cache.purgeTags(List.of("article:7")).get(0);
    assertTrue(purge.hard());
    Response hard = site.get("/article/7");
    assertEquals(500, hard.status());
    assertFalse(hard.text().contains("edition 1"), "a purged page is never served: " + hard);
    h.failure.set(null);
    edition.set(2);
    Response rebuilt = site.get("/article/7");
    assertEquals("MISS", rebuilt.xcache());
    assertTrue(rebuilt.text().contains("edition 2"), rebuilt.text());
    assertEquals("HIT", site.get("/article/7").xcache(), "the new page is cached as usual");
  }

  @BothStores
  void aHardPurgeWhoseKeyMemcachedLostIsStillNeverServedStale(Backend backend) {
    SiteServlets.Handler h = article();
    String namespace = "hl" + SITES.incrementAndGet() + "x" + ProcessHandle.current().pid() % 1000;
    SiteUnderTest site = sites.on(backend).set("namespace", namespace).set("tag.cache", "0s")
        .handler("article", h, "/article/*").start();
    site.get("/article/7");
    site.cache.purgeTags(List.of("article:7"));
    h.failure.set(new IllegalStateException("database down"));
    assertEquals(500, site.get("/article/7").status(), "purged");
    // the hard key is evicted (or its node restarted empty) while the page is still stored
    String hardKey = new org.pagecache.store.Namespace(namespace)
        .tag(org.pagecache.internal.freshness.TagVersions.hardName("article:7"));
    assertTrue(site.cache.store().delete(hardKey), "the hard key was stored under " + hardKey);
    Response after = site.get("/article/7");
    assertEquals(500, after.status(), "the floor this frontend saw still holds: not served stale: " + after);
    assertFalse(after.text().contains("edition 1"), after.text());
  }

  @BothStores
  void aPageBuiltAcrossAHardPurgeIsNeverServedAgain(Backend backend) throws Exception {
    SiteServlets.Handler h = article();
    SiteUnderTest site = site(backend, h);
    CountDownLatch gate = new CountDownLatch(1);
    h.gate.set(gate);
    CompletableFuture<Response> building = CompletableFuture.supplyAsync(() -> site.get("/article/8"));
    try {
      Eventually.assertWithin(Duration.ofSeconds(10), "the build started", () -> h.calls.get() == 1);
      site.cache.purgeTags(List.of("article:7"));
    } finally {
      gate.countDown();
    }
    assertEquals(200, building.get(30, TimeUnit.SECONDS).status(), "the request in flight gets what it built");
    h.gate.set(null);
    h.failure.set(new IllegalStateException("database down"));
    Response next = site.get("/article/8");
    assertEquals(500, next.status(), "the page built across the purge is not served, not even stale: " + next);
    h.failure.set(null);
    edition.set(2);
    assertTrue(site.get("/article/8").text().contains("edition 2"));
    assertEquals("HIT", site.get("/article/8").xcache());
  }

  /** A page naming {@code count} tags product:0 ... in Surrogate-Key, and {@code extra} in xkey. */
  private static SiteServlets.Handler products(int count, String extra) {
    return SiteServlets.of((req, res, call) -> {
      StringBuilder keys = new StringBuilder();
      for (int i = 0; i < count; i++) {
        keys.append("product:").append(i).append(' ');
      }
      res.setHeader("Surrogate-Key", keys.toString().trim());
      if (extra != null) {
        res.setHeader("xkey", extra);
      }
      res.getWriter().print("listing " + call);
    });
  }

  @BothStores
  void aPageIsStoredOnlyIfEveryTagItNamedIsRecorded(Backend backend) {
    SiteUnderTest site = sites.on(backend).handler("list", products(100, null), "/list/*")
        .handler("long", products(1, "x".repeat(Names.MAX_TAG_LENGTH + 1)), "/long/*")
        .handler("most", products(Names.MAX_TAGS, null), "/most/*")
        .handler("bad", SiteServlets.of((req, res, call) -> {
          PageCache.tag(req, "author:Jane Doe"); // a space: no purge could name it
          res.getWriter().print("listing " + call);
        }), "/bad/*").start();
    for (String path : List.of("/list/1", "/long/1", "/bad/1")) {
      Response first = site.get(path);
      assertEquals(200, first.status(), path + " is served: " + first);
      assertTrue(first.text().startsWith("listing "), first.text());
      assertNotEquals("HIT", site.get(path).xcache(), path + ": a page whose tags cannot all be recorded is not stored");
    }
    site.cache.purgeTags(List.of("product:90"));
    assertNotEquals("HIT", site.get("/list/1").xcache(), "a takedown of its 91st tag cannot miss it");
    assertEquals(3, site.calls("list"), "each request built the page");
    assertEquals(Map.of("too-many-tags", 3L), site.cache.stats("list").bypassesByReason());
    assertEquals(Map.of("tag-too-long", 2L), site.cache.stats("long").bypassesByReason());
    assertEquals(Map.of("invalid-tag", 2L), site.cache.stats("bad").bypassesByReason());
    // at the limit every tag is recorded, the last one too
    site.get("/most/1");
    assertEquals("HIT", site.get("/most/1").xcache(), Names.MAX_TAGS + " tags are stored");
    site.cache.purgeTags(List.of("product:" + (Names.MAX_TAGS - 1)));
    assertNotEquals("HIT", site.get("/most/1").xcache(), "a purge of its last tag reaches it");
  }
}
