package org.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.pagecache.SiteUnderTest.Backend;
import org.pagecache.SiteUnderTest.Response;
import org.pagecache.stats.ClusterStatus;
import org.pagecache.store.Store;
import org.pagecache.testing.MemcachedExtension;
import org.pagecache.testing.MutableClock;

/**
 * Cold cluster warm-up (issue 19, FB §4.3): a new cluster (east) reads its misses from a warm one
 * (west) for memcached.warm.for, copies what is still fresh by its own tokens and tags, and never
 * lets a refresh or an eviction that races the copy be undone by it.
 */
class WarmUpTest {
  @RegisterExtension
  static MemcachedExtension east = MemcachedExtension.nodes(1);
  @RegisterExtension
  static MemcachedExtension west = MemcachedExtension.nodes(1);
  @RegisterExtension
  final SiteUnderTest.Sites sites = new SiteUnderTest.Sites(east);

  private static final AtomicInteger NAMESPACES = new AtomicInteger();
  private final MutableClock clock = new MutableClock();
  private final String namespace = "wu" + NAMESPACES.incrementAndGet() + "x" + ProcessHandle.current().pid() % 1000;

  private SiteUnderTest site(MemcachedExtension here) {
    return sites.on(Backend.MEMCACHED).cluster(here).clock(clock)
        .set("namespace", namespace)
        .set("near.trust", "0s")
        .set("ttl", "1h")
        .handler("page", SiteServlets.of((req, res, call) -> {
          PageCache.tag(req, "article:" + req.getRequestURI().substring("/page/".length()));
          res.setContentType("text/html;charset=UTF-8");
          PrintWriter w = res.getWriter();
          w.print("<p>" + req.getRequestURI() + " call " + call + "</p>");
        }), "/page/*");
  }

  private SiteUnderTest warm() {
    return site(west).start();
  }

  /** The cold cluster's site: west as remote and warm cluster for 10 minutes. */
  private SiteUnderTest cold(Consumer<SiteUnderTest> setup) {
    SiteUnderTest site = site(east)
        .set("memcached.remote", "west=" + west.servers())
        .set("memcached.warm.from", "west")
        .set("memcached.warm.for", "10m");
    setup.accept(site);
    return site.start();
  }

  private static ClusterStatus.WarmUpProgress progress(SiteUnderTest site) {
    return site.cache.clusterStatus().warmUp();
  }

  /**
   * The site's store, running {@code action} once just before a page is added (the warm-up's copy:
   * nothing else adds a page): the moment of FB's race, between reading the copy and storing it.
   */
  private static Store beforePageAdd(Store store, Runnable action) {
    AtomicBoolean done = new AtomicBoolean();
    return (Store) Proxy.newProxyInstance(Store.class.getClassLoader(), new Class<?>[] {Store.class}, (proxy, m, args) -> {
      if (m.getName().equals("add") && ((String) args[0]).contains(":p:") && done.compareAndSet(false, true)) {
        action.run();
      }
      try {
        return m.invoke(store, args);
      } catch (InvocationTargetException e) {
        throw e.getCause();
      }
    });
  }

  @Test
  void aMissingPageIsCopiedFromTheWarmClusterInsteadOfBuilt() {
    SiteUnderTest warm = warm();
    warm.get("/page/a");
    SiteUnderTest cold = cold(s -> {});

    Response copied = cold.get("/page/a");
    Response again = cold.get("/page/a");
    Response nowhere = cold.get("/page/nowhere");

    assertEquals("HIT", copied.xcache(), copied.toString());
    assertTrue(copied.header("Cache-Status").contains("detail=warm-copy"), copied.toString());
    assertEquals("<p>/page/a call 1</p>", copied.text(), "west's page, built there");
    assertEquals("HIT", again.xcache());
    assertFalse(again.header("Cache-Status").contains("warm-copy"), "stored here by the copy: " + again);
    assertEquals("MISS", nowhere.xcache(), "not in the warm cluster either: built");
    assertEquals(1, cold.calls("page"), "only the page west did not have was built here");
    ClusterStatus.WarmUpProgress p = progress(cold);
    assertEquals(1, p.copied());
    assertEquals(1, p.built());
    assertTrue(p.active());
  }

  @Test
  void aCopyStaleByThisClustersRefreshIsRefused() {
    SiteUnderTest warm = warm();
    warm.get("/page/s");
    SiteUnderTest cold = cold(s -> {});
    // A refresh this cluster has and the warm one has not yet (from a third cluster, still pending for west).
    long later = clock.millis() + 1000;
    east.text(0).setRaw(cold.cache.config().namespace().token("page"),
        Long.toString(later).getBytes(StandardCharsets.US_ASCII), 0, 0);

    Response r = cold.get("/page/s");

    assertEquals("MISS", r.xcache(), r.toString());
    assertEquals(1, cold.calls("page"));
    assertEquals(1, progress(cold).refused());
    assertEquals(0, progress(cold).copied());
  }

  @Test
  void aRefreshDuringTheCopyWins() {
    SiteUnderTest warm = warm();
    warm.get("/page/r");
    AtomicReference<PageCache> coldCache = new AtomicReference<>();
    SiteUnderTest cold = cold(s -> s.wrapStore(store -> beforePageAdd(store, () -> {
      clock.advance(Duration.ofMillis(5)); // the refresh comes after the copy was judged
      coldCache.get().refreshHandler("page");
    })));
    coldCache.set(cold.cache);

    Response r = cold.get("/page/r");

    assertEquals("MISS", r.xcache(), "the copy, older than the refresh, is not served: " + r);
    assertEquals(1, cold.calls("page"));
    assertEquals(1, progress(cold).refused());
    assertEquals("HIT", cold.get("/page/r").xcache(), "what was built after the refresh is kept");
    assertEquals(1, cold.calls("page"));
  }

  @Test
  void anEvictionDuringTheCopyHoldsTheCopyOff() {
    SiteUnderTest warm = warm();
    warm.get("/page/e");
    AtomicReference<PageCache> coldCache = new AtomicReference<>();
    SiteUnderTest cold = cold(s -> s.wrapStore(store -> beforePageAdd(store,
        () -> coldCache.get().evict("http://localhost/page/e"))));
    coldCache.set(cold.cache);

    Response r = cold.get("/page/e");

    assertEquals("MISS", r.xcache(), "the evicted page does not come back from the copy: " + r);
    assertEquals(1, cold.calls("page"));
    assertEquals(1, progress(cold).refused());
  }

  @Test
  void theWarmUpEndsAfterWarmFor() {
    SiteUnderTest warm = warm();
    warm.get("/page/late");
    SiteUnderTest cold = cold(s -> {});

    clock.advance(Duration.ofMinutes(10));
    Response r = cold.get("/page/late");

    assertEquals("MISS", r.xcache(), r.toString());
    assertEquals(1, cold.calls("page"));
    assertFalse(progress(cold).active());
    assertEquals(0, progress(cold).millisLeft());
    assertEquals(0, progress(cold).copied() + progress(cold).built(), "misses after the end are not the warm-up's");
  }
}
