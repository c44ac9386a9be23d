package org.pagecache.bench;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Issue 36, PageCache's rows only: 200 pages that take 300 ms to build, fresh for 2 s with a long
 * grace, read Zipf 0.99 by 32 keep-alive clients that time every request themselves; background
 * rebuilds ({@code rebuild.background=32}, the default) against the winner building while its visitor
 * waits ({@code rebuild.background=0}), rounds interleaved in one run. Prints one line per round and
 * the medians; no nginx or Varnish rows (scripts/bench.sh's proxies scenario has them for hot pages).
 *
 * <pre>java -cp ... org.pagecache.bench.ExpiringPagesBench [SECONDS per round] [ROUNDS] [VALUES, default 32,0]</pre>
 */
public final class ExpiringPagesBench {
  private static final int PAGES = 200;
  private static final long BUILD_MILLIS = 300;
  private static final int CLIENTS = 32;

  private ExpiringPagesBench() {}

  public static void main(String[] args) {
    int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 15;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    List<String> values = List.of((args.length > 2 ? args[2] : "32,0").split(","));
    Zipf zipf = new Zipf(PAGES, 0.99);
    System.out.println("| rebuild.background | round | requests | req/s | mean ms | slower than 100 ms | p99 ms | p99.9 ms"
        + " | max ms | X-Cache | background rebuilds, skipped |");
    System.out.println("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|");
    try (BenchMemcached memcached = new BenchMemcached(1)) {
      for (int round = 1; round <= rounds; round++) {
        for (String background : values) {
          try (BenchSite site = new BenchSite(memcached.node(0).address(), "exp" + background + "r" + round,
              "ttl=2s, grace=1h", new BenchServlets.Pages(PAGES, 8 * 1024), BUILD_MILLIS,
              Map.of("rebuild.background", background))) {
            LoadDriver driver = new LoadDriver("Accept-Encoding", "gzip");
            site.fill(driver);
            LoadDriver.Result r = driver.run("expiring", CLIENTS, Long.MAX_VALUE, Duration.ofSeconds(seconds),
                () -> site.uri("cached", zipf.next()));
            double meanMillis = r.requests() == 0 ? 0 : CLIENTS * r.seconds() * 1000 / r.requests(); // Little's law
            System.out.println(String.format(Locale.ROOT,
                "| %s | %d | %d | %.0f | %.2f | %.3f %% (%d) | %.1f | %.1f | %.1f | %s | %d, %d |", background, round,
                r.requests(), r.rps(), meanMillis, 100.0 * r.slowerThan(100) / Math.max(1, r.requests()),
                r.slowerThan(100), r.millis(0.99), r.millis(0.999), r.maxMillis(), r.labels(),
                site.cache.stats("page").backgroundRebuilds(), site.cache.stats("page").backgroundSkipped()));
          }
        }
      }
    }
  }
}
