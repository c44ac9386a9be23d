package org.pagecache.bench;

import static org.pagecache.bench.Table.num;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Requests per second and latency of the same 200 pages served three ways in one run: by the
 * backend every time, by PageCache hits from memcached, and from memory (the limit). Also what a
 * hit costs memcached: round trips, keys and bytes.
 */
final class ThroughputScenario {
  static final int PAGES = 200;
  static final int PAGE_BYTES = 20 * 1024;
  static final long COST_MILLIS = 50;

  private final BenchMemcached memcached;
  private final MacroBench.Settings settings;
  private final Zipf zipf = new Zipf(PAGES, 1.0);

  ThroughputScenario(BenchMemcached memcached, MacroBench.Settings settings) {
    this.memcached = memcached;
    this.settings = settings;
  }

  /**
   * One way of serving, measured in {@link #ROUNDS} slices interleaved with the others, so that a
   * change in the machine's background load during the run hits every way alike.
   */
  private static final class Way {
    final String name;
    final LoadDriver driver;
    final String kind;
    final List<LoadDriver.Result> slices = new ArrayList<>();
    final Map<String, Long> memcachedDeltas = new TreeMap<>();
    long backendCalls;
    long roundTrips;

    Way(String name, LoadDriver driver, String kind) {
      this.name = name;
      this.driver = driver;
      this.kind = kind;
    }

    LoadDriver.Result result() {
      return LoadDriver.Result.combine(name, slices);
    }

    long memcached(String stat) {
      return memcachedDeltas.getOrDefault(stat, 0L);
    }
  }

  static final int ROUNDS = 2;
  private static final List<String> STATS = List.of("get_hits", "get_misses", "cmd_set", "bytes_written", "bytes_read");

  MacroBench.Section run() {
    MacroBench.progress("throughput: no cache, PageCache hits, limit");
    BenchServlets.Pages pages = new BenchServlets.Pages(PAGES, PAGE_BYTES);
    try (BenchSite site = new BenchSite(memcached.node(0).address(), "thr", "ttl=10m, grace=10m", pages, COST_MILLIS)) {
      LoadDriver gzip = new LoadDriver("Accept-Encoding", "gzip");
      LoadDriver identity = new LoadDriver();
      Way noCache = new Way("no cache (backend every time)", gzip, "nocache");
      Way hits = new Way("PageCache hits", gzip, "cached");
      Way limit = new Way("limit: same bytes from memory", gzip, "limit");
      Way hitsIdentity = new Way("PageCache hits, client without gzip", identity, "cached");
      Way limitIdentity = new Way("limit, client without gzip", identity, "limit");
      List<Way> ways = List.of(noCache, hits, limit, hitsIdentity, limitIdentity);

      long filled = site.fill(gzip);
      for (Way way : ways) {
        way.driver.run("warm-up", settings.concurrency(), settings.maxRequests(), settings.warmUp(),
            () -> site.uri(way.kind, zipf.next()));
      }
      for (int round = 0; round < ROUNDS; round++) {
        for (Way way : ways) {
          measure(site, way);
        }
      }

      LoadDriver.Result h = hits.result();
      String ratios = "\n**PageCache / limit: " + num(h.rps() / limit.result().rps(), 2) + "** (gzip clients), "
          + num(hitsIdentity.result().rps() / limitIdentity.result().rps(), 2) + " (clients without gzip: the stored"
          + " gzip body is inflated on every hit). PageCache / no cache: " + num(h.rps() / noCache.result().rps(), 1)
          + "x.\n";
      List<String> summary = new ArrayList<>();
      ways.forEach(w -> summary.add(line(w.result())));
      summary.add("PageCache/limit (gzip clients): " + num(h.rps() / limit.result().rps(), 2)
          + "; (identity clients): " + num(hitsIdentity.result().rps() / limitIdentity.result().rps(), 2));
      summary.add("round trips per hit: " + num((double) hits.roundTrips / h.requests(), 3)
          + "; memcached bytes_written per hit: " + num(hits.memcached("bytes_written") / (double) h.requests(), 0));
      return new MacroBench.Section("throughput", throughput(filled, limit.result(), ways) + ratios + "\n"
          + costOfAHit(hits), summary);
    }
  }

