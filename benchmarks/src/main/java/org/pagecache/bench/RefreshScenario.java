package org.pagecache.bench;

import static org.pagecache.bench.Table.num;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * Refreshing every page of a handler under load: {@code refreshHandler} (pages turn STALE, one
 * request per page rebuilds while the others get the stale copy) against {@code flush_all} (pages
 * are gone, one request per page builds while the others wait for it). Same site, same load, same
 * run; backend calls and latency in the window after each event. The load goes to two handlers in
 * turn, "page" (the one refreshed) and "other", so the table shows what each event costs the
 * handler nobody refreshed.
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
  private record Window(String event, long refreshedCalls, long otherCalls, LoadDriver.Result result) {}

  MacroBench.Section run() {
    MacroBench.progress("refresh under load: refreshHandler vs flush_all");
    BenchServlets.Pages pages = new BenchServlets.Pages(ThroughputScenario.PAGES, ThroughputScenario.PAGE_BYTES);
    try (BenchSite site = new BenchSite(memcached.node(0).address(), "ref", "ttl=10m, grace=10m", pages,
        ThroughputScenario.COST_MILLIS)) {
      LoadDriver driver = new LoadDriver("Accept-Encoding", "gzip");
      site.fill(driver, "cached");
      site.fill(driver, "other");
      Window steady = window(site, driver, "none (all pages cached)", () -> { });
      Window refresh = window(site, driver, "`refreshHandler(\"page\")`", () -> site.cache.refreshHandler("page", "bench"));
      long refilled = site.fill(driver, "cached") + site.fill(driver, "other");
      Window flush = window(site, driver, "`flush_all`", () -> memcached.flushAll(0));

      Table t = new Table("event at t = 0", "requests in window", "req/s", "backend calls: \"page\" (refreshed)",
          "backend calls: \"other\"", "p50 ms", "p99 ms",
          "p99.9 ms", "max ms", "requests ≥ " + ThroughputScenario.COST_MILLIS + " ms", "X-Cache", "errors");
      for (Window w : List.of(steady, refresh, flush)) {
        LoadDriver.Result r = w.result();
        t.row(w.event(), r.requests(), num(r.rps(), 0), w.refreshedCalls(), w.otherCalls(), num(r.millis(0.5), 2),
            num(r.millis(0.99), 2), num(r.millis(0.999), 1), num(r.maxMillis(), 1),
            r.slowerThan(ThroughputScenario.COST_MILLIS), ThroughputScenario.labels(r), r.errors() + r.serverErrors());
      }
      String markdown = "Load: " + settings.describe() + "; two cached handlers, \"page\" and \"other\", with"
          + " the same " + ThroughputScenario.PAGES + " pages each (Zipf, s = 1), requests alternating between"
          + " them; backend " + ThroughputScenario.COST_MILLIS + " ms per page. Each window starts"
          + " right after the event (the clients pause for the few milliseconds the event takes) and lasts "
          + settings.window().toSeconds() + " s, after " + settings.warmUp().toSeconds() + " s of the same load;"
          + " between the two events every page was rebuilt (" + refilled + " of " + 2 * ThroughputScenario.PAGES
          + " HIT in the check pass). `refreshHandler` condemns only \"page\"; `flush_all` empties the cache"
          + " of every handler.\n\n" + t;
      return new MacroBench.Section("refresh", markdown, List.of(
          summary(steady), summary(refresh), summary(flush)));
    }
  }

  private Window window(BenchSite site, LoadDriver driver, String event, Runnable action) {
    load(site, driver, settings.warmUp());
    long refreshed = site.cachedBackend.calls.get();
    long other = site.otherBackend.calls.get();
    action.run();
    LoadDriver.Result r = driver.run("after " + event, settings.concurrency(), settings.maxRequests(),
        settings.window(), target(site));
    return new Window(event, site.cachedBackend.calls.get() - refreshed, site.otherBackend.calls.get() - other, r);
  }

  private void load(BenchSite site, LoadDriver driver, Duration time) {
    driver.run("load", settings.concurrency(), settings.maxRequests(), time, target(site));
  }

  /** Requests alternate between the two handlers, each picking its page by the same Zipf law. */
  private Supplier<URI> target(BenchSite site) {
    AtomicLong turn = new AtomicLong();
    return () -> site.uri(turn.getAndIncrement() % 2 == 0 ? "cached" : "other", zipf.next());
  }

  private static String summary(Window w) {
    return "event " + w.event() + ": backend calls " + w.refreshedCalls() + " (page) + " + w.otherCalls()
        + " (other), requests >= "
        + ThroughputScenario.COST_MILLIS + " ms " + w.result().slowerThan(ThroughputScenario.COST_MILLIS) + ", p99.9 "
        + num(w.result().millis(0.999), 1) + " ms, " + ThroughputScenario.line(w.result());
  }
}
