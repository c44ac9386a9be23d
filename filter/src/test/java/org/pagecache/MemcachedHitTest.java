package org.pagecache;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.pagecache.store.Namespace;
import org.pagecache.testing.Http;
import org.pagecache.testing.MemcachedExtension;
import org.pagecache.testing.MutableClock;
import org.pagecache.testing.RecordingStore;

/**
 * A hit beyond the near cache costs one memcached {@code get} (issue 38): the page alone while the
 * handler's token was confirmed within {@code near.trust}; for a client without gzip, the page's
 * identity copy, made by the first such client to get the page fresh from memcached, and trusted
 * only as long as the page itself would be (a refresh, an evict here at once, an evict elsewhere
 * within {@code near.trust}). Real memcached, real HTTP, the near cache off ({@code near.size=0}) so
 * that every hit goes to memcached; the store's calls recorded, the clock moved by hand.
 */
class MemcachedHitTest {
  @RegisterExtension
  static MemcachedExtension memcached = MemcachedExtension.nodes(1);

  private static final String[] GZIP = {"Accept-Encoding", "gzip"};
  /** A page just below the largest max.entry.size: its copy (page, headers, envelope) would be over it. */
  private static final int BIG_PAGE = 1_047_500;

  private final MutableClock clock = new MutableClock();
  private final List<AutoCloseable> opened = new ArrayList<>();
  private RecordingStore store;

  @AfterEach
  void stop() throws Exception {
    for (AutoCloseable c : opened) {
      c.close();
    }
  }

  private CachedSite site(String... params) {
    store = RecordingStore.onMemcached(memcached.servers());
    CachedSite site = new CachedSite(memcached.servers()).clock(clock).store(store).set("near.size", "0")
        .set("rebuild.background", "0");
    for (int i = 0; i < params.length; i += 2) {
      site.set(params[i], params[i + 1]);
    }
    opened.add(0, site);
    return site.handler("p", SiteServlets.page(), "/p/*").handler("s", SiteServlets.of((req, res, call) -> {
      res.setContentType("text/html;charset=UTF-8");
      res.getWriter().print("small call " + call);
    }), "/s/*").handler("t", SiteServlets.of((req, res, call) -> {
      res.setContentType("text/html;charset=UTF-8");
      res.setHeader("X-Cache-Tags", "news");
      res.getWriter().print("<p>tagged call " + call + "</p>" + SiteServlets.filler(20));
    }), "/t/*").handler("big", SiteServlets.of((req, res, call) -> {
      res.setContentType("text/html;charset=UTF-8");
      res.getWriter().print(("<p>big call " + call + "</p>" + SiteServlets.filler(40_000)).substring(0, BIG_PAGE));
    }), "/big/*").start();
  }

  private static String copyKey(CachedSite site, String path) {
    return Namespace.identityCopyOf(site.pageKey("p", path, null));
  }

  private static String xcache(HttpResponse<?> r) {
    return r.headers().firstValue("X-Cache").orElse(null);
  }

  /** A page built, then read from memcached once by a client without gzip (which makes its copy). */
  private HttpResponse<byte[]> builtAndCopied(CachedSite site, String path) {
    assertEquals("MISS", xcache(site.get(path)));
    HttpResponse<byte[]> first = site.get(path);
    assertEquals("HIT", xcache(first));
    assertNotNull(store.get(copyKey(site, path)), "the first client without gzip to hit the page made its copy");
    return first;
  }

  @Test
  void aHitReadsThePageAloneWhileTheHandlerIsConfirmed() {
    CachedSite site = site();
    site.get("/p/1", GZIP);
    store.clear();
    for (int i = 0; i < 5; i++) {
      assertEquals("HIT", xcache(site.get("/p/1", GZIP)));
    }
    assertEquals(List.of("get", "get", "get", "get", "get"), store.calls().stream().map(RecordingStore.Call::op).toList(),
        "one get of the page per hit, no token: " + store.calls());
    assertEquals(5, store.keys("get").stream().filter(site.pageKey("p", "/p/1", null)::equals).count());
  }

  @Test
  void withoutATrustWindowEveryHitReadsTheTokenWithThePage() {
    CachedSite site = site("near.trust", "0s");
    site.get("/p/1", GZIP);
    store.clear();
    assertEquals("HIT", xcache(site.get("/p/1", GZIP)));
    assertEquals(List.of(site.cache.engine.tokens.key("p"), site.pageKey("p", "/p/1", null)), store.keys("getMulti"));
    assertEquals(2, store.calls().size(), "the token and the page, one multi-get: " + store.calls());
    store.clear();
    assertEquals("HIT", xcache(site.get("/p/1")));
    assertTrue(store.keys("get").isEmpty(), "and no identity copy for a client without gzip: " + store.calls());
  }

