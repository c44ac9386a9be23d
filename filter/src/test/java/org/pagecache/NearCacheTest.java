package org.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.pagecache.stats.NearStats;
import org.pagecache.store.Namespace;
import org.pagecache.testing.Eventually;
import org.pagecache.testing.Http;
import org.pagecache.testing.MemcachedExtension;
import org.pagecache.testing.MutableClock;
import org.pagecache.testing.RecordingStore;

/**
 * The near cache (issue 14): each JVM serves the pages it holds without memcached for
 * {@code near.trust} after memcached last confirmed them, sees its own refreshes at once and other
 * JVMs' within the trust window; requests of one JVM wait together for a cold page. Real memcached,
 * real HTTP, a clock the tests move; what holds on any store is specified in {@link NearCacheSpec}.
 */
class NearCacheTest {
  @RegisterExtension
  static MemcachedExtension memcached = MemcachedExtension.nodes(1);

  private final MutableClock clock = new MutableClock();
  private final List<AutoCloseable> opened = new ArrayList<>();
  private RecordingStore store;

  @AfterEach
  void stop() throws Exception {
    for (AutoCloseable c : opened) {
      c.close();
    }
  }

  /** A site whose store calls are recorded (real memcached behind). */
  private CachedSite site(String... params) {
    store = RecordingStore.onMemcached(memcached.servers());
    // The stale page's rebuild in the foreground, so its round trips are the request's (BackgroundRebuildTest: the default)
    CachedSite site = new CachedSite(memcached.servers()).clock(clock).store(store).set("rebuild.background", "0");
    for (int i = 0; i < params.length; i += 2) {
      site.set(params[i], params[i + 1]);
    }
    opened.add(0, site);
    return site;
  }

  /** How many lookups of this page reached memcached since the last clear. */
  private long pageReads(CachedSite site, String path) {
    String key = site.pageKey("p", path, null);
    return store.keys("getMulti").stream().filter(key::equals).count()
        + store.keys("get").stream().filter(key::equals).count();
  }

  /** How many times the handler's token was read since the last clear (a lookup through memcached, or a confirmation). */
  private long tokenReads(CachedSite site, String handler) {
    String key = site.cache.engine.tokens.key(handler);
    return store.keys("getMulti").stream().filter(key::equals).count();
  }

  private static String xcache(HttpResponse<?> r) {
    return r.headers().firstValue("X-Cache").orElse(null);
  }

  @Test
  void aHotPageIsServedFromTheJvmWithoutAskingMemcachedWithinTheTrustWindow() {
    CachedSite site = site().handler("p", SiteServlets.page(), "/p").start();
    assertEquals("MISS", xcache(site.get("/p")));
    store.clear();
    for (int i = 0; i < 100; i++) {
      HttpResponse<byte[]> r = site.get("/p");
      assertEquals("HIT", xcache(r));
      assertTrue(Http.text(r).contains("call 1"));
    }
    assertEquals(0, pageReads(site, "/p"), "100 hits inside the trust window: no memcached read of the page");
    clock.advance(Duration.ofSeconds(1));
    for (int i = 0; i < 100; i++) {
      assertEquals("HIT", xcache(site.get("/p")));
    }
    assertEquals(0, pageReads(site, "/p"), "past the trust window the handler is confirmed, not the page");
    assertEquals(1, tokenReads(site, "p"), "one multi-get of the handler's token and evictions");
    assertEquals(1, site.calls("p"));
    NearStats near = site.cache.nearStats();
    assertEquals(1, near.entries());
    assertEquals(200, near.hits());
    assertTrue(near.bytes() > 0);
  }

  @Test
  void trustWindowZeroMeansOneMemcachedRoundTripPerHitAgain() {
    CachedSite site = site("near.trust", "0s").handler("p", SiteServlets.page(), "/p").start();
    site.get("/p");
    store.clear();
    for (int i = 0; i < 10; i++) {
      assertEquals("HIT", xcache(site.get("/p")));
    }
    assertEquals(10, pageReads(site, "/p"), "one multi-get per hit, as without a near cache");
    assertEquals(10, store.keys("getMulti").size() / 2, "and nothing else: token and page in that one multi-get");
    assertFalse(site.cache.nearStats().enabled());
  }

