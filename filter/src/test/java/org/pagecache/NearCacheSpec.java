package org.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Base64;
import java.util.Random;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.pagecache.stats.NearStats;
import org.pagecache.SiteUnderTest.Backend;
import org.pagecache.SiteUnderTest.BothStores;
import org.pagecache.SiteUnderTest.Response;
import org.pagecache.testing.MemcachedExtension;
import org.pagecache.testing.MutableClock;

/**
 * Specification, on both stores (fast tier, {@link SiteUnderTest}): the near cache (pages this JVM
 * served recently) never hides what this JVM itself did (a refresh, a tag invalidation, an
 * eviction), stays within its size bound, and keeps the inflated body for clients without gzip.
 * What is about memcached round trips and other JVMs stays in {@link NearCacheTest}.
 */
class NearCacheSpec {
  @RegisterExtension
  static MemcachedExtension memcached = MemcachedExtension.nodes(1);

  @RegisterExtension
  final SiteUnderTest.Sites sites = new SiteUnderTest.Sites(memcached);

  private final MutableClock clock = new MutableClock();

  @BothStores
  void aRefreshInThisJvmIsSeenByTheNextRequest(Backend backend) {
    SiteUnderTest site = sites.on(backend).clock(clock)
        .handler("p", SiteServlets.page(), "/p").handler("q", SiteServlets.page(), "/q").start();
    site.get("/p");
    site.get("/q");
    assertEquals("HIT", site.get("/p").xcache());
    site.cache.refreshHandler("p");
    Response r = site.get("/p");
    assertEquals("MISS", r.xcache(), "no clock moved: the local refresh dropped the near entry at once");
    assertTrue(r.text().contains("call 2"));
    assertEquals("HIT", site.get("/q").xcache(), "another handler keeps its near entry");
    assertEquals(1, site.calls("q"));
  }

  @BothStores
  void aTagInvalidationAndAnEvictInThisJvmAreSeenByTheNextRequest(Backend backend) {
    SiteServlets.Handler tagged = SiteServlets.of((req, res, call) -> {
      PageCache.tag(req, "article:1");
      res.getWriter().print("tagged call " + call);
    });
    SiteUnderTest site = sites.on(backend).clock(clock)
        .handler("t", tagged, "/t").handler("p", SiteServlets.page(), "/p").start();
    site.get("/t");
    site.get("/p");
    assertEquals("HIT", site.get("/t").xcache());
    assertEquals("HIT", site.get("/p").xcache());
    clock.advance(Duration.ofMillis(1)); // the invalidation's version is after the build
    site.cache.invalidateTag("article:1");
    assertTrue(site.cache.evict("http://localhost/p").existed());
    Response t = site.get("/t");
    Response p = site.get("/p");
    assertEquals("tagged call 2", t.text());
    assertEquals("MISS", p.xcache());
    assertTrue(p.text().contains("call 2"));
  }

  @BothStores
  void aNearCacheAtItsSizeBoundEvictsAndKeepsServingCorrectly(Backend backend) {
    // Incompressible 8 KB bodies (about 6 KB gzipped) against a 32 KB bound: only a few fit.
    SiteServlets.Handler pages = SiteServlets.of((req, res, call) -> {
      byte[] noise = new byte[6 * 1024];
      new Random(req.getRequestURI().hashCode()).nextBytes(noise);
      res.setContentType("text/html");
      res.getWriter().print("<p>" + req.getRequestURI() + "</p>" + Base64.getEncoder().encodeToString(noise));
    });
    SiteUnderTest site = sites.on(backend).clock(clock).set("near.size", "32k").handler("p", pages, "/p/*").start();
    for (int round = 0; round < 2; round++) {
      for (int i = 0; i < 20; i++) {
        Response r = site.get("/p/" + i);
        assertTrue(r.text().startsWith("<p>/p/" + i + "</p>"), "page " + i + " round " + round);
        if (round == 1) {
          assertEquals("HIT", r.xcache(), "evicted from the near cache, still a hit from the store");
        }
        NearStats near = site.cache.nearStats();
        assertTrue(near.bytes() <= 32 * 1024, "within its bound: " + near);
      }
    }
    NearStats near = site.cache.nearStats();
    assertTrue(near.entries() > 0 && near.entries() < 20, "some pages held, not all: " + near);
    assertEquals(20, site.calls("p"), "each page built once");
  }

  @BothStores
  void clientsWithoutGzipGetTheInflatedBodyFromTheNearEntry(Backend backend) {
    SiteUnderTest site = sites.on(backend).clock(clock).handler("p", SiteServlets.page(), "/p").start();
    String built = site.get("/p").text();
    long before = site.cache.nearStats().bytes();
    Response plain = site.get("/p");
    assertEquals(built, plain.text());
    assertTrue(site.cache.nearStats().bytes() > before, "the inflated body is kept (and weighed) with the entry");
    Response gz = site.get("/p", "Accept-Encoding", "gzip");
    assertEquals("gzip", gz.header("Content-Encoding"));
    assertEquals(built, site.get("/p").text());
  }
}
