package org.pagecache.bench;

import static org.pagecache.bench.Table.num;

import java.time.Duration;
import java.util.List;

/**
 * Refreshing every page of a handler under load: {@code refreshHandler} (pages turn STALE, one
 * request per page rebuilds while the others get the stale copy) against {@code flush_all} (pages
 * are gone, one request per page builds while the others wait for it). Same site, same load, same
 * run; backend calls and latency in the window after each event.
 */
final class RefreshScenario {
  private final BenchMemcached memcached;
  private final MacroBench.Settings settings;
  private final Zipf zipf = new Zipf(ThroughputScenario.PAGES, 1.0);

  RefreshScenario(BenchMemcached memcached, MacroBench.Settings settings) {
    this.memcached = memcached;
    this.settings = settings;
  }

  /** One event's window. */
  private record Window(String event, long backendCalls, LoadDriver.Result result) {}

  MacroBench.Section run() {
    MacroBench.progress("refresh under load: refreshHandler vs flush_all");
    BenchServlets.Pages pages = new BenchServlets.Pages(ThroughputScenario.PAGES, ThroughputScenario.PAGE_BYTES);
    try (BenchSite site = new BenchSite(memcached.node(0).address(), "ref", "ttl=10m, grace=10m", pages,
        ThroughputScenario.COST_MILLIS)) {
      LoadDriver driver = new LoadDriver("Accept-Encoding", "gzip");
      site.fill(driver);
      Window steady = window(site, driver, "none (all pages cached)", () -> { });
      Window refresh = window(site, driver, "`refreshHandler(\"page\")`", () -> site.cache.refreshHandler("page", "bench"));
      long refilled = site.fill(driver);
      Window flush = window(site, driver, "`flush_all`", () -> memcached.flushAll(0));

      Table t = new Table("event at t = 0", "requests in window", "req/s", "backend calls", "p50 ms", "p99 ms",
          "p99.9 ms", "max ms", "requests ≥ " + ThroughputScenario.COST_MILLIS + " ms", "X-Cache", "errors");
      for (Window w : List.of(steady, refresh, flush)) {
        LoadDriver.Result r = w.result();
        t.row(w.event(), r.requests(), num(r.rps(), 0), w.backendCalls(), num(r.millis(0.5), 2),
            num(r.millis(0.99), 2), num(r.millis(0.999), 1), num(r.maxMillis(), 1),
            r.slowerThan(ThroughputScenario.COST_MILLIS), ThroughputScenario.labels(r), r.errors() + r.serverErrors());
      }
      String markdown = "Load: " + settings.describe() + "; the same " + ThroughputScenario.PAGES
          + " pages (Zipf, s = 1), backend " + ThroughputScenario.COST_MILLIS + " ms per page. Each window starts"
          + " right after the event (the clients pause for the few milliseconds the event takes) and lasts "
          + settings.window().toSeconds() + " s, after " + settings.warmUp().toSeconds() + " s of the same load;"
          + " between the two events every page was rebuilt (" + refilled + " of " + ThroughputScenario.PAGES
          + " HIT in the check pass).\n\n" + t;
      return new MacroBench.Section("refresh", markdown, List.of(
          summary(steady), summary(refresh), summary(flush)));
    }
  }

  private Window window(BenchSite site, LoadDriver driver, String event, Runnable action) {
    load(site, driver, settings.warmUp());
    long calls = site.cachedBackend.calls.get();
    action.run();
    LoadDriver.Result r = driver.run("after " + event, settings.concurrency(), settings.maxRequests(),
        settings.window(), () -> site.uri("cached", zipf.next()));
    return new Window(event, site.cachedBackend.calls.get() - calls, r);
  }

  private void load(BenchSite site, LoadDriver driver, Duration time) {
    driver.run("load", settings.concurrency(), settings.maxRequests(), time, () -> site.uri("cached", zipf.next()));
  }

  private static String summary(Window w) {
    return "event " + w.event() + ": backend calls " + w.backendCalls() + ", requests >= "
        + ThroughputScenario.COST_MILLIS + " ms " + w.result().slowerThan(ThroughputScenario.COST_MILLIS) + ", p99.9 "
        + num(w.result().millis(0.999), 1) + " ms, " + ThroughputScenario.line(w.result());
  }
}
