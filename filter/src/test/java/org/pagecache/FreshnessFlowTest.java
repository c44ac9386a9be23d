package org.pagecache;

import org.pagecache.stats.Eviction;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.pagecache.testing.Eventually;
import org.pagecache.testing.Http;
import org.pagecache.testing.MemcachedExtension;
import org.pagecache.testing.MutableClock;
import org.pagecache.testing.RecordingStore;

/**
 * Update tokens, soft expiry, tags and the rebuild lock where memcached itself or the sockets
 * matter: expiry times, lost and older tokens, stampedes, builds racing invalidations. What holds
 * on any store is specified in {@link TokensAndTagsSpec} (fast tier).
 */
class FreshnessFlowTest {
  @RegisterExtension
  static MemcachedExtension memcached = MemcachedExtension.nodes(1);

  @RegisterExtension
  final CachedSite.Sites sites = new CachedSite.Sites(memcached);
  private CachedSite site;
  private final MutableClock clock = new MutableClock();

  private CachedSite site() {
    // The foreground rebuild: the request that wins the lock builds while the others get the stale copy (what
    // signed-in visitors' pages, TLS-only connectors and rebuild.background=0 do); BackgroundRebuildTest has the default.
    site = sites.open().clock(clock).set("rebuild.background", "0");
    return site;
  }

  /** Requests in one stampede: each on its own thread, all released together. */
  private static final int STAMPEDE = 200;

