package org.pagecache;

import org.pagecache.stats.Refresh;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.pagecache.SiteUnderTest.Backend;
import org.pagecache.SiteUnderTest.BothStores;
import org.pagecache.SiteUnderTest.Response;
import org.pagecache.testing.MemcachedExtension;
import org.pagecache.testing.MutableClock;

/**
 * Specification, on both stores (fast tier, {@link SiteUnderTest}): a refresh condemns one
 * handler's pages and no other's, a tag invalidation reaches every page carrying the tag whatever
 * its handler, and a hot page is rebuilt early instead of going stale. What needs memcached itself
 * (expiry times, lost and older tokens, stampedes over sockets) stays in {@link FreshnessFlowTest}.
 */
class TokensAndTagsSpec {
  @RegisterExtension
  static MemcachedExtension memcached = MemcachedExtension.nodes(1);

  @RegisterExtension
  final SiteUnderTest.Sites sites = new SiteUnderTest.Sites(memcached);

  private final MutableClock clock = new MutableClock();

  @BothStores
  void refreshingOneHandlerRebuildsItsPagesAndLeavesOthersCached(Backend backend) {
    SiteUnderTest site = sites.on(backend).clock(clock)
        .handler("a", SiteServlets.page(), "/a/*").handler("b", SiteServlets.page(), "/b/*").start();
    site.get("/a/1");
    site.get("/b/1");
    Refresh refresh = site.cache.refreshHandler("a");
    assertTrue(refresh.known());
    assertTrue(refresh.token() > 0);
    clock.advance(Duration.ofMillis(1));
    Response a = site.get("/a/1");
    assertEquals("MISS", a.xcache(), "a's page was condemned and rebuilt by this request");
    assertTrue(a.text().contains("call 2"));
    assertEquals("HIT", site.get("/a/1").xcache());
    assertEquals("HIT", site.get("/b/1").xcache());
    assertEquals(1, site.calls("b"));
    if (backend == Backend.MEMCACHED) {
      assertEquals(0, memcached.text(0).statLong("cmd_flush"), "never flush_all");
    }
  }

  @BothStores
  void refreshOfAnUnknownHandlerIsHarmlessAndSaysSo(Backend backend) {
    SiteUnderTest site = sites.on(backend).clock(clock).handler("a", SiteServlets.page(), "/a/*").start();
    Refresh r = site.cache.refreshHandler("never-seen");
    assertFalse(r.known());
    assertFalse(site.cache.refreshHandler("never-seen").known(), "a misspelt name stays unknown when refreshed again");
    site.get("/a/1");
    assertTrue(site.cache.refreshHandler("a").known(), "a handler that served a page is known");
  }

  @BothStores
  void aTagInvalidationReachesPagesOfTwoHandlers(Backend backend) {
    SiteServlets.Handler article = SiteServlets.of((req, res, call) -> {
      PageCache.tag(req, "article:42");
      res.getWriter().print("article call " + call);
    });
    SiteServlets.Handler list = SiteServlets.of((req, res, call) -> {
      res.setHeader("X-Cache-Tags", "article:42, section:sport");
      res.getWriter().print("list call " + call);
    });
    SiteUnderTest site = sites.on(backend).clock(clock).set("tag.cache", "1ms")
        .handler("article", article, "/article/*").handler("list", list, "/list")
        .handler("other", SiteServlets.page(), "/other").start();
    site.get("/article/42");
    Response l = site.get("/list");
    assertNull(l.header("X-Cache-Tags"), "tag header stripped");
    site.get("/other");
    assertEquals("HIT", site.get("/article/42").xcache());
    assertEquals("HIT", site.get("/list").xcache());
    clock.advance(Duration.ofMillis(5));
    site.cache.invalidateTag("article:42");
    clock.advance(Duration.ofMillis(5));
    assertEquals("MISS", site.get("/article/42").xcache());
    assertEquals("MISS", site.get("/list").xcache());
    assertEquals("HIT", site.get("/other").xcache());
    assertEquals("HIT", site.get("/article/42").xcache());
  }

  @BothStores
  void aPageWithABrandNewTagIsAHitOnItsSecondRequest(Backend backend) {
    SiteUnderTest site = sites.on(backend).clock(clock).handler("tagged", SiteServlets.of((req, res, call) -> {
      PageCache.tag(req, "brand-new-tag");
      clock.advance(Duration.ofMillis(3)); // building takes time: the tag is created after the build started
      res.getWriter().print("call " + call);
    }), "/tagged").start();
    assertEquals("MISS", site.get("/tagged").xcache());
    assertEquals("HIT", site.get("/tagged").xcache());
    assertEquals(1, site.calls("tagged"));
  }

  @BothStores
  void earlyRefreshRebuildsAHotPageBeforeItGoesStale(Backend backend) {
    SiteServlets.Handler h = SiteServlets.of((req, res, call) -> {
      if (call == 1) {
        clock.advance(Duration.ofMillis(500)); // the first build takes 500 ms: XFetch scales by build time
      }
      res.getWriter().print("call " + call);
    });
    SiteUnderTest site = sites.on(backend).clock(clock).set("policies", "early: ttl=60s, early-refresh=on")
        .handler("early", h, "/early").start();
    assertEquals("MISS", site.get("/early").xcache());
    // Half-way through the TTL an early refresh is practically impossible (it would need a random
    // number below e^-60)...
    clock.advance(Duration.ofSeconds(30));
    assertEquals("HIT", site.get("/early").xcache());
    assertEquals(1, h.calls.get());
    // ...while 250 ms before freshUntil each request refreshes early with probability e^-0.5 (about
    // 0.6): within a bounded number of requests one does, and nobody sees STALE.
    clock.advance(Duration.ofMillis(29_750));
    Map<String, Integer> labels = new TreeMap<>();
    Response rebuild = null;
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    for (int i = 0; i < 200 && h.calls.get() < 2 && System.nanoTime() < deadline; i++) {
      Response r = site.get("/early");
      assertEquals(200, r.status());
      labels.merge(r.xcache(), 1, Integer::sum);
      if (h.calls.get() == 2 && rebuild == null) {
        rebuild = r;
      }
    }
    assertEquals(2, h.calls.get(), "refreshed early: " + labels);
    assertFalse(labels.containsKey("STALE"), "never stale: " + labels);
    assertEquals(1, labels.getOrDefault("MISS", 0), "only the request that ran the handler is a MISS: " + labels);
    assertEquals("MISS", rebuild.xcache());
    assertTrue(String.valueOf(rebuild.header("Cache-Status")).contains("fwd=stale"), rebuild.toString());
    assertEquals("call 2", rebuild.text());
    // Past the old page's freshUntil the refreshed page is still fresh.
    clock.advance(Duration.ofSeconds(1));
    Response after = site.get("/early");
    assertEquals("HIT", after.xcache());
    assertEquals("call 2", after.text());
    assertEquals(2, h.calls.get());
  }
}