  @Test
  void aRefreshInAnotherJvmIsSeenByAMemcachedHitWithinTheTrustWindow() {
    CachedSite site = site();
    site.get("/p/1", GZIP);
    PageCacheConfig otherJvm = PageCacheConfig.builder().ignoreEnvironment().clock(clock)
        .set("memcached.servers", memcached.servers()).set("namespace", site.params.get("namespace")).build();
    try (PageCache other = PageCache.start(otherJvm)) {
      other.refreshHandler("p", "cms");
    }
    clock.advance(Duration.ofMillis(999));
    HttpResponse<byte[]> inside = site.get("/p/1", GZIP);
    assertEquals("HIT", xcache(inside), "inside the window the token this JVM confirmed judges the page");
    clock.advance(Duration.ofMillis(1));
    HttpResponse<byte[]> after = site.get("/p/1", GZIP);
    assertEquals("MISS", xcache(after), "at the end of the window the handler is confirmed again, and the refresh seen");
    assertEquals(2, site.calls("p"));
  }

  @Test
  void aClientWithoutGzipGetsTheIdentityCopyInOneGet() {
    CachedSite site = site();
    assertEquals("MISS", xcache(site.get("/p/1")));
    store.clear();
    HttpResponse<byte[]> first = site.get("/p/1");
    assertEquals("HIT", xcache(first));
    assertEquals(List.of("get " + copyKey(site, "/p/1"), "get " + site.pageKey("p", "/p/1", null),
            "set " + copyKey(site, "/p/1")),
        store.calls().stream().map(c -> c.op() + " " + c.key()).toList(),
        "the copy (none yet), the page, then the copy made from it");
    store.clear();
    HttpResponse<byte[]> second = site.get("/p/1");
    assertEquals("HIT", xcache(second));
    assertEquals(List.of("get " + copyKey(site, "/p/1")), store.calls().stream().map(c -> c.op() + " " + c.key())
        .toList(), "one get of the copy, nothing else");
    assertArrayEquals(first.body(), second.body(), "the same bytes as the inflated page");
    assertNull(second.headers().firstValue("Content-Encoding").orElse(null));
    assertEquals(first.headers().firstValue("ETag"), second.headers().firstValue("ETag"));
    assertTrue(second.headers().firstValue("Vary").orElse("").contains("Accept-Encoding"), "the answer still varies");
    HttpResponse<byte[]> gzip = site.get("/p/1", GZIP);
    assertEquals("gzip", gzip.headers().firstValue("Content-Encoding").orElse(null), "a browser still gets the gzip");
    assertEquals(1, site.calls("p"));
  }

  @Test
  void withIdentityCopiesOffAClientWithoutGzipReadsThePageAndInflatesIt() {
    CachedSite site = site("identity.copies", "off");
    site.get("/p/1");
    store.clear();
    for (int i = 0; i < 3; i++) {
      assertEquals("HIT", xcache(site.get("/p/1")));
    }
    assertEquals(List.of("get", "get", "get"), store.calls().stream().map(RecordingStore.Call::op).toList());
    assertEquals(3, store.keys("get").stream().filter(site.pageKey("p", "/p/1", null)::equals).count(),
        "the page each time, no copy read or made: " + store.calls());
  }

  @Test
  void aPageStoredUncompressedIsItsOwnCopy() {
    CachedSite site = site();
    assertEquals("MISS", xcache(site.get("/s/1"))); // below gzip's threshold: stored as is
    site.get("/s/1");
    store.clear();
    HttpResponse<byte[]> hit = site.get("/s/1");
    assertEquals("HIT", xcache(hit));
    assertEquals("small call 1", Http.text(hit));
    // Its clients without gzip read the copy's key first, so the copy is the page: one get per hit, not two.
    assertEquals(List.of("get " + Namespace.identityCopyOf(site.pageKey("s", "/s/1", null))),
        store.calls().stream().map(c -> c.op() + " " + c.key()).toList());
  }

  @Test
  void aRefreshLeavesTheCopyUnserved() {
    CachedSite site = site();
    builtAndCopied(site, "/p/1");
    site.cache.refreshHandler("p", "cms");
    HttpResponse<byte[]> after = site.get("/p/1");
    assertEquals("MISS", xcache(after), "the copy carries the page's token: stale with it");
    assertTrue(Http.text(after).contains("call 2"));
    assertTrue(Http.text(site.get("/p/1")).contains("call 2"), "and the next copy is made from the new page");
  }

  @Test
  void anEvictHereIsSeenAtOnceEvenByACopyWrittenAfterIt() {
    CachedSite site = site();
    builtAndCopied(site, "/p/1");
    byte[] oldCopy = store.get(copyKey(site, "/p/1"));
    assertTrue(site.cache.evict(site.uri("/p/1").toString()).existed());
    assertNull(store.get(copyKey(site, "/p/1")), "the evict deleted the copy with the page");
    // A lookup that read the page just before the delete writes its copy just after it.
    store.set(copyKey(site, "/p/1"), oldCopy, 60);
    HttpResponse<byte[]> after = site.get("/p/1");
    assertEquals("MISS", xcache(after), "a copy made before the evict is not trusted, at once");
    assertTrue(Http.text(after).contains("call 2"));
  }

