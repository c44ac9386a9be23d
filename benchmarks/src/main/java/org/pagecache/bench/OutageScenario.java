package org.pagecache.bench;

import static org.pagecache.bench.Table.num;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * memcached failing under load, in figures (the fault tests assert the behaviour; this measures
 * it): the only memcached stops and comes back; then one node of a three-node cluster stops. Per
 * phase: throughput, latency, backend calls and what the cache answered. The event happens one
 * second into its phase, while the clients are sending.
 */
final class OutageScenario {
  static final int SINGLE = 5;       // node 5: the single-node site
  static final int CLUSTER = 6;      // nodes 6, 7, 8: the three-node site
  private static final Duration EVENT_AT = Duration.ofSeconds(1);

  private final BenchMemcached memcached;
  private final MacroBench.Settings settings;
  private final Zipf zipf = new Zipf(ThroughputScenario.PAGES, 1.0);

  OutageScenario(BenchMemcached memcached, MacroBench.Settings settings) {
    this.memcached = memcached;
    this.settings = settings;
  }

  private record Phase(String name, long backendCalls, LoadDriver.Result result) {}

  MacroBench.Section run() {
    MacroBench.progress("outage: memcached stops and returns; one node of three stops");
    BenchServlets.Pages pages = new BenchServlets.Pages(ThroughputScenario.PAGES, ThroughputScenario.PAGE_BYTES);
    Duration phase = Duration.ofSeconds(5);
    List<Phase> single = new ArrayList<>();
    AtomicLong resumedMillis = new AtomicLong(-1);
    try (BenchSite site = new BenchSite(memcached.node(SINGLE).address(), "out", "ttl=10m, grace=10m", pages,
        ThroughputScenario.COST_MILLIS)) {
      LoadDriver driver = new LoadDriver("Accept-Encoding", "gzip");
      site.fill(driver);
      phase(site, driver, "warm-up", settings.warmUp(), null);
      single.add(phase(site, driver, "memcached up", phase, null));
      single.add(phase(site, driver, "memcached stopped at t = 1 s", phase, () -> memcached.node(SINGLE).stop()));
      single.add(phase(site, driver, "memcached down", phase, null));
      single.add(phase(site, driver, "memcached started at t = 1 s", phase.multipliedBy(2), () -> {
        memcached.node(SINGLE).start();
        resumedMillis.set(millisUntilHit(site.uri("cached", 0)));
      }));
      single.add(phase(site, driver, "memcached back", phase, null));
    }

    List<Phase> cluster = new ArrayList<>();
    long itemsOnLostNode;
    String servers = memcached.node(CLUSTER).address() + "," + memcached.node(CLUSTER + 1).address() + ","
        + memcached.node(CLUSTER + 2).address();
    try (BenchSite site = new BenchSite(servers, "loss", "ttl=10m, grace=10m", pages, ThroughputScenario.COST_MILLIS)) {
      LoadDriver driver = new LoadDriver("Accept-Encoding", "gzip");
      site.fill(driver);
      itemsOnLostNode = memcached.stat(CLUSTER + 1, "curr_items");
      phase(site, driver, "warm-up", settings.warmUp(), null);
      cluster.add(phase(site, driver, "3 nodes up", phase, null));
      cluster.add(phase(site, driver, "node 2 of 3 stopped at t = 1 s", phase.multipliedBy(2),
          () -> memcached.node(CLUSTER + 1).stop()));
      cluster.add(phase(site, driver, "2 nodes", phase, null));
    }

    String markdown = "Load: " + settings.concurrency() + " concurrent clients (closed loop), the same "
        + ThroughputScenario.PAGES + " pages (Zipf, s = 1), backend " + ThroughputScenario.COST_MILLIS
        + " ms per page, `memcached.op.timeout` 200 ms, `retry.interval` 1 s (the defaults). Consecutive phases of"
        + " one run; the event happens 1 s into its phase, under load.\n\n"
        + "The only memcached stops, then returns (empty):\n\n" + table(single)
        + "\nHits resumed " + (resumedMillis.get() < 0 ? "(not within 15 s)" : resumedMillis.get() + " ms")
        + " after memcached was back (first `X-Cache: HIT` seen by a probe requesting the hottest page every 20 ms).\n\n"
        + "One node of three stops (it held " + itemsOnLostNode + " items: its share of the pages plus tokens and"
        + " locks); Ketama moves only its keys:\n\n" + table(cluster);
    List<String> summary = new ArrayList<>();
    single.forEach(p -> summary.add("outage, " + summary(p)));
    summary.add("outage: hits resumed " + resumedMillis.get() + " ms after memcached was back");
    cluster.forEach(p -> summary.add("node loss, " + summary(p)));
    summary.add("node loss: the stopped node held " + itemsOnLostNode + " items");
    return new MacroBench.Section("outage", markdown, summary);
  }

  private Phase phase(BenchSite site, LoadDriver driver, String name, Duration length, Runnable event) {
    long calls = site.cachedBackend.calls.get();
    LoadDriver.Result r = driver.runWithEvent(name, settings.concurrency(), settings.maxRequests(), length,
        () -> site.uri("cached", zipf.next()), EVENT_AT, event);
    return new Phase(name, site.cachedBackend.calls.get() - calls, r);
  }

  private static String summary(Phase p) {
    return p.name() + ": backend calls " + p.backendCalls() + ", " + ThroughputScenario.line(p.result());
  }

  private static String table(List<Phase> phases) {
    Table t = new Table("phase", "seconds", "requests", "req/s", "backend calls", "p50 ms", "p99 ms", "max ms",
        "X-Cache", "errors");
    for (Phase p : phases) {
      LoadDriver.Result r = p.result();
      t.row(p.name(), num(r.seconds(), 1), r.requests(), num(r.rps(), 0), p.backendCalls(), num(r.millis(0.5), 2),
          num(r.millis(0.99), 2), num(r.maxMillis(), 1), ThroughputScenario.labels(r), r.errors() + r.serverErrors());
    }
    return t.toString();
  }

  /** Requests {@code uri} every 20 ms until it is a hit; the milliseconds that took, -1 after 15 s. */
  private static long millisUntilHit(URI uri) {
    HttpClient client = HttpClient.newHttpClient();
    long start = System.nanoTime();
    while (System.nanoTime() - start < 15_000_000_000L) {
      try {
        HttpResponse<Void> r = client.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.discarding());
        if ("HIT".equals(r.headers().firstValue("X-Cache").orElse(null))) {
          return (System.nanoTime() - start) / 1_000_000;
        }
      } catch (java.io.IOException e) {
        // keep probing
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return -1;
      }
      sleep(20);
    }
    return -1;
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