  /**
   * {@code n} GETs of one path, each on its own thread, released together by a barrier so that all
   * of them are sent at once. Every response is added to {@code answered} as soon as it arrives
   * and {@code arrived} counts down after it, so a test can wait for answers while others are
   * still held in the server.
   */
  private List<Future<HttpResponse<byte[]>>> together(ExecutorService pool, int n, String path,
      Queue<HttpResponse<byte[]>> answered, CountDownLatch arrived) {
    CyclicBarrier start = new CyclicBarrier(n);
    List<Future<HttpResponse<byte[]>>> futures = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      futures.add(pool.submit(() -> {
        start.await(30, TimeUnit.SECONDS);
        HttpResponse<byte[]> r = site.get(path);
        answered.add(r);
        arrived.countDown();
        return r;
      }));
    }
    return futures;
  }

  private static String xcache(HttpResponse<?> r) {
    return r.headers().firstValue("X-Cache").orElse(null);
  }

  @Test
  void memcachedKeepsAPageForTtlPlusGraceAndTheTokenOutlivesIt() {
    site().set("policies", "soft: ttl=30s, grace=5m").handler("soft", SiteServlets.page(), "/soft").start();
    site.get("/soft");
    Long left = memcached.text(0).secondsToLive(site.pageKey("soft", "/soft", null));
    assertNotNull(left, "the page is stored");
    assertTrue(left > 320 && left <= 330, "memcached's expiry is ttl + grace = 330 s, not the ttl; was " + left);
    site.cache.refreshHandler("soft");
    assertEquals(-1L, memcached.text(0).secondsToLive(site.cache.config.namespace.token("soft")),
        "the token never expires, so no entry can outlive the token that condemns it");
  }

  @Test
  void aStalePageIsServedWhileExactlyOneRequestRebuildsIt() throws Exception {
    SiteServlets.Handler h = SiteServlets.page();
    site().handler("hot", h, "/hot").start();
    String original = Http.text(site.get("/hot"));
    site.cache.refreshHandler("hot");
    assertStampedeServedStale(h, original);

    // and again when the TTL runs out instead of a refresh
    String rebuilt = Http.text(site.get("/hot"));
    clock.advance(Duration.ofSeconds(61));
    h.calls.set(0);
    assertStampedeServedStale(h, rebuilt);
  }

  /**
   * 200 requests released together while the one rebuild is held at a gate: the 199 others are
   * answered STALE with the old body before the gate opens, so none of them waited for the build.
   */
  private void assertStampedeServedStale(SiteServlets.Handler h, String staleBody) throws Exception {
    int before = h.calls.get();
    CountDownLatch gate = new CountDownLatch(1);
    h.gate.set(gate);
    Queue<HttpResponse<byte[]>> answered = new ConcurrentLinkedQueue<>();
    CountDownLatch allButOne = new CountDownLatch(STAMPEDE - 1);
    ExecutorService pool = Executors.newFixedThreadPool(STAMPEDE);
    try {
      List<Future<HttpResponse<byte[]>>> futures = together(pool, STAMPEDE, "/hot", answered, allButOne);
      assertTrue(allButOne.await(30, TimeUnit.SECONDS),
          "all but the rebuilder answered while the build is held; answered: " + answered.size());
      List<HttpResponse<byte[]>> early = new ArrayList<>(answered);
      assertEquals(STAMPEDE - 1, early.size(), "the rebuilder is still held at the gate");
      assertEquals(before + 1, h.calls.get(), "one request is building");
      for (HttpResponse<byte[]> r : early) {
        assertEquals(200, r.statusCode());
        assertEquals("STALE", xcache(r));
        assertEquals(staleBody, Http.text(r));
      }
      gate.countDown();
      Map<String, Integer> labels = new TreeMap<>();
      for (Future<HttpResponse<byte[]>> f : futures) {
        HttpResponse<byte[]> r = f.get(30, TimeUnit.SECONDS);
        assertEquals(200, r.statusCode());
        labels.merge(xcache(r), 1, Integer::sum);
      }
      assertEquals(Map.of("MISS", 1, "STALE", STAMPEDE - 1), labels, "the rebuilder's own answer is the new page");
      assertEquals(before + 1, h.calls.get(), "the handler ran exactly once");
    } finally {
      h.gate.set(null);
      gate.countDown();
      pool.shutdownNow();
    }
  }

  @Test
  void aColdStampedeRunsTheHandlerOnceAndEveryoneGetsThePage() throws Exception {
    SiteServlets.Handler h = SiteServlets.page();
    // lock.wait well above the time 200 requests take to arrive, so every waiter is still waiting
    // (not building itself) when the gate opens; the lock.wait path has its own test.
    site().set("lock.wait", "20s").set("lock.ttl", "30s").handler("cold", h, "/cold").start();
    CountDownLatch gate = new CountDownLatch(1);
    h.gate.set(gate);
    Queue<HttpResponse<byte[]>> answered = new ConcurrentLinkedQueue<>();
    ExecutorService pool = Executors.newFixedThreadPool(STAMPEDE);
    try {
      List<Future<HttpResponse<byte[]>>> futures =
          together(pool, STAMPEDE, "/cold", answered, new CountDownLatch(STAMPEDE));
      // All 200 are inside the server at once: one holds the build, 199 wait for it.
      assertTrue(Eventually.within(Duration.ofSeconds(15), () -> site.cache.stats("cold").lockWaits() == STAMPEDE - 1),
          () -> "199 requests waiting for the builder at once; saw " + site.cache.stats("cold").lockWaits());
      assertEquals(1, h.calls.get(), "one request builds");
      assertTrue(answered.isEmpty(), "nobody was answered before the page existed");
      gate.countDown();
      Map<String, Integer> labels = new TreeMap<>();
      for (Future<HttpResponse<byte[]>> f : futures) {
        HttpResponse<byte[]> r = f.get(30, TimeUnit.SECONDS);
        assertEquals(200, r.statusCode());
        assertTrue(Http.text(r).contains("page /cold"));
        labels.merge(xcache(r), 1, Integer::sum);
      }
      assertEquals(1, h.calls.get(), "the handler ran exactly once: " + labels);
      assertEquals(Map.of("MISS", 1, "HIT", STAMPEDE - 1), labels, "the waiters got the page the builder stored");
    } finally {
      h.gate.set(null);
      gate.countDown();
      pool.shutdownNow();
    }
  }

  @Test
  void aRequestThatWaitedLockWaitForNothingBuildsThePageItself() throws Exception {
    CountDownLatch firstBuildStarted = new CountDownLatch(1);
    CountDownLatch releaseFirstBuild = new CountDownLatch(1);
    SiteServlets.Handler h = SiteServlets.of((req, res, call) -> {
      if (call == 1) { // the first builder is slower than lock.wait; the waiter's own build is not held
        firstBuildStarted.countDown();
        try {
          releaseFirstBuild.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      res.getWriter().print("call " + call);
    });
    // The store's calls are recorded: what the waiter did is counted in round trips, not timed.
    RecordingStore store = RecordingStore.onMemcached(memcached.servers());
    site().store(store).set("lock.wait", "2s").handler("slow", h, "/slow").start();
    String lockKey = site.lockKey("slow", "/slow");
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      Future<HttpResponse<byte[]>> first = pool.submit(() -> site.get("/slow"));
      assertTrue(firstBuildStarted.await(30, TimeUnit.SECONDS), "the first request holds the lock and builds");
      store.clear();
      Future<HttpResponse<byte[]>> waiting = pool.submit(() -> site.get("/slow"));
      // It waits for the first build (in the JVM: the first request leads this page's waiting list)
      // instead of building at once: counted as a lock wait, and the handler not called meanwhile.
      // The test looks within milliseconds of the wait starting; lock.wait (2 s) leaves it ample room.
      Eventually.assertWithin(Duration.ofSeconds(10), "the second request waits for the first build",
          () -> site.cache.stats().handler("slow").lockWaits() == 1);
      assertEquals(1, h.calls.get(), "waiting, not building");
      assertFalse(waiting.isDone(), "still waiting: lock.wait has not passed");
      HttpResponse<byte[]> waiter = waiting.get(30, TimeUnit.SECONDS);
      assertEquals(200, waiter.statusCode(), "never a 5xx for waiting");
      assertEquals("MISS", xcache(waiter));
      assertEquals("call 2", Http.text(waiter), "built by the waiter itself");
      assertEquals(1, site.cache.stats().handler("slow").lockWaits());
      // After lock.wait it built without the lock (still the first build's) and stored its page: its
      // keys are the lookup's (for its client without gzip the page's identity copy, none yet, then
      // the page; the token this JVM confirmed within near.trust is not read), then its page's set;
      // no lock, no polls.
      // (The first build's lock is renewed meanwhile, by this JVM's renewal thread: its touches are not the waiter's.)
      List<RecordingStore.Call> waiters = store.calls().stream().filter(c -> !c.op().equals("touch")).toList();
      assertEquals(List.of("get", "get", "set"), waiters.stream().map(RecordingStore.Call::op).toList(),
          "the keys the waiter handed the store: " + store.calls());
      assertFalse(waiters.stream().anyMatch(c -> c.key().equals(lockKey)), "never touched the lock: " + store.calls());
      assertNotNull(memcachedLock(lockKey), "the first build still holds the lock");
      assertFalse(first.isDone(), "answered while the first build is still held");
      releaseFirstBuild.countDown();
      HttpResponse<byte[]> r = first.get(30, TimeUnit.SECONDS);
      assertEquals(200, r.statusCode());
      assertEquals("call 1", Http.text(r));
      assertEquals(2, h.calls.get());
    } finally {
      releaseFirstBuild.countDown();
      pool.shutdownNow();
    }
  }

  @Test
  void aFailingBuildReleasesTheLockAndKeepsServingTheOldPage() {
    SiteServlets.Handler h = SiteServlets.page();
    site().handler("fragile", h, "/fragile").start();
    String original = Http.text(site.get("/fragile"));
    site.cache.refreshHandler("fragile");
    h.failure.set(new IllegalStateException("database down"));
    long deletes = memcached.text(0).deleteHits();
    HttpResponse<byte[]> failed = site.get("/fragile");
    assertEquals(200, failed.statusCode());
    assertEquals("STALE", xcache(failed));
    assertTrue(failed.headers().firstValue("Cache-Status").orElse("").contains("stale-if-error"));
    assertEquals(original, Http.text(failed));
    memcached.text(0).assertDeletedSince(site.lockKey("fragile", "/fragile"), deletes, "lock released");
    h.failure.set(null);
    HttpResponse<byte[]> retried = site.get("/fragile");
    assertEquals("MISS", xcache(retried));
    assertTrue(Http.text(retried).contains("call 3"));
  }

  @Test
  void anAsyncRebuildHoldsTheLockUntilItsDispatchEnds() throws Exception {
    java.util.concurrent.atomic.AtomicBoolean hold = new java.util.concurrent.atomic.AtomicBoolean();
    CountDownLatch dispatched = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    site().handler("later", SiteServlets.of((req, res, call) -> {
      if (req.getDispatcherType() != jakarta.servlet.DispatcherType.ASYNC) {
        jakarta.servlet.AsyncContext ctx = req.startAsync();
        ctx.start(ctx::dispatch);
        return;
      }
      // Runs after the first pass has returned through the filter: the build is not over yet.
      if (hold.get()) {
        dispatched.countDown();
        try {
          assertTrue(release.await(30, TimeUnit.SECONDS));
        } catch (InterruptedException e) {
          throw new IllegalStateException(e);
        }
      }
      res.setContentType("text/plain");
      res.getWriter().print("later " + call);
    }), "/later").start();
    site.context().getServletHandler().getServlet("later").setAsyncSupported(true);
    site.get("/later"); // the first ASYNC dispatch seen: uncached, and the filter knows it sees them
    assertEquals("MISS", xcache(site.get("/later")));
    clock.advance(Duration.ofSeconds(61));
    hold.set(true);
    String lock = site.lockKey("later", "/later");
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try {
      Future<HttpResponse<byte[]>> rebuild = pool.submit(() -> site.get("/later"));
      assertTrue(dispatched.await(30, TimeUnit.SECONDS));
      assertNotNull(memcached.text(0).getBytes(lock), "the lock is held while the dispatch builds");
      HttpResponse<byte[]> meanwhile = site.get("/later");
      assertEquals("STALE", xcache(meanwhile), "not a second build");
      long deletes = memcached.text(0).deleteHits();
      release.countDown();
      HttpResponse<byte[]> rebuilt = rebuild.get(30, TimeUnit.SECONDS);
      assertEquals("MISS", xcache(rebuilt));
      memcached.text(0).assertDeletedSince(lock, deletes, "given back when the build ended");
      assertEquals(Http.text(rebuilt), Http.text(site.get("/later")));
    } finally {
      release.countDown();
      pool.shutdownNow();
    }
  }

  @Test
  void aBuildAnswering5xxKeepsTheOldPageToo() {
    SiteServlets.Handler h = SiteServlets.page();
    site().handler("flaky", h, "/flaky").start();
    String original = Http.text(site.get("/flaky"));
    clock.advance(Duration.ofSeconds(61));
    h.status.set(503);
    long deletes = memcached.text(0).deleteHits();
    HttpResponse<byte[]> r = site.get("/flaky");
    assertEquals(200, r.statusCode());
    assertEquals("STALE", xcache(r));
    String status = r.headers().firstValue("Cache-Status").orElse("");
    assertTrue(status.contains("stale-if-error") && status.contains("fwd-status=503"), status);
    assertEquals(original, Http.text(r));
    assertEquals(2, h.calls.get(), "the rebuild ran the handler");
    memcached.text(0).assertDeletedSince(site.lockKey("flaky", "/flaky"), deletes, "lock released");

    // The 503 was not stored, so the next request tries the build again: still failing, still stale...
    HttpResponse<byte[]> again = site.get("/flaky");
    assertEquals("STALE", xcache(again));
    assertEquals(original, Http.text(again));
    assertEquals(3, h.calls.get(), "retried, not locked out until lock.ttl");
    // ...and once the handler recovers, the retry replaces the old page.
    h.status.set(200);
    HttpResponse<byte[]> rebuilt = site.get("/flaky");
    assertEquals("MISS", xcache(rebuilt));
    assertTrue(Http.text(rebuilt).contains("call 4"), Http.text(rebuilt));
    assertEquals("HIT", xcache(site.get("/flaky")));
  }

  @Test
  void aLostTokenDoesNotBringOldContentBack() {
    site().handler("t", SiteServlets.page(), "/t").start();
    site.get("/t");
    site.cache.refreshHandler("t");
    memcached.text(0).delete(site.cache.engine.tokens.key("t"));
    HttpResponse<byte[]> r = site.get("/t");
    assertEquals("MISS", xcache(r), "the JVM remembers the token");
    assertTrue(Http.text(r).contains("call 2"));
    assertNotNull(memcached.text(0).getBytes(site.cache.engine.tokens.key("t")), "and puts it back");
  }

  @Test
  void aNodeThatComesBackWithAnOlderTokenIsRaisedAgain() {
    site().handler("t", SiteServlets.page(), "/t").start();
    site.get("/t");
    long token = site.cache.refreshHandler("t").token();
    String key = site.cache.engine.tokens.key("t");
    memcached.text(0).setRaw(key, Long.toString(token - 60_000).getBytes(java.nio.charset.StandardCharsets.US_ASCII), 0, 0);
    HttpResponse<byte[]> r = site.get("/t");
    assertEquals("MISS", xcache(r), "the page built before the refresh is still condemned");
    assertEquals(token, Long.parseLong(memcached.text(0).get(key).trim()), "the older token was raised back");
  }

  @Test
  void aCmsProcessWithoutAnyServletRefreshesInvalidatesAndEvictsTheSitesPages() {
    SiteServlets.Handler tagged = SiteServlets.of((req, res, call) -> {
      PageCache.tag(req, "article:7");
      res.getWriter().print("b call " + call);
    });
    site().handler("a", SiteServlets.page(), "/a/*").handler("b", tagged, "/b/*")
        .handler("c", SiteServlets.page(), "/c/*").start();
    for (String path : List.of("/a/1", "/b/1", "/c/1")) {
      site.get(path);
    }
    PageCacheConfig cmsConfig = PageCacheConfig.builder().ignoreEnvironment().clock(clock)
        .set("memcached.servers", memcached.servers())
        .set("namespace", site.params.get("namespace"))
        .set("policies", "c: paths=/c/*") // no servlet here: evict maps URLs to handlers by policy
        .build();
    try (PageCache cms = PageCache.start(cmsConfig)) {
      clock.advance(Duration.ofMillis(5));
      assertFalse(cms.refreshHandler("a", "cms").known(), "this process has never seen handler a");
      cms.invalidateTag("article:7");
      Eviction evicted = cms.evict(site.uri("/c/1").toString());
      assertEquals("c", evicted.handler());
      assertTrue(evicted.existed());
    }
    clock.advance(Duration.ofMillis(1005)); // the site's JVM caches tag versions for tag.cache (1s)
    assertEquals("MISS", xcache(site.get("/a/1")), "refreshed from the CMS process");
    assertEquals("MISS", xcache(site.get("/b/1")), "its tag invalidated from the CMS process");
    assertEquals("MISS", xcache(site.get("/c/1")), "evicted from the CMS process");
    assertEquals(List.of(2, 2, 2), List.of(site.calls("a"), site.calls("b"), site.calls("c")));
  }

  @Test
  void anInvalidationDuringTheBuildKeepsThePageStale() throws Exception {
    SiteServlets.Handler h = SiteServlets.of((req, res, call) -> {
      PageCache.tag(req, "racy");
      res.getWriter().print("call " + call);
    });
    site().set("tag.cache", "1ms").handler("racy", h, "/racy").start();
    site.get("/racy");
    clock.advance(Duration.ofSeconds(61));
    CountDownLatch gate = new CountDownLatch(1);
    h.gate.set(gate);
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try {
      Future<HttpResponse<byte[]>> rebuild = pool.submit(() -> site.get("/racy"));
      Eventually.assertWithin(Duration.ofSeconds(10), "the rebuild started", () -> h.calls.get() == 2);
      clock.advance(Duration.ofMillis(10));
      site.cache.invalidateTag("racy"); // the editor saves while the page is being built
      gate.countDown();
      assertEquals("MISS", xcache(rebuild.get(30, TimeUnit.SECONDS)));
    } finally {
      h.gate.set(null);
      pool.shutdownNow();
    }
    clock.advance(Duration.ofMillis(10));
    HttpResponse<byte[]> after = site.get("/racy");
    assertEquals("MISS", xcache(after), "built from data older than the invalidation: rebuilt again");
    assertTrue(Http.text(after).contains("call 3"));
  }

  /**
   * The keys a refresh could leave behind (pages, tokens, locks, markers): every key but the
   * site-wide figures' counters, which land every 5 s of real time when a loaded machine lets the
   * test run that long (they expire by themselves).
   */
  private long cacheKeys() {
    return memcached.text(0).keys().stream().filter(k -> !k.contains(":c:") && !k.contains(":r:")).count();
  }

  @Test
  void aHundredRefreshesLeaveNoGarbageKeys() {
    site().handler("r", SiteServlets.page(), "/r/*").start();
    for (int i = 0; i < 5; i++) {
      site.get("/r/" + i);
    }
    long before = cacheKeys();
    for (int i = 0; i < 100; i++) {
      site.cache.refreshHandler("r");
      clock.advance(Duration.ofMillis(1));
      for (int p = 0; p < 5; p++) {
        site.get("/r/" + p);
      }
    }
    long after = cacheKeys();
    assertTrue(after <= before + 1, "keys " + before + " -> " + after + ": " + memcached.text(0).keys());
    assertEquals(0, memcached.text(0).statLong("cmd_flush"));
  }

  @Test
  void aRebuildRightAfterARefreshIsToldToReadFromThePrimary() {
    AtomicInteger seen = new AtomicInteger(-1);
    site().handler("fresh", SiteServlets.of((req, res, call) -> {
      Object ago = req.getAttribute(PageCache.INVALIDATED_AGO_ATTRIBUTE);
      seen.set(ago == null ? -1 : ((Long) ago).intValue());
      res.getWriter().print("call " + call);
    }), "/fresh").start();
    site.get("/fresh");
    assertEquals(-1, seen.get());
    site.cache.refreshHandler("fresh");
    clock.advance(Duration.ofMillis(1200));
    site.get("/fresh");
    assertEquals(1200, seen.get());
    site.cache.refreshHandler("fresh");
    clock.advance(Duration.ofSeconds(6));
    site.get("/fresh");
    assertEquals(-1, seen.get(), "older than replica.lag: no hint");
  }

  @Test
  void concurrentRefreshesNeverMoveTheTokenBackwards() throws Exception {
    site().handler("c", SiteServlets.page(), "/c").start();
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<Long>> tokens = new ArrayList<>();
      for (int i = 0; i < 40; i++) {
        tokens.add(pool.submit(() -> site.cache.refreshHandler("c").token()));
      }
      java.util.Set<Long> distinct = new java.util.HashSet<>();
      long max = 0;
      for (Future<Long> f : tokens) {
        long t = f.get(30, TimeUnit.SECONDS);
        distinct.add(t);
        max = Math.max(max, t);
      }
      assertEquals(40, distinct.size(), "every refresh wrote its own, higher token");
      String stored = memcached.text(0).get(site.cache.engine.tokens.key("c")).trim();
      assertEquals(max, Long.parseLong(stored));
    } finally {
      pool.shutdownNow();
    }
  }

  /** The rebuild lock's entry in memcached, or null. */
  private static byte[] memcachedLock(String lockKey) {
    return memcached.text(0).getBytes(lockKey);
  }
}
