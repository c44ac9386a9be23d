package org.pagecache.bench;

import static org.pagecache.bench.Table.num;

import jakarta.servlet.DispatcherType;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.pagecache.PageCache;
import org.pagecache.PageCacheConfig;
import org.pagecache.PageCacheFilter;
import org.pagecache.stats.HandlerStats;
import org.pagecache.testing.JettyServer;

/**
 * Pools per kind of page (issue 18; Facebook's memcache paper, §3.2.3) in figures: small hot pages
 * (Zipf) and big rarely read pages (uniform over many), first in one pool of two memcached nodes,
 * then with the big pages in a pool of their own (one node each: the same memory in all). The
 * figure is the hot handler's hit ratio while both load at once.
 *
 * <pre>
 *   java -cp ... org.pagecache.bench.MacroBench target/bench 32 10 pools
 * </pre>
 */
final class PoolsScenario {
  static final int MEMORY_MB = 16;
  static final int HOT_PAGES = 1000;
  static final int HOT_BYTES = 8 * 1024;
  static final int BIG_PAGES = 800;
  static final int BIG_BYTES = 100 * 1024;
  static final double BIG_SHARE = 0.2;
  static final long COST_MILLIS = 5;

  private final MacroBench.Settings settings;
  private final Zipf zipf = new Zipf(HOT_PAGES, 1.0);

  PoolsScenario(MacroBench.Settings settings) {
    this.settings = settings;
  }

  private record Run(String name, double hotHitRatio, double bigHitRatio, LoadDriver.Result result) {}

  MacroBench.Section run() {
    MacroBench.progress("pools: small hot pages and big rare ones, in one pool and in two");
    BenchServlets.Pages hot = new BenchServlets.Pages(HOT_PAGES, HOT_BYTES);
    BenchServlets.Pages big = new BenchServlets.Pages(BIG_PAGES, BIG_BYTES);
    Run shared = run("one pool (2 nodes, both kinds)", hot, big, false);
    Run split = run("two pools (hot: 1 node, big: `pool=big`, 1 node)", hot, big, true);
    Table t = new Table("setup", "requests", "req/s", "hot hit ratio", "big hit ratio", "p50 ms", "p99 ms");
    for (Run r : List.of(shared, split)) {
      t.row(r.name(), r.result().requests(), num(r.result().rps(), 0), num(100 * r.hotHitRatio(), 1) + " %",
          num(100 * r.bigHitRatio(), 1) + " %", num(r.result().millis(0.5), 2), num(r.result().millis(0.99), 2));
    }
    String markdown = "Load: " + settings.concurrency() + " concurrent clients (closed loop); "
        + Math.round(100 * (1 - BIG_SHARE)) + " % of requests for " + HOT_PAGES + " hot pages of " + HOT_BYTES / 1024
        + " KB (Zipf, s = 1), " + Math.round(100 * BIG_SHARE) + " % for " + BIG_PAGES + " big pages of "
        + BIG_BYTES / 1024 + " KB (uniform); backend " + COST_MILLIS + " ms per page; two memcached nodes of "
        + MEMORY_MB + " MB in both setups; every hot page cached first, then " + settings.warmUp().toSeconds()
        + " s of the mixed load, then "
        + settings.window().toSeconds() + " s measured (hit ratios from the handlers' counts in that window).\n\n"
        + t;
    return new MacroBench.Section("pools", markdown, List.of(
        "pools, one pool: hot hit ratio " + num(100 * shared.hotHitRatio(), 1) + " %",
        "pools, two pools: hot hit ratio " + num(100 * split.hotHitRatio(), 1) + " %"));
  }

  private Run run(String name, BenchServlets.Pages hot, BenchServlets.Pages big, boolean split) {
    try (BenchMemcached memcached = new BenchMemcached(2, MEMORY_MB)) {
      String a = memcached.node(0).address();
      String b = memcached.node(1).address();
      PageCacheConfig.Builder config = PageCacheConfig.builder().ignoreEnvironment()
          .set("memcached.servers", split ? a : a + "," + b)
          .set("namespace", split ? "two" : "one")
          .set("policies", "hot: ttl=10m, paths=/hot/*; big: ttl=10m, paths=/big/*" + (split ? ", pool=big" : ""));
      if (split) {
        config.set("memcached.pools", "big=" + b);
      }
      BenchServlets.Backend hotBackend = new BenchServlets.Backend(hot, COST_MILLIS);
      BenchServlets.Backend bigBackend = new BenchServlets.Backend(big, COST_MILLIS);
      PageCacheFilter filter = new PageCacheFilter(config.build());
      JettyServer jetty = JettyServer.start(ctx -> {
        ctx.addFilter(new FilterHolder(filter), "/*", EnumSet.of(DispatcherType.REQUEST));
        JettyServer.servlet(ctx, "hot", hotBackend, "/hot/*");
        JettyServer.servlet(ctx, "big", bigBackend, "/big/*");
      });
      try {
        PageCache cache = PageCache.from(jetty.context().getServletContext());
        LoadDriver driver = new LoadDriver("Accept-Encoding", "gzip");
        // Every hot page cached first: the measured misses are then evictions, not first requests.
        java.util.concurrent.atomic.AtomicInteger next = new java.util.concurrent.atomic.AtomicInteger();
        driver.run("fill", 16, HOT_PAGES, Duration.ofSeconds(60), () -> jetty.uri("/hot/" + next.getAndIncrement()));
        driver.run("warm-up", settings.concurrency(), settings.maxRequests(), settings.warmUp(),
            () -> target(jetty));
        long[] hotBefore = counts(cache.stats().handler("hot"));
        long[] bigBefore = counts(cache.stats().handler("big"));
        LoadDriver.Result r = driver.run(name, settings.concurrency(), settings.maxRequests(), settings.window(),
            () -> target(jetty));
        return new Run(name, ratio(hotBefore, counts(cache.stats().handler("hot"))),
            ratio(bigBefore, counts(cache.stats().handler("big"))), r);
      } finally {
        jetty.close();
      }
    }
  }

  private java.net.URI target(JettyServer jetty) {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    return random.nextDouble() < BIG_SHARE ? jetty.uri("/big/" + random.nextInt(BIG_PAGES))
        : jetty.uri("/hot/" + zipf.next());
  }

  /** Hits, and every lookup (hits, stale answers, misses). */
  private static long[] counts(HandlerStats s) {
    return new long[] {s.hits(), s.hits() + s.stale() + s.misses()};
  }

  private static double ratio(long[] before, long[] after) {
    long lookups = after[1] - before[1];
    return lookups == 0 ? 0 : (double) (after[0] - before[0]) / lookups;
  }
}
