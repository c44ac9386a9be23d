package org.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Base64;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.pagecache.SiteUnderTest.Backend;
import org.pagecache.store.Store;
import org.pagecache.testing.ForwardingStore;
import org.pagecache.testing.MemcachedExtension;

/**
 * Issue 29: a page built once is found by the next request (real memcached), and a page that could
 * not be stored is counted as a store error (and logged by {@code LostWrites}), never dropped silently.
 */
class EveryBuildKeptTest {
  @RegisterExtension
  static MemcachedExtension memcached = MemcachedExtension.nodes(1);

  @RegisterExtension
  final SiteUnderTest.Sites sites = new SiteUnderTest.Sites(memcached);

  /** 8 KB pages that compress like noise, one per URL. */
  private static final SiteServlets.Handler PAGES = SiteServlets.of((req, res, call) -> {
    byte[] noise = new byte[6 * 1024];
    new Random(req.getRequestURI().hashCode()).nextBytes(noise);
    res.setContentType("text/html");
    res.getWriter().print("<p>" + req.getRequestURI() + "</p>" + Base64.getEncoder().encodeToString(noise));
  });

  @Test
  void afterOnePassOverManyPagesByConcurrentClientsEveryPageIsAHit() throws Exception {
    int pages = 1000;
    // near.trust=0s: every answer below comes from memcached, not from this JVM's memory
    SiteUnderTest site = sites.on(Backend.MEMCACHED).set("near.trust", "0s").handler("p", PAGES, "/p/*").start();
    AtomicInteger next = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<?>> passes = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        passes.add(pool.submit(() -> {
          for (int i = next.getAndIncrement(); i < pages; i = next.getAndIncrement()) {
            site.get("/p/" + i);
          }
        }));
      }
      for (Future<?> f : passes) {
        f.get(2, TimeUnit.MINUTES);
      }
    } finally {
      pool.shutdownNow();
    }
    int hits = 0;
    for (int i = 0; i < pages; i++) {
      if ("HIT".equals(site.get("/p/" + i).xcache())) {
        hits++;
      }
    }
    assertEquals(pages, hits, "every page built once is found by the next request");
    assertEquals(pages, site.calls("p"));
    assertEquals(0, site.cache.stats().handler("p").storeErrors());
  }

  @Test
  void aPageMemcachedDidNotStoreIsCountedAsAStoreError() {
    AtomicBoolean refuse = new AtomicBoolean(true);
    SiteUnderTest site = sites.on(Backend.MEMCACHED).handler("p", PAGES, "/p/*")
        .wrapStore(store -> new RefusingPageSets(store, refuse)).start();
    assertEquals("MISS", site.get("/p/1").xcache());
    assertEquals(1, site.cache.stats().handler("p").storeErrors(), "the refused set is a store error");
    assertEquals(1, site.cache.engine.lostWrites.count());
    assertEquals("MISS", site.get("/p/1").xcache(), "not stored, so built again");
    refuse.set(false);
    assertEquals("MISS", site.get("/p/1").xcache());
    assertEquals("HIT", site.get("/p/1").xcache());
    assertEquals(2, site.cache.engine.lostWrites.count());
  }

  /** memcached answering NOT_STORED to page sets (as it does for a value it will not take). */
  private static final class RefusingPageSets extends ForwardingStore {
    private final AtomicBoolean refuse;

    RefusingPageSets(Store delegate, AtomicBoolean refuse) {
      super(delegate);
      this.refuse = refuse;
    }

    @Override
    public boolean set(String key, byte[] value, int ttlSeconds) {
      return refuse.get() && key.contains(":p:") ? false : super.set(key, value, ttlSeconds);
    }
  }
}
