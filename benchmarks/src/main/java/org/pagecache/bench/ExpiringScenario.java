package org.pagecache.bench;

import static org.pagecache.bench.Table.num;

import jakarta.servlet.DispatcherType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.pagecache.PageCache;
import org.pagecache.PageCacheConfig;
import org.pagecache.PageCacheFilter;
import org.pagecache.testing.JettyServer;

/**
 * Pages that expire under load (issue 36): 200 pages that take 300 ms to build, fresh for 2 s with a
 * long grace, read Zipf 0.99 by 32 keep-alive connections of a client that times every request
 * itself ({@link LoadDriver}: wrk's own percentiles overstate when it shares 2 cores with the
 * server). Rows: PageCache ({@code ttl=2s, grace=1h}) with its background rebuilds and without them
 * ({@code rebuild.background=0}, as before issue 36), nginx with {@code proxy_cache_background_update
 * on} and {@code proxy_cache_use_stale updating}, Varnish with a grace of 1 h, measured in
 * interleaved rounds in one run. Reported per row: the share of requests slower than 100 ms (a
 * build takes 300), p99, p99.9, max, and how the answers were labelled.
 */
final class ExpiringScenario {
  static final int PAGES = 200;
  static final int PAGE_BYTES = 8 * 1024;
  static final long BUILD_MILLIS = 300;
  static final int CLIENTS = 32;
  static final int ROUNDS = 3;
  static final double ZIPF_S = 0.99;

  private final BenchMemcached memcached;
  private final MacroBench.Settings settings;
  private final Path out;

  ExpiringScenario(BenchMemcached memcached, MacroBench.Settings settings, Path out) {
    this.memcached = memcached;
    this.settings = settings;
    this.out = out;
  }

  /** One row: a base URI whose path ends in the page number; the PageCache behind it, if any. */
  private record Way(String name, String base, PageCache cache) {}

  MacroBench.Section run() {
    BenchServlets.Pages pages = new BenchServlets.Pages(PAGES, PAGE_BYTES);
    ProxyScenario proxies = new ProxyScenario(memcached, settings, out, "expiring").readyPath("/expiring/0");
    Duration round = Duration.ofSeconds(Math.max(2, Math.min(15, settings.window().toSeconds() + 5)));
    try (JettyServer app = app(pages, memcached.node(0).address(), "expiring", "32");
        JettyServer foreground = app(pages, memcached.node(0).address(), "expiring0", "0")) {
      int nginxPort = ProxyScenario.freePort();
      int varnishPort = ProxyScenario.freePort();
      proxies.startNginx(app.port(), nginxPort,
          "      proxy_cache_use_stale updating error timeout;\n"
              + "      proxy_cache_background_update on;\n"
              + "      add_header X-Cache $upstream_cache_status always;\n");
      proxies.startVarnish(app.port(), varnishPort,
          "sub vcl_backend_response { set beresp.grace = 1h; }\n"
              + "sub vcl_deliver { if (obj.hits > 0) { set resp.http.X-Cache = \"HIT\"; } else { set resp.http.X-Cache = \"MISS\"; } }\n");
      List<Way> ways = List.of(
          new Way("PageCache (ttl=2s, grace=1h), rebuild.background=32 (the default)",
              "http://127.0.0.1:" + app.port() + "/cached/", PageCache.from(app.context().getServletContext())),
          new Way("PageCache, rebuild.background=0 (the lock's winner builds while its visitor waits)",
              "http://127.0.0.1:" + foreground.port() + "/cached/",
              PageCache.from(foreground.context().getServletContext())),
          new Way("nginx, proxy_cache_background_update on", "http://127.0.0.1:" + nginxPort + "/expiring/", null),
          new Way("Varnish, grace 1h", "http://127.0.0.1:" + varnishPort + "/expiring/", null));
      LoadDriver driver = new LoadDriver();
      Zipf zipf = new Zipf(PAGES, ZIPF_S);
      Map<String, List<LoadDriver.Result>> results = new LinkedHashMap<>();
      for (Way w : ways) {
        warm(driver, w); // every page stored once, so every later build is a rebuild of an expired page
        results.put(w.name, new ArrayList<>());
      }
      for (int r = 0; r < ROUNDS; r++) {
        for (Way w : ways) {
          LoadDriver.Result result = driver.run(w.name, CLIENTS, Long.MAX_VALUE, round,
              () -> URI.create(w.base + zipf.next()));
          results.get(w.name).add(result);
          MacroBench.progress(String.format(Locale.ROOT, "expiring round %d %s: %.0f req/s, %.3f %% > 100 ms, p99 %.1f ms",
              r + 1, w.name, result.rps(), 100.0 * result.slowerThan(100) / Math.max(1, result.requests()),
              result.millis(0.99)));
        }
      }
      return report(ways, results, round);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      proxies.stopProxies();
    }
  }

