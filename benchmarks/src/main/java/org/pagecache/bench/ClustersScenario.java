package org.pagecache.bench;

import org.pagecache.stats.Refresh;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.pagecache.PageCache;
import org.pagecache.stats.ClusterStatus;

/**
 * Several memcached clusters (issue 19), on loopback: two data centres (nodes 9 and 10), each with
 * its own PageCache (both in this JVM, each with its own Jetty and memcached client); then a third,
 * empty cluster (node 11) warming from the warm one under Zipf load.
 * <ul>
 *   <li>A refresh made in east: how long until west serves a rebuilt page (the first MISS of a probe
 *       requesting the page every 5 ms), with the default {@code near.trust} of 1 s; repeated.
 *   <li>The same with west hung (SIGSTOP) for 10 s: the refresh returns with west pending; how long
 *       after SIGCONT west's memcached holds the new token (a probe reading it every 5 ms).
 *   <li>The cold cluster for its first minute under Zipf load: backend builds with
 *       {@code memcached.warm.from}, against the same cluster starting cold without it.
 * </ul>
 * {@code java -cp ... org.pagecache.bench.MacroBench target/bench 32 10 clusters}
 */
final class ClustersScenario {
  static final int EAST = 9;
  static final int WEST = 10;
  static final int COLD = 11;
  private static final int REFRESHES = 20;
  private static final Duration FIRST_MINUTE = Duration.ofSeconds(60);
  /** One host for every site: pages are keyed by it, and the clusters must share keys. */
  private static final String HOST = "bench.example";

  private final BenchMemcached memcached;
  private final MacroBench.Settings settings;
  private final Zipf zipf = new Zipf(ThroughputScenario.PAGES, 1.0);
  private final HttpClient probe = HttpClient.newHttpClient();

  ClustersScenario(BenchMemcached memcached, MacroBench.Settings settings) {
    this.memcached = memcached;
    this.settings = settings;
  }

  private BenchSite site(int node, String namespace, Map<String, String> more) {
    BenchServlets.Pages pages = new BenchServlets.Pages(ThroughputScenario.PAGES, ThroughputScenario.PAGE_BYTES);
    return new BenchSite(memcached.node(node).address(), namespace, "ttl=10m, grace=10m", pages,
        ThroughputScenario.COST_MILLIS, more);
  }

  MacroBench.Section run() {
    MacroBench.progress("clusters: refresh propagation between two clusters; a cold cluster warming from a warm one");
    long[] inForce = new long[REFRESHES];
    long[] inForceNoNear = new long[REFRESHES];
    long[] refreshCall = new long[REFRESHES];
    long pendingCall;
    long deliveredAfterResume;
    try (BenchSite east = site(EAST, "dc0", Map.of("memcached.remote", "west=" + memcached.node(WEST).address()));
        BenchSite west = site(WEST, "dc0", Map.of("memcached.remote", "east=" + memcached.node(EAST).address(),
            "near.trust", "0s"))) {
      refreshes(east, west, inForceNoNear, new long[REFRESHES]);
    }
    try (BenchSite east = site(EAST, "dc", Map.of("memcached.remote", "west=" + memcached.node(WEST).address()));
        BenchSite west = site(WEST, "dc", Map.of("memcached.remote", "east=" + memcached.node(EAST).address()))) {
      refreshes(east, west, inForce, refreshCall);
      String tokenKey = east.cache.config().namespace().token("page");
      memcached.node(WEST).pause();
      Refresh pending;
      long resumedAt;
      try {
        long start = System.nanoTime();
        pending = east.cache.refreshHandler("page", "bench");
        pendingCall = micros(start);
        sleep(10_000); // west unreachable for 10 s, as in the issue
      } finally {
        memcached.node(WEST).resume();
        resumedAt = System.nanoTime();
      }
      long wanted = pending.token();
      deliveredAfterResume = -1;
      while (System.nanoTime() - resumedAt < 30_000_000_000L) {
        String token = memcached.node(WEST).text().get(tokenKey);
        if (token != null && Long.parseLong(token.trim()) >= wanted) {
          deliveredAfterResume = micros(resumedAt);
          break;
        }
        sleep(5);
      }
      if (!pending.clusters().pending().equals(List.of("west"))) {
        throw new IllegalStateException("the refresh with west hung should be pending for west: " + pending);
      }
    }

    // A warm cluster: every page built once in west (namespace "warm"), through the shared host.
    LoadDriver driver = new LoadDriver("Accept-Encoding", "gzip", "Host", HOST);
    try (BenchSite warm = site(WEST, "warm", Map.of())) {
      warm.fill(driver);
    }
    Minute warming;
    try (BenchSite cold = site(COLD, "warm", Map.of("memcached.remote", "west=" + memcached.node(WEST).address(),
        "memcached.warm.from", "west", "memcached.warm.for", "5m"))) {
      warming = firstMinute(cold, driver);
    }
    Minute coldStart;
    try (BenchSite cold = site(COLD, "cold", Map.of())) {
      coldStart = firstMinute(cold, driver);
    }

    int pages = ThroughputScenario.PAGES;
    String markdown = "Two clusters on loopback (memcached nodes, one per data centre), a PageCache per cluster"
        + " (both in one JVM, each with its own Jetty and memcached client), defaults otherwise (`near.trust` 1 s,"
        + " `memcached.op.timeout` 200 ms, `retry.interval` 1 s).\n\n"
        + new Table("measure", "p50 ms", "max ms", "goal")
            .row("`refreshHandler` in east, returning with west delivered (" + REFRESHES + " refreshes)",
                ms(percentile(refreshCall, 0.5)), ms(max(refreshCall)), "")
            .row("refresh in east → a rebuilt page in west (probe every 5 ms, no other load; includes the 50 ms build)",
                ms(percentile(inForce, 0.5)), ms(max(inForce)), "≤ `near.trust` (1 s) + one round trip")
            .row("the same with `near.trust` 0s in west", ms(percentile(inForceNoNear, 0.5)), ms(max(inForceNoNear)),
                "one round trip")
            .row("`refreshHandler` in east with west hung (SIGSTOP): returns with west pending", ms(pendingCall),
                ms(pendingCall), "")
            .row("west hung 10 s: the token in west's memcached after SIGCONT (probe every 5 ms)",
                ms(deliveredAfterResume), ms(deliveredAfterResume), "≤ `retry.interval` (1 s)")
        + "\nA third, empty cluster under Zipf load (s = 1, " + pages + " pages, " + settings.concurrency()
        + " clients, backend " + ThroughputScenario.COST_MILLIS + " ms per page) for its first "
        + FIRST_MINUTE.toSeconds() + " s, the warm cluster holding all " + pages + " pages:\n\n"
        + new Table("start", "requests", "backend builds", "copied from the warm cluster", "builds / pages held warm", "goal")
            .row("`memcached.warm.from` (warm-up)", warming.requests, warming.builds, warming.copied,
                percent(warming.builds, pages), "≤ 1 %")
            .row("cold, no warm-up", coldStart.requests, coldStart.builds, "–", percent(coldStart.builds, pages), "")
        + "\n";
    List<String> summary = new ArrayList<>();
    summary.add("clusters: refresh in force in the other cluster p50 " + ms(percentile(inForce, 0.5)) + " ms, max "
        + ms(max(inForce)) + " ms (near.trust 0s: p50 " + ms(percentile(inForceNoNear, 0.5)) + " ms); delivered "
        + ms(deliveredAfterResume) + " ms after a 10 s hang");
    summary.add("clusters: first minute builds, warming " + warming.builds + " (copied " + warming.copied + "), cold "
        + coldStart.builds);
    return new MacroBench.Section("clusters", markdown, summary);
  }