  @Test
  void aCopyMadeBeforeAnEvictElsewhereIsNotTrustedOnceTheEvictIsSeen() {
    CachedSite site = site();
    builtAndCopied(site, "/p/1");
    byte[] oldCopy = store.get(copyKey(site, "/p/1"));
    PageCacheConfig otherJvm = PageCacheConfig.builder().ignoreEnvironment().clock(clock)
        .set("memcached.servers", memcached.servers()).set("namespace", site.params.get("namespace")).build();
    try (PageCache other = PageCache.start(otherJvm)) {
      other.handlersByPath(path -> "p");
      assertTrue(other.evict(site.uri("/p/1").toString()).existed());
    }
    assertNull(store.get(copyKey(site, "/p/1")), "that evict deleted the copy too");
    store.set(copyKey(site, "/p/1"), oldCopy, 60); // written by a lookup of this JVM racing the evict
    clock.advance(Duration.ofSeconds(1));
    HttpResponse<byte[]> after = site.get("/p/1");
    assertEquals("MISS", xcache(after), "once the handler's evictions are seen changed, the copy is not trusted");
    assertTrue(Http.text(after).contains("call 2"));
  }

  @Test
  void aTagInvalidationLeavesTheCopyUnserved() {
    CachedSite site = site();
    assertEquals("MISS", xcache(site.get("/t/1")));
    assertEquals("HIT", xcache(site.get("/t/1")));
    assertNotNull(store.get(Namespace.identityCopyOf(site.pageKey("t", "/t/1", null))));
    site.cache.invalidateTag("news");
    HttpResponse<byte[]> after = site.get("/t/1");
    assertEquals("MISS", xcache(after), "the copy carries the page's tag versions: stale with it");
    assertTrue(Http.text(after).contains("tagged call 2"));
  }

  @Test
  void aCopyTooLargeToStoreIsNotMadeAndTheClientIsServed() {
    CachedSite site = site("max.entry.size", "1047552");
    assertEquals("MISS", xcache(site.get("/big/1")));
    for (int i = 0; i < 2; i++) {
      HttpResponse<byte[]> hit = site.get("/big/1");
      assertEquals(200, hit.statusCode(), "never a 5xx for a copy that cannot be stored");
      assertEquals("HIT", xcache(hit));
      assertEquals(BIG_PAGE, hit.body().length);
    }
    assertTrue(store.get(Namespace.identityCopyOf(site.pageKey("big", "/big/1", null))) == null,
        "the page fits gzipped; its identity copy would not");
  }

  @Test
  void withANearCacheACopyReadFromMemcachedIsHeldInTheJvm() {
    CachedSite site = site("near.size", "16m");
    assertEquals("MISS", xcache(site.get("/p/1")));
    // As on a server that did not build the page: this JVM holds neither the page nor its copy.
    site.cache.engine.near.drop(site.pageKey("p", "/p/1", null));
    assertEquals("HIT", xcache(site.get("/p/1"))); // reads the page, makes the copy
    site.cache.engine.near.drop(site.pageKey("p", "/p/1", null));
    store.clear();
    assertEquals("HIT", xcache(site.get("/p/1")));
    assertEquals(List.of("get " + copyKey(site, "/p/1")), store.calls().stream().map(c -> c.op() + " " + c.key())
        .toList(), "the copy read from memcached once");
    store.clear();
    for (int i = 0; i < 5; i++) {
      assertEquals("HIT", xcache(site.get("/p/1")));
    }
    assertTrue(store.calls().isEmpty(), "then held in this JVM's near cache: " + store.calls());
  }

  @Test
  void aCopyAnswersConditionalRangeAndHeadRequestsAsThePageDoes() {
    CachedSite site = site();
    HttpResponse<byte[]> full = builtAndCopied(site, "/p/1");
    String etag = full.headers().firstValue("ETag").orElseThrow();
    store.clear();
    HttpResponse<byte[]> notModified = site.get("/p/1", "If-None-Match", etag);
    assertEquals(304, notModified.statusCode());
    assertEquals(0, notModified.body().length);
    HttpResponse<byte[]> range = site.get("/p/1", "Range", "bytes=6-11");
    assertEquals(206, range.statusCode());
    assertArrayEquals(java.util.Arrays.copyOfRange(full.body(), 6, 12), range.body());
    HttpResponse<byte[]> head = Http.head(site.uri("/p/1"));
    assertEquals(200, head.statusCode());
    assertEquals(String.valueOf(full.body().length), head.headers().firstValue("Content-Length").orElse(null));
    assertEquals(0, head.body().length);
    assertEquals(List.of("get", "get", "get"), store.calls().stream().map(RecordingStore.Call::op).toList(),
        "each answered from the copy alone: " + store.calls());
  }
}
