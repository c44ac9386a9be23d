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
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.pagecache.PageCache;
import org.pagecache.PageCacheConfig;
import org.pagecache.PageCacheFilter;
import org.pagecache.testing.JettyServer;

/**
 * Junk query parameters (issue 47): 200 pages that take 300 ms to build and never expire in the run,
 * read Zipf 0.99 by 32 keep-alive connections of a client that times every request ({@link
 * LoadDriver}); one request in five carries one parameter no page reads, its name drawn from cache
 * busters ({@code _}, {@code cb}, {@code v}, {@code rnd}, {@code nocache}) and seven ad platforms'
 * click ids, its value random. Rows, in interleaved rounds of one run: PageCache with
 * {@code params.key=read} (the README's recommendation), the same without junk (the p99 to compare
 * with), PageCache with the default {@code params.key=all}, nginx {@code proxy_cache} and Varnish
 * with their default keys. Reported: the share of requests slower than 100 ms (those the backend
 * answered), p99, and the answers' labels.
 */
final class JunkParamsScenario {
  static final int PAGES = 200;
  static final int PAGE_BYTES = 8 * 1024;
  static final long BUILD_MILLIS = 300;
  static final int CLIENTS = 32;
  static final int ROUNDS = 3;
  static final double ZIPF_S = 0.99;
  static final double JUNK_SHARE = 0.2;
  /**
   * Cache busters, then seven ad platforms' click ids: Google's, Meta's, Microsoft's and TikTok's are on
   * the built-in tracking list, Pinterest's ({@code epik}), Snapchat's ({@code ScCid}) and Quora's
   * ({@code qclid}) are not (as in issue 47's measurement, where the list caught some of them).
   */
  static final List<String> JUNK_NAMES = List.of("_", "cb", "v", "rnd", "nocache", "gclid", "fbclid", "msclkid",
      "ttclid", "epik", "ScCid", "qclid");

  private final BenchMemcached memcached;
  private final MacroBench.Settings settings;
  private final Path out;

  JunkParamsScenario(BenchMemcached memcached, MacroBench.Settings settings, Path out) {
    this.memcached = memcached;
    this.settings = settings;
    this.out = out;
  }

  /** One row: a base URI whose path ends in the page number; whether requests carry junk; the PageCache behind it. */
  private record Way(String name, String base, boolean junk, PageCache cache) {}

