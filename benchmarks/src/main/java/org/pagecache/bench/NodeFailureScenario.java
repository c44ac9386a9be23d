package org.pagecache.bench;

import static org.pagecache.bench.Table.num;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Issue 18 in figures: three memcached nodes, Zipf load on a few hundred pages; one node hangs
 * (SIGSTOP) for about 10 s, is then killed, then started again empty. Run twice, with a gutter
 * pool and without one. Per phase: backend calls per second, the share of BYPASS answers, p50 and
 * p99. The event happens one second into its phase, while the clients are sending.
 *
 * <pre>
 *   java -cp ... org.pagecache.bench.MacroBench target/bench 32 10 nodes
 * </pre>
 */
final class NodeFailureScenario {
  private static final int FAILING = 1;
  private static final int GUTTER = 3;
  private static final Duration PHASE = Duration.ofSeconds(5);

  private final MacroBench.Settings settings;
  private final Zipf zipf = new Zipf(ThroughputScenario.PAGES, 1.0);

  NodeFailureScenario(MacroBench.Settings settings) {
    this.settings = settings;
  }

  private record Phase(String name, long backendCalls, LoadDriver.Result result) {}

  MacroBench.Section run() {
    MacroBench.progress("nodes: one node of three hangs, dies and returns; with and without a gutter");
    List<Phase> withGutter = run(true);
    List<Phase> without = run(false);
    String markdown = "Load: " + settings.concurrency() + " concurrent clients (closed loop), "
        + ThroughputScenario.PAGES + " pages (Zipf, s = 1), backend " + ThroughputScenario.COST_MILLIS
        + " ms per page, `memcached.op.timeout` 200 ms, `retry.interval` 1 s, `gutter.ttl` 10 s (the defaults);"
        + " three memcached nodes, the gutter a fourth. Consecutive phases of one run; each event happens 1 s into"
        + " its phase, under load: node 2 is stopped with SIGSTOP (hung), killed about 10 s later, then started"
        + " again (empty).\n\n"
        + "With a gutter (`memcached.gutter`):\n\n" + table(withGutter)
        + "\nWithout a gutter:\n\n" + table(without);
    List<String> summary = new ArrayList<>();
    withGutter.forEach(p -> summary.add("nodes, gutter, " + summary(p)));
    without.forEach(p -> summary.add("nodes, no gutter, " + summary(p)));
    return new MacroBench.Section("nodes", markdown, summary);
  }

  private List<Phase> run(boolean gutter) {
    List<Phase> phases = new ArrayList<>();
    try (BenchMemcached memcached = new BenchMemcached(4)) {
      String servers = memcached.node(0).address() + "," + memcached.node(1).address() + ","
          + memcached.node(2).address();
      Map<String, String> extra = gutter ? Map.of("memcached.gutter", memcached.node(GUTTER).address()) : Map.of();
      BenchServlets.Pages pages = new BenchServlets.Pages(ThroughputScenario.PAGES, ThroughputScenario.PAGE_BYTES);
      try (BenchSite site = new BenchSite(servers, gutter ? "gut" : "nog", "ttl=10m, grace=10m", pages,
          ThroughputScenario.COST_MILLIS, extra)) {
        LoadDriver driver = new LoadDriver("Accept-Encoding", "gzip");
        site.fill(driver);
        phase(site, driver, "warm-up", settings.warmUp(), null);
        phases.add(phase(site, driver, "3 nodes up", PHASE, null));
        phases.add(phase(site, driver, "node 2 hangs at t = 1 s", PHASE, () -> memcached.node(FAILING).pause()));
        phases.add(phase(site, driver, "node 2 hung", PHASE, null));
        phases.add(phase(site, driver, "node 2 killed at t = 1 s", PHASE, () -> memcached.node(FAILING).stop()));
        phases.add(phase(site, driver, "node 2 dead", PHASE, null));
        phases.add(phase(site, driver, "node 2 started (empty) at t = 1 s", PHASE, () -> memcached.node(FAILING).start()));
        phases.add(phase(site, driver, "3 nodes up again", PHASE, null));
      }
    }
    return phases;
  }

  private Phase phase(BenchSite site, LoadDriver driver, String name, Duration length, Runnable event) {
    long calls = site.cachedBackend.calls.get();
    LoadDriver.Result r = driver.runWithEvent(name, settings.concurrency(), settings.maxRequests(), length,
        () -> site.uri("cached", zipf.next()), Duration.ofSeconds(1), event);
    return new Phase(name, site.cachedBackend.calls.get() - calls, r);
  }

  private static String summary(Phase p) {
    LoadDriver.Result r = p.result();
    return p.name() + ": backend calls/s " + num(p.backendCalls() / r.seconds(), 1) + ", to the backend "
        + num(100.0 * p.backendCalls() / Math.max(1, r.requests()), 1) + " %, BYPASS "
        + num(100.0 * r.label("BYPASS") / Math.max(1, r.requests()), 1) + " %, p50 " + num(r.millis(0.5), 2)
        + " ms, p99 " + num(r.millis(0.99), 2) + " ms";
  }

  private static String table(List<Phase> phases) {
    Table t = new Table("phase", "requests", "req/s", "backend calls/s", "to the backend", "BYPASS", "p50 ms",
        "p99 ms", "X-Cache", "errors");
    for (Phase p : phases) {
      LoadDriver.Result r = p.result();
      t.row(p.name(), r.requests(), num(r.rps(), 0), num(p.backendCalls() / r.seconds(), 1),
          num(100.0 * p.backendCalls() / Math.max(1, r.requests()), 1) + " %",
          num(100.0 * r.label("BYPASS") / Math.max(1, r.requests()), 1) + " %", num(r.millis(0.5), 2),
          num(r.millis(0.99), 2), ThroughputScenario.labels(r), r.errors() + r.serverErrors());
    }
    return t.toString();
  }
}