  /** Refreshes in east, each once west serves its hottest page as a hit; times until west rebuilds it. */
  private void refreshes(BenchSite east, BenchSite west, long[] inForce, long[] refreshCall) {
    URI hottest = west.uri("cached", 0);
    for (int i = 0; i < REFRESHES; i++) {
      untilLabel(hottest, "HIT", Duration.ofSeconds(10));
      long start = System.nanoTime();
      east.cache.refreshHandler("page", "bench");
      refreshCall[i] = micros(start);
      untilLabel(hottest, "MISS", Duration.ofSeconds(10));
      inForce[i] = micros(start);
    }
  }

  private record Minute(long requests, long builds, long copied) {}

  private Minute firstMinute(BenchSite site, LoadDriver driver) {
    long before = site.cachedBackend.calls.get();
    LoadDriver.Result r = driver.run("first minute", settings.concurrency(), Long.MAX_VALUE, FIRST_MINUTE,
        () -> site.uri("cached", zipf.next()));
    ClusterStatus.WarmUpProgress w = site.cache.clusterStatus().warmUp();
    return new Minute(r.requests(), site.cachedBackend.calls.get() - before, w == null ? 0 : w.copied());
  }

  /** Requests {@code uri} every 5 ms until its X-Cache is {@code label}. */
  private void untilLabel(URI uri, String label, Duration within) {
    long start = System.nanoTime();
    while (System.nanoTime() - start < within.toNanos()) {
      try {
        HttpResponse<Void> r = probe.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.discarding());
        if (label.equals(r.headers().firstValue("X-Cache").orElse(null))) {
          return;
        }
      } catch (java.io.IOException e) {
        // keep probing
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
      sleep(5);
    }
    throw new IllegalStateException(uri + " did not answer " + label + " within " + within);
  }

  private static long micros(long startNanos) {
    return (System.nanoTime() - startNanos) / 1000;
  }

  private static String ms(long micros) {
    return micros < 0 ? "not delivered" : String.format("%.1f", micros / 1000.0);
  }

  private static long percentile(long[] values, double q) {
    long[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[(int) Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  }

  private static long max(long[] values) {
    return Arrays.stream(values).max().orElse(-1);
  }

  private static String percent(long part, long whole) {
    return String.format("%.1f %%", 100.0 * part / whole);
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis); // the scenario's pace and the probe's period, not a synchronisation
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