  MacroBench.Section run() {
    BenchServlets.Pages pages = new BenchServlets.Pages(PAGES, PAGE_BYTES);
    ProxyScenario proxies = new ProxyScenario(memcached, settings, out, "junkparams").readyPath("/origin/0");
    Duration round = Duration.ofSeconds(Math.max(2, Math.min(15, settings.window().toSeconds() + 5)));
    try (JettyServer read = app(pages, memcached.node(0).address(), "junkread", "read");
        JettyServer all = app(pages, memcached.node(0).address(), "junkall", "all")) {
      int nginxPort = ProxyScenario.freePort();
      int varnishPort = ProxyScenario.freePort();
      proxies.startNginx(all.port(), nginxPort, "      add_header X-Cache $upstream_cache_status always;\n");
      proxies.startVarnish(all.port(), varnishPort,
          "sub vcl_deliver { if (obj.hits > 0) { set resp.http.X-Cache = \"HIT\"; } else { set resp.http.X-Cache = \"MISS\"; } }\n");
      PageCache readCache = PageCache.from(read.context().getServletContext());
      List<Way> ways = List.of(
          new Way("PageCache, params.key=read (recommended)", "http://127.0.0.1:" + read.port() + "/cached/", true,
              readCache),
          new Way("PageCache, params.key=read, no junk parameters", "http://127.0.0.1:" + read.port() + "/cached/",
              false, readCache),
          new Way("PageCache, params.key=all (the default)", "http://127.0.0.1:" + all.port() + "/cached/", true,
              PageCache.from(all.context().getServletContext())),
          new Way("nginx proxy_cache (key $scheme$proxy_host$request_uri)", "http://127.0.0.1:" + nginxPort + "/origin/",
              true, null),
          new Way("Varnish (default hash: URL and Host)", "http://127.0.0.1:" + varnishPort + "/origin/", true, null));
      LoadDriver driver = new LoadDriver();
      Zipf zipf = new Zipf(PAGES, ZIPF_S);
      Map<String, List<LoadDriver.Result>> results = new LinkedHashMap<>();
      for (Way w : ways) {
        warm(driver, w); // every page stored once without junk: what the rounds measure is the junk alone
        results.put(w.name, new ArrayList<>());
      }
      for (int r = 0; r < ROUNDS; r++) {
        for (Way w : ways) {
          LoadDriver.Result result = driver.run(w.name, CLIENTS, Long.MAX_VALUE, round,
              () -> URI.create(w.base + zipf.next() + (w.junk ? junk() : "")));
          results.get(w.name).add(result);
          MacroBench.progress(String.format(Locale.ROOT, "junkparams round %d %s: %.0f req/s, %.3f %% > 100 ms, p99 %.1f ms",
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

  /** One request in five: {@code ?NAME=VALUE}, a junk name and a random value; else nothing. */
  private static String junk() {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    if (random.nextDouble() >= JUNK_SHARE) {
      return "";
    }
    return "?" + JUNK_NAMES.get(random.nextInt(JUNK_NAMES.size())) + "=" + Long.toHexString(random.nextLong());
  }

  private MacroBench.Section report(List<Way> ways, Map<String, List<LoadDriver.Result>> results, Duration round) {
    StringBuilder md = new StringBuilder();
    md.append(PAGES).append(" pages of ").append(PAGE_BYTES / 1024).append(" KB that take ").append(BUILD_MILLIS)
        .append(" ms to build and never expire in the run; drawn Zipf ").append(ZIPF_S).append(" by ").append(CLIENTS)
        .append(" keep-alive connections of a client that times each request (LoadDriver, closed loop); one request in ")
        .append(Math.round(1 / JUNK_SHARE)).append(" carries one parameter no page reads (").append(String.join(", ", JUNK_NAMES))
        .append("; random values); ").append(ROUNDS).append(" interleaved rounds of ").append(round.toSeconds())
        .append(" s per row, every page stored before the first round. Medians of the rounds; max over all.\n\n");
    Table t = new Table("served by", "req/s", "requests > 100 ms (reached the backend)", "p99 ms", "p99.9 ms", "max ms",
        "answers (X-Cache)");
    List<String> summary = new ArrayList<>();
    Map<String, Double> p99s = new LinkedHashMap<>();
    for (Way w : ways) {
      List<LoadDriver.Result> rounds = results.get(w.name);
      LoadDriver.Result combined = LoadDriver.Result.combine(w.name, rounds);
      double slowShare = LoadDriver.Result.median(rounds.stream().mapToDouble(r -> (double) r.slowerThan(100) / Math.max(1, r.requests())).toArray());
      double p99 = LoadDriver.Result.median(rounds.stream().mapToDouble(r -> r.millis(0.99)).toArray());
      double p999 = LoadDriver.Result.median(rounds.stream().mapToDouble(r -> r.millis(0.999)).toArray());
      double rps = LoadDriver.Result.median(rounds.stream().mapToDouble(LoadDriver.Result::rps).toArray());
      p99s.put(w.name, p99);
      t.row(w.name, num(rps, 0), Table.percent(slowShare, 3) + " (" + combined.slowerThan(100) + " of "
          + combined.requests() + ")", num(p99, 1), num(p999, 1), num(combined.maxMillis(), 0), combined.labelsText());
      summary.add(String.format(Locale.ROOT, "junkparams %s: %.3f %% > 100 ms, p99 %.1f ms, p99.9 %.1f ms, max %.0f ms",
          w.name, 100 * slowShare, p99, p999, combined.maxMillis()));
    }
    md.append(t).append('\n');
    double withJunk = p99s.get(ways.get(0).name);
    double without = p99s.get(ways.get(1).name);
    md.append(String.format(Locale.ROOT, "With params.key=read, p99 with junk parameters is %.2f × p99 without them"
        + " in this run (goal: at most 2); the handler's record: %s, %d requests carried parameters left out.%n",
        withJunk / without, ways.get(0).cache.stats("page").keyedOn(), ways.get(0).cache.stats("page").parametersLeftOut()));
    summary.add(String.format(Locale.ROOT, "junkparams: params.key=read p99 %.2f x without junk", withJunk / without));
    return new MacroBench.Section("junkparams", md.toString(), summary);
  }

  /** Every page requested once, 25 at a time. */
  private static void warm(LoadDriver driver, Way w) {
    AtomicInteger next = new AtomicInteger();
    driver.run(w.name + "-warm", 25, PAGES, Duration.ofSeconds(60), () -> URI.create(w.base + (next.getAndIncrement() % PAGES)));
  }

  /** PageCache in front of the 300 ms backend (ttl 1 h), and the origin the proxies keep (max-age=3600). */
  private static JettyServer app(BenchServlets.Pages pages, String servers, String namespace, String paramsKey) {
    PageCacheConfig config = PageCacheConfig.builder().ignoreEnvironment()
        .set("memcached.servers", servers)
        .set("namespace", namespace)
        .set("header", "X-Cache")
        .set("params.key", paramsKey)
        .set("policies", "page: ttl=1h")
        .build();
    PageCacheFilter filter = new PageCacheFilter(config);
    return JettyServer.start(ctx -> {
      ctx.addFilter(new FilterHolder(filter), "/cached/*", EnumSet.of(DispatcherType.REQUEST));
      JettyServer.servlet(ctx, "page", new BenchServlets.Backend(pages, BUILD_MILLIS), "/cached/*");
      JettyServer.servlet(ctx, "origin", new BenchServlets.Origin(pages, BUILD_MILLIS, 3600), "/origin/*");
    });
  }
}
