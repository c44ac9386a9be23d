package org.pagecache.bench;

import static org.pagecache.bench.Table.num;

import java.util.List;

/**
 * The dog-pile: 500 requests released at once on one hot page, when it has just expired (one
 * request rebuilds, the others get the stale copy) and when it was never built (one request
 * builds, the others wait for it). The backend should run once in both cases.
 */
final class StampedeScenario {
  static final int REQUESTS = 500;
  /** Short enough to wait for, long enough that the burst is over before the rebuilt page expires too. */
  static final long TTL_MILLIS = 3000;

  private final BenchMemcached memcached;
  private final MacroBench.Settings settings;

  StampedeScenario(BenchMemcached memcached, MacroBench.Settings settings) {
    this.memcached = memcached;
    this.settings = settings;
  }

  private record Burst(String page, long backendCalls, LoadDriver.Result result) {}

  MacroBench.Section run() {
    MacroBench.progress("stampede: " + REQUESTS + " concurrent requests on one page");
    BenchServlets.Pages pages = new BenchServlets.Pages(2, ThroughputScenario.PAGE_BYTES);
    try (BenchSite site = new BenchSite(memcached.node(0).address(), "stp",
        "ttl=" + TTL_MILLIS + "ms, grace=10m", pages, ThroughputScenario.COST_MILLIS)) {
      LoadDriver driver = new LoadDriver("Accept-Encoding", "gzip");
      LoadDriver.Result built = driver.run("build", 1, 1, settings.window(), () -> site.uri("cached", 0));
      long builtAt = System.nanoTime();
      if (built.label("MISS") != 1) {
        throw new IllegalStateException("the hot page was not built: " + built.labels());
      }
      sleepUntil(builtAt + (TTL_MILLIS + 500) * 1_000_000);
      Burst expired = burst(site, driver, "expired " + TTL_MILLIS / 1000 + " s ago (stale copy in memcached)", 0);
      Burst cold = burst(site, driver, "never built (nothing in memcached)", 1);

      Table t = new Table("the hot page", "concurrent requests", "backend calls", "X-Cache", "p50 ms", "p99 ms",
          "max ms", "errors");
      for (Burst b : List.of(expired, cold)) {
        LoadDriver.Result r = b.result();
        t.row(b.page(), r.requests(), b.backendCalls(), ThroughputScenario.labels(r), num(r.millis(0.5), 1),
            num(r.millis(0.99), 1), num(r.maxMillis(), 1), r.errors() + r.serverErrors());
      }
      String markdown = REQUESTS + " clients, each with its connection already open, send one request each at"
          + " the same instant (a barrier); backend " + ThroughputScenario.COST_MILLIS + " ms; policy ttl "
          + TTL_MILLIS / 1000 + " s, grace 10 min; Jetty's default pool of 200 threads, so part of the burst"
          + " queues in Jetty.\n\n" + t;
      return new MacroBench.Section("stampede", markdown, List.of(summary(expired), summary(cold)));
    }
  }

  private static String summary(Burst b) {
    return "stampede, page " + b.page() + ": backend calls " + b.backendCalls() + ", " + ThroughputScenario.line(b.result());
  }

  private Burst burst(BenchSite site, LoadDriver driver, String page, int index) {
    long calls = site.cachedBackend.calls.get();
    LoadDriver.Result r = driver.burst("stampede", REQUESTS, site.uri("limit", 0), site.uri("cached", index));
    return new Burst(page, site.cachedBackend.calls.get() - calls, r);
  }

  /** The site runs on the system clock, so the page expires in real time; a benchmark may wait for it. */
  private static void sleepUntil(long nanoTime) {
    long left;
    while ((left = nanoTime - System.nanoTime()) > 0) {
      try {
        Thread.sleep(Math.max(1, left / 1_000_000));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }
}