  @Test
  void aRefreshInAnotherJvmIsSeenWithinTheTrustWindow() {
    CachedSite site = site().handler("p", SiteServlets.page(), "/p").start();
    site.get("/p");
    PageCacheConfig otherJvm = PageCacheConfig.builder().ignoreEnvironment().clock(clock)
        .set("memcached.servers", memcached.servers()).set("namespace", site.params.get("namespace")).build();
    try (PageCache other = PageCache.start(otherJvm)) {
      other.refreshHandler("p", "cms");
      other.evict(site.uri("/p").toString());
    }
    clock.advance(Duration.ofMillis(999));
    HttpResponse<byte[]> inside = site.get("/p");
    assertEquals("HIT", xcache(inside), "inside the trust window this JVM still serves what it holds");
    assertTrue(Http.text(inside).contains("call 1"));
    clock.advance(Duration.ofMillis(1));
    HttpResponse<byte[]> after = site.get("/p");
    assertEquals("MISS", xcache(after), "at the end of the trust window memcached is asked, and the refresh seen");
    assertTrue(Http.text(after).contains("call 2"));
  }

  @Test
  void manyPagesOfOneHandlerCostOneMemcachedRoundTripPerTrustWindow() {
    int pages = 40;
    CachedSite site = site().handler("p", SiteServlets.page(), "/p/*").start();
    for (int i = 0; i < pages; i++) {
      assertEquals("MISS", xcache(site.get("/p/" + i)));
    }
    for (int window = 0; window < 3; window++) {
      clock.advance(Duration.ofSeconds(1));
      store.clear();
      for (int round = 0; round < 2; round++) {
        for (int i = 0; i < pages; i++) {
          assertEquals("HIT", xcache(site.get("/p/" + i)));
        }
      }
      String evictions = new Namespace(site.params.get("namespace")).evictions("p");
      assertEquals(List.of(site.cache.engine.tokens.key("p"), evictions), store.keys("getMulti"),
          "window " + window + ": one multi-get of the handler's token and evictions for " + 2 * pages + " near hits");
      assertEquals(2, store.calls().size(), "no page read from memcached: " + store.calls());
    }
    assertEquals(pages, site.calls("p"));
  }

  @Test
  void theNearCacheKeepsPagesReadAgainOverPagesReadOnce() {
    // Room for about 60 of these small pages. A site's near cache is full once warmed: Caffeine
    // counts how often keys are read only from half full on, so the site is warmed first.
    CachedSite site = site("near.size", "64k").handler("p", SiteServlets.page(), "/p/*").start();
    for (int i = 0; i < 60; i++) {
      site.get("/p/warm" + i);
    }
    List<String> hot = List.of("/p/hot1", "/p/hot2", "/p/hot3", "/p/hot4");
    for (int round = 0; round < 20; round++) {
      hot.forEach(site::get);
    }
    for (int i = 0; i < 300; i++) {
      site.get("/p/once" + i);
    }
    store.clear();
    for (String path : hot) {
      assertEquals("HIT", xcache(site.get(path)));
      assertEquals(0, pageReads(site, path), path + " is still held: one scan of pages read once did not push it out");
    }
    assertTrue(site.cache.nearStats().bytes() <= 64 * 1024, "within its bound: " + site.cache.nearStats());
  }

  @Test
  void anEvictInAnotherJvmIsSeenWithinTheTrustWindowWithoutReadingEveryPage() {
    CachedSite site = site().handler("p", SiteServlets.page(), "/p/*").start();
    site.get("/p/1");
    site.get("/p/2");
    PageCacheConfig otherJvm = PageCacheConfig.builder().ignoreEnvironment().clock(clock)
        .set("memcached.servers", memcached.servers()).set("namespace", site.params.get("namespace")).build();
    try (PageCache other = PageCache.start(otherJvm)) {
      other.handlersByPath(path -> "p");
      assertTrue(other.evict(site.uri("/p/1").toString()).existed());
    }
    clock.advance(Duration.ofMillis(999));
    assertEquals("HIT", xcache(site.get("/p/1")), "inside the trust window this JVM still serves what it holds");
    clock.advance(Duration.ofMillis(1));
    HttpResponse<byte[]> evicted = site.get("/p/1");
    assertEquals("MISS", xcache(evicted), "at the end of the window the handler's evictions changed: read again");
    assertTrue(Http.text(evicted).contains("call 3"));
    store.clear();
    assertEquals("HIT", xcache(site.get("/p/2")));
    assertEquals(1, pageReads(site, "/p/2"), "a page held from before the evict is read again once");
    assertEquals("HIT", xcache(site.get("/p/2")));
    assertEquals(1, pageReads(site, "/p/2"), "and then trusted again");
  }