  private MacroBench.Section report(List<Way> ways, Map<String, List<LoadDriver.Result>> results, Duration round) {
    StringBuilder md = new StringBuilder();
    md.append(PAGES).append(" pages of ").append(PAGE_BYTES / 1024).append(" KB that take ").append(BUILD_MILLIS)
        .append(" ms to build, fresh for 2 s with a grace of 1 h; drawn Zipf ").append(ZIPF_S).append(" by ")
        .append(CLIENTS).append(" keep-alive connections of a client that times each request (LoadDriver, closed loop); ")
        .append(ROUNDS).append(" interleaved rounds of ").append(round.toSeconds())
        .append(" s per row, every page stored before the first round. Medians of the rounds; max over all.\n\n");
    Table t = new Table("served by", "req/s", "requests > 100 ms", "p99 ms", "p99.9 ms", "max ms", "answers (X-Cache)",
        "background rebuilds, skipped");
    List<String> summary = new ArrayList<>();
    Map<String, Double> p99s = new LinkedHashMap<>();
    for (Way w : ways) {
      List<LoadDriver.Result> rounds = results.get(w.name);
      LoadDriver.Result all = LoadDriver.Result.combine(w.name, rounds);
      double slowShare = LoadDriver.Result.median(rounds.stream().mapToDouble(r -> (double) r.slowerThan(100) / Math.max(1, r.requests())).toArray());
      double p99 = LoadDriver.Result.median(rounds.stream().mapToDouble(r -> r.millis(0.99)).toArray());
      double p999 = LoadDriver.Result.median(rounds.stream().mapToDouble(r -> r.millis(0.999)).toArray());
      double rps = LoadDriver.Result.median(rounds.stream().mapToDouble(LoadDriver.Result::rps).toArray());
      p99s.put(w.name, p99);
      t.row(w.name, num(rps, 0), Table.percent(slowShare, 3) + " (" + all.slowerThan(100) + " of " + all.requests() + ")",
          num(p99, 1), num(p999, 1), num(all.maxMillis(), 0), all.labelsText(), w.cache == null ? "–"
              : w.cache.stats("page").backgroundRebuilds() + ", " + w.cache.stats("page").backgroundSkipped());
      summary.add(String.format(Locale.ROOT, "expiring %s: %.3f %% > 100 ms, p99 %.1f ms, p99.9 %.1f ms, max %.0f ms",
          w.name, 100 * slowShare, p99, p999, all.maxMillis()));
    }
    md.append(t).append('\n');
    double varnish = p99s.get(ways.get(3).name);
    double pagecache = p99s.get(ways.get(0).name);
    md.append(String.format(Locale.ROOT, "PageCache's p99 is %.2f × Varnish's in this run (goal: at most 2).%n", pagecache / varnish));
    summary.add(String.format(Locale.ROOT, "expiring: PageCache p99 %.2f x Varnish's", pagecache / varnish));
    return new MacroBench.Section("expiring", md.toString(), summary);
  }

  /** Every page requested once, 25 at a time (200 builds of 300 ms take about 2.4 s). */
  private static void warm(LoadDriver driver, Way w) {
    java.util.concurrent.atomic.AtomicInteger next = new java.util.concurrent.atomic.AtomicInteger();
    driver.run(w.name + "-warm", 25, PAGES, Duration.ofSeconds(60), () -> URI.create(w.base + (next.getAndIncrement() % PAGES)));
  }

  /** PageCache in front of the 300 ms backend, and the origin the proxies keep (max-age=2). */
  private static JettyServer app(BenchServlets.Pages pages, String servers, String namespace, String background) {
    PageCacheConfig config = PageCacheConfig.builder().ignoreEnvironment()
        .set("memcached.servers", servers)
        .set("namespace", namespace)
        .set("rebuild.background", background)
        .set("header", "X-Cache")
        .set("policies", "page: ttl=2s, grace=1h")
        .build();
    PageCacheFilter filter = new PageCacheFilter(config);
    return JettyServer.start(ctx -> {
      ctx.addFilter(new FilterHolder(filter), "/cached/*", EnumSet.of(DispatcherType.REQUEST));
      JettyServer.servlet(ctx, "page", new BenchServlets.Backend(pages, BUILD_MILLIS), "/cached/*");
      JettyServer.servlet(ctx, "expiring", new BenchServlets.Origin(pages, BUILD_MILLIS, 2), "/expiring/*");
    });
  }
}
