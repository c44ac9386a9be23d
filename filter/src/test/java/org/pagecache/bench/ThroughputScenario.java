package org.pagecache.bench;

import static org.pagecache.bench.Table.num;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

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

  MacroBench.Section run() {
    MacroBench.progress("throughput: no cache, PageCache hits, limit");
    BenchServlets.Pages pages = new BenchServlets.Pages(PAGES, PAGE_BYTES);
    try (BenchSite site = new BenchSite(memcached.node(0).address(), "thr", "ttl=10m, grace=10m", pages, COST_MILLIS)) {
      LoadDriver gzip = new LoadDriver("Accept-Encoding", "gzip");
      LoadDriver identity = new LoadDriver();
      long filled = site.fill(gzip);
      for (String kind : List.of("nocache", "cached", "limit")) {
        run(gzip, site, "warm-up", kind, true);
      }
      run(identity, site, "warm-up", "cached", true);
      run(identity, site, "warm-up", "limit", true);

      Row noCacheRow = measure(gzip, site, "no cache (backend every time)", "nocache");
      long trips = site.cache.store().roundTrips();
      Map<String, String> before = memcached.stats(0);
      Row hitsRow = measure(gzip, site, "PageCache hits", "cached");
      Map<String, String> after = memcached.stats(0);
      trips = site.cache.store().roundTrips() - trips;
      Row limitRow = measure(gzip, site, "limit: same bytes from memory", "limit");
      Row hitsIdentityRow = measure(identity, site, "PageCache hits, client without gzip", "cached");
      Row limitIdentityRow = measure(identity, site, "limit, client without gzip", "limit");
      List<Row> rows = List.of(noCacheRow, hitsRow, limitRow, hitsIdentityRow, limitIdentityRow);
      LoadDriver.Result noCache = noCacheRow.result();
      LoadDriver.Result hits = hitsRow.result();
      LoadDriver.Result limit = limitRow.result();
      LoadDriver.Result hitsIdentity = hitsIdentityRow.result();
      LoadDriver.Result limitIdentity = limitIdentityRow.result();
      String ratios = "\n**PageCache / limit: " + num(hits.rps() / limit.rps(), 2) + "** (gzip clients), "
          + num(hitsIdentity.rps() / limitIdentity.rps(), 2) + " (clients without gzip: the stored gzip body is "
          + "inflated on every hit). PageCache / no cache: " + num(hits.rps() / noCache.rps(), 1) + "x.\n";
      return new MacroBench.Section("throughput",
          throughput(filled, limit, rows) + ratios + "\n" + costOfAHit(hits, trips, before, after),
          List.of(
              line(noCache), line(hits), line(limit), line(hitsIdentity), line(limitIdentity),
              "PageCache/limit (gzip clients): " + num(hits.rps() / limit.rps(), 2)
                  + "; (identity clients): " + num(hitsIdentity.rps() / limitIdentity.rps(), 2),
              "round trips per hit: " + num((double) trips / hits.requests(), 3)
                  + "; memcached bytes_written per hit: "
                  + num(delta(before, after, "bytes_written") / (double) hits.requests(), 0)));
    }
  }

  /** A table row: a run and the backend calls made during it. */
  private record Row(LoadDriver.Result result, long backendCalls) {}

  private Row measure(LoadDriver driver, BenchSite site, String name, String kind) {
    long calls = backendCalls(site);
    LoadDriver.Result r = run(driver, site, name, kind, false);
    return new Row(r, backendCalls(site) - calls);
  }

  private static long backendCalls(BenchSite site) {
    return site.cachedBackend.calls.get() + site.uncachedBackend.calls.get();
  }

  private LoadDriver.Result run(LoadDriver driver, BenchSite site, String name, String kind, boolean warmUp) {
    return driver.run(name, settings.concurrency(), settings.maxRequests(),
        warmUp ? settings.warmUp() : settings.window(), () -> site.uri(kind, zipf.next()));
  }

  private String throughput(long filled, LoadDriver.Result limit, List<Row> rows) {
    Table t = new Table("served by", "requests", "req/s", "p50 ms", "p99 ms", "max ms", "backend calls",
        "X-Cache", "errors");
    for (Row row : rows) {
      LoadDriver.Result r = row.result();
      t.row(r.name(), r.requests(), num(r.rps(), 0), num(r.millis(0.5), 2), num(r.millis(0.99), 2),
          num(r.maxMillis(), 1), row.backendCalls(), labels(r),
          r.errors() + r.serverErrors());
    }
    return "Load: " + settings.describe() + ". " + PAGES + " pages of " + PAGE_BYTES / 1024
        + " KB HTML (" + num(limit.bodyBytes() / (double) limit.requests() / 1024, 1)
        + " KB gzipped on average), Zipf popularity (s = 1); backend cost " + COST_MILLIS
        + " ms per page. Clients send `Accept-Encoding: gzip` unless the row says otherwise. "
        + "Before measuring, every page was cached (" + filled + " of " + PAGES + " answered HIT in the check pass).\n\n"
        + t;
  }

  private String costOfAHit(LoadDriver.Result hits, long trips, Map<String, String> before, Map<String, String> after) {
    double n = hits.requests();
    Table t = new Table("per PageCache hit (measured over the hits run)", "value");
    t.row("Store round trips (`Store.roundTrips()`)", num(trips / n, 3));
    t.row("memcached keys found (`get_hits`)", num(delta(before, after, "get_hits") / n, 3));
    t.row("memcached keys missed (`get_misses`; the handler's update token is absent until its first refresh)",
        num(delta(before, after, "get_misses") / n, 3));
    t.row("memcached writes (`cmd_set`)", num(delta(before, after, "cmd_set") / n, 3));
    t.row("bytes memcached sent (`bytes_written`)", num(delta(before, after, "bytes_written") / n, 0));
    t.row("bytes memcached received (`bytes_read`)", num(delta(before, after, "bytes_read") / n, 0));
    t.row("body bytes sent to the client", num(hits.bodyBytes() / n, 0));
    return "What a hit costs memcached (node stats before and after the hits run, divided by its "
        + hits.requests() + " requests):\n\n" + t;
  }

  private static long delta(Map<String, String> before, Map<String, String> after, String stat) {
    return Long.parseLong(after.get(stat)) - Long.parseLong(before.get(stat));
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
