package org.pagecache.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The macro benchmarks: real memcached processes, an embedded Jetty on loopback and real HTTP load
 * ({@link LoadDriver}), every run bounded in time and in requests. Writes one Markdown section per
 * scenario into the output directory, which {@link BenchmarksReport} puts into BENCHMARKS.md.
 *
 * <pre>
 *   scripts/bench.sh                                                # builds, runs everything, updates BENCHMARKS.md
 *   java -cp ... org.pagecache.bench.MacroBench target/bench        # this part alone
 *   java -cp ... org.pagecache.bench.MacroBench target/bench 16 5   # 16 clients, 5 s windows
 *   java -cp ... org.pagecache.bench.MacroBench target/bench 32 10 stampede,scaleout   # some scenarios
 * </pre>
 */
public final class MacroBench {
  /** Load shape shared by the scenarios. */
  record Settings(int concurrency, Duration window, Duration warmUp, long maxRequests) {
    String describe() {
      return concurrency + " concurrent clients (closed loop), " + window.toSeconds() + " s per measurement after "
          + warmUp.toSeconds() + " s of warm-up, at most " + maxRequests + " requests per measurement";
    }
  }

  /** One scenario's output: a Markdown section for the report and a few lines for the console. */
  record Section(String name, String markdown, List<String> summary) {}

  private MacroBench() {}

  public static void main(String[] args) throws IOException {
    Path out = Path.of(args.length > 0 ? args[0] : "target/bench");
    int concurrency = args.length > 1 ? Integer.parseInt(args[1]) : 32;
    int seconds = args.length > 2 ? Integer.parseInt(args[2]) : 10;
    Set<String> only = args.length > 3 ? Set.of(args[3].split(",")) : null;
    Settings settings = new Settings(concurrency, Duration.ofSeconds(seconds), Duration.ofSeconds(Math.min(3, seconds)), 1_000_000);
    Files.createDirectories(out);
    // The clusters scenario sends one Host to two sites, so both key the same pages (read once, at the client's start).
    System.setProperty("jdk.httpclient.allowRestrictedHeaders", "host");
    List<String> summary = new ArrayList<>();
    long start = System.nanoTime();
    // Node 0 serves the load scenarios, nodes 1 to 4 the scale-out one, 5 to 8 the outage one: each
    // scenario that reads item counts or stops nodes has its own.
    // Nodes 9 to 11: the clusters scenario's three data centres.
    try (BenchMemcached memcached = new BenchMemcached(12)) {
      Map<String, Supplier<Section>> scenarios = new LinkedHashMap<>();
      scenarios.put("throughput", () -> new ThroughputScenario(memcached, settings).run());
      scenarios.put("refresh", () -> new RefreshScenario(memcached, settings).run());
      scenarios.put("stampede", () -> new StampedeScenario(memcached, settings).run());
      scenarios.put("cookies", () -> new CookieMixScenario(memcached, settings).run());
      scenarios.put("outage", () -> new OutageScenario(memcached, settings).run());
      scenarios.put("scaleout", () -> new ScaleOutScenario(memcached).run());
      scenarios.put("clusters", () -> new ClustersScenario(memcached, settings).run());
      // One node of three hangs, dies and returns, with and without a gutter; pools (issue 18). Own nodes.
      scenarios.put("nodes", () -> new NodeFailureScenario(settings).run());
      scenarios.put("pools", () -> new PoolsScenario(settings).run());
      // PageCache against nginx and Varnish in front of the same app, measured by wrk (issue 14).
      scenarios.put("proxies", () -> new ProxyScenario(memcached, settings, out).run());
      // The long tail: 50 000 pages, far more than the near cache, against nginx and Varnish (issue 29). Own node.
      scenarios.put("longtail", () -> new LongTailScenario(settings, out).run());
      // A hit beyond the near cache against one memcached get of the same bytes (issue 38). Own node.
      scenarios.put("memhit", () -> new MemcachedHitScenario(settings, out).run());
      // Signed-in visitors: a hit with two fragments against a plain hit, a signed-in mix against pass-through (issue 30).
      scenarios.put("fragments", () -> new FragmentsScenario(memcached, settings).run());
      // Pages that expire under load: who waits for a rebuild, against nginx's background update and Varnish's grace (issue 36).
      scenarios.put("expiring", () -> new ExpiringScenario(memcached, settings, out).run());
      // Junk query parameters no page reads: keyed on what pages read against nginx's and Varnish's whole URL (issue 47).
      scenarios.put("junkparams", () -> new JunkParamsScenario(memcached, settings, out).run());
      for (Map.Entry<String, Supplier<Section>> scenario : scenarios.entrySet()) {
        if (only != null && !only.contains(scenario.getKey())) {
          continue;
        }
        Section section = scenario.getValue().get();
        Files.writeString(out.resolve(section.name() + ".md"), section.markdown(), StandardCharsets.UTF_8);
        summary.addAll(section.summary());
      }
    }
    summary.add(String.format("macro benchmarks took %.0f s", (System.nanoTime() - start) / 1e9));
    Files.write(out.resolve("macro-summary.txt"), summary, StandardCharsets.UTF_8);
    summary.forEach(System.out::println);
    // Jetty's and xmemcached's non-daemon threads are stopped by now, but do not depend on it.
    System.exit(0);
  }

  static void progress(String what) {
    System.out.println("==> " + what);
  }
}