  @Test
  void aPageExpiredByItsOwnTimeTakesTheSingleRebuildPath() {
    CachedSite site = site("policies", "p: ttl=10s", "near.trust", "1m").handler("p", SiteServlets.page(), "/p").start();
    site.get("/p");
    clock.advance(Duration.ofSeconds(10)); // past its TTL, still inside the (long) trust window
    store.clear();
    HttpResponse<byte[]> r = site.get("/p");
    assertEquals("MISS", xcache(r));
    assertTrue(Http.text(r).contains("call 2"));
    assertEquals(1, store.keys("add").stream().filter(k -> k.equals(site.lockKey("p", "/p"))).count(),
        "rebuilt under the page's lock, as before");
  }

  @Test
  void viewsOnNearHitsAreAllCounted() throws Exception {
    SiteServlets.Handler article = SiteServlets.of((req, res, call) -> {
      PageCache.countView(req, "article:7");
      res.setContentType("text/html");
      res.getWriter().print("<p>views <!--pagecache:views article:7--></p>");
    });
    CachedSite site = site().countSource(key -> 0).handler("p", article, "/a").start();
    String namespace = site.params.get("namespace");
    HttpResponse<byte[]> last = null;
    for (int i = 0; i < 50; i++) {
      last = site.get("/a");
    }
    assertEquals("HIT", xcache(last));
    assertEquals("<p>views 50</p>", Http.text(last), "every near hit counted and shown");
    assertTrue(store.keys("incr").size() < 10,
        "aggregated in the JVM: one incr per second at most, not one per view; saw " + store.keys("incr").size());
    site.close();
    opened.remove(site);
    PageCacheConfig otherJvm = PageCacheConfig.builder().ignoreEnvironment().clock(clock)
        .set("memcached.servers", memcached.servers()).set("namespace", namespace).build();
    try (PageCache other = PageCache.start(otherJvm)) {
      assertEquals(50, other.counters().views("article:7"), "all 50 reached memcached when the first JVM stopped");
    }
  }

  @Test
  void aColdPageWantedByFiftyRequestsOfOneJvmCostsOneBuildAndAFewMemcachedCalls() throws Exception {
    int n = 50;
    SiteServlets.Handler h = SiteServlets.page();
    CachedSite site = site("lock.wait", "20s", "lock.ttl", "30s").handler("p", h, "/cold").start();
    CountDownLatch gate = new CountDownLatch(1);
    h.gate.set(gate);
    ExecutorService pool = Executors.newFixedThreadPool(n);
    try {
      store.clear();
      CyclicBarrier start = new CyclicBarrier(n);
      List<Future<HttpResponse<byte[]>>> answers = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        answers.add(pool.submit(() -> {
          start.await(30, TimeUnit.SECONDS);
          return site.get("/cold");
        }));
      }
      Eventually.assertWithin(Duration.ofSeconds(15), "49 requests waiting for the one build",
          () -> site.cache.stats().handler("p").lockWaits() == n - 1);
      gate.countDown();
      Map<String, Integer> labels = new TreeMap<>();
      for (Future<HttpResponse<byte[]>> f : answers) {
        HttpResponse<byte[]> r = f.get(30, TimeUnit.SECONDS);
        assertTrue(Http.text(r).contains("page /cold"));
        labels.merge(xcache(r), 1, Integer::sum);
      }
      assertEquals(1, h.calls.get(), "one backend call: " + labels);
      assertEquals(Map.of("MISS", 1, "HIT", n - 1), labels);
      String lockKey = site.lockKey("p", "/cold");
      assertEquals(1, store.keys("add").stream().filter(lockKey::equals).count(), "one add on the lock: the builder's");
      assertEquals(0, store.keys("getMulti").stream().filter(lockKey::equals).count(), "nobody polled memcached");
      String pageKey = site.pageKey("p", "/cold", null);
      long lookups = store.keys("getMulti").stream().filter(pageKey::equals).count();
      assertTrue(lookups <= n + 1, "at most one lookup per request (and the builder's second look); was " + lookups);
    } finally {
      h.gate.set(null);
      gate.countDown();
      pool.shutdownNow();
    }
  }
}