  private void measure(BenchSite site, Way way) {
    long calls = site.cachedBackend.calls.get() + site.uncachedBackend.calls.get();
    long trips = site.cache.store().roundTrips();
    Map<String, String> before = memcached.stats(0);
    way.slices.add(way.driver.run(way.name, settings.concurrency(), settings.maxRequests(),
        settings.window().dividedBy(ROUNDS), () -> site.uri(way.kind, zipf.next())));
    Map<String, String> after = memcached.stats(0);
    way.roundTrips += site.cache.store().roundTrips() - trips;
    way.backendCalls += site.cachedBackend.calls.get() + site.uncachedBackend.calls.get() - calls;
    for (String stat : STATS) {
      way.memcachedDeltas.merge(stat, Long.parseLong(after.get(stat)) - Long.parseLong(before.get(stat)), Long::sum);
    }
  }

  private String throughput(long filled, LoadDriver.Result limit, List<Way> ways) {
    Table t = new Table("served by", "requests", "req/s", "p50 ms", "p99 ms", "max ms", "backend calls",
        "X-Cache", "errors");
    for (Way way : ways) {
      LoadDriver.Result r = way.result();
      t.row(r.name(), r.requests(), num(r.rps(), 0), num(r.millis(0.5), 2), num(r.millis(0.99), 2),
          num(r.maxMillis(), 1), way.backendCalls, labels(r), r.errors() + r.serverErrors());
    }
    return "Load: " + settings.concurrency() + " concurrent clients (closed loop), " + settings.window().toSeconds()
        + " s per way of serving, measured as " + ROUNDS + " slices of " + settings.window().dividedBy(ROUNDS).toSeconds()
        + " s interleaved with the other ways (after " + settings.warmUp().toSeconds() + " s of warm-up each). "
        + PAGES + " pages of " + PAGE_BYTES / 1024 + " KB HTML (" + num(limit.bodyBytes() / (double) limit.requests() / 1024, 1)
        + " KB gzipped on average), Zipf popularity (s = 1); backend cost " + COST_MILLIS
        + " ms per page. Clients send `Accept-Encoding: gzip` unless the row says otherwise. "
        + "Before measuring, every page was cached (" + filled + " of " + PAGES + " answered HIT in the check pass).\n\n"
        + t;
  }

  private String costOfAHit(Way hits) {
    LoadDriver.Result r = hits.result();
    double n = r.requests();
    Table t = new Table("per PageCache hit (measured over the hits run)", "value");
    t.row("Store round trips (`Store.roundTrips()`)", num(hits.roundTrips / n, 3));
    t.row("memcached keys found (`get_hits`: the page and its handler's update token, in one multi-get)",
        num(hits.memcached("get_hits") / n, 3));
    t.row("memcached keys missed (`get_misses`)", num(hits.memcached("get_misses") / n, 3));
    t.row("memcached writes (`cmd_set`)", num(hits.memcached("cmd_set") / n, 3));
    t.row("bytes memcached sent (`bytes_written`)", num(hits.memcached("bytes_written") / n, 0));
    t.row("bytes memcached received (`bytes_read`)", num(hits.memcached("bytes_read") / n, 0));
    t.row("body bytes sent to the client", num(r.bodyBytes() / n, 0));
    return "What a hit costs memcached (node stats before and after each hits slice, summed, divided by its "
        + r.requests() + " requests):\n\n" + t;
  }

  static String labels(LoadDriver.Result r) {
    List<String> parts = new ArrayList<>();
    r.labels().forEach((label, count) -> {
      if (!label.equals("none")) {
        parts.add(label + " " + count);
      }
    });
    return parts.isEmpty() ? "-" : String.join(", ", parts);
  }

  static String line(LoadDriver.Result r) {
    return String.format("%-40s %8d req %9.0f req/s  p50 %7.2f ms  p99 %7.2f ms  max %7.1f ms  errors %d  %s",
        r.name(), r.requests(), r.rps(), r.millis(0.5), r.millis(0.99), r.maxMillis(),
        r.errors() + r.serverErrors(), labels(r));
  }
}
