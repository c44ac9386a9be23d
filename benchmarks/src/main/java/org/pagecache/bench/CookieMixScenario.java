package org.pagecache.bench;

import static org.pagecache.bench.Table.num;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Safe by default, at what price: the hit ratio of the default configuration (a request with a
 * cookie not on the ignore list bypasses) on a realistic mix of visitors, and what the request
 * checks (cookie names against the ignore list, the forwarded headers keyed) cost a hit, measured
 * side by side with hits that carry no cookie at all.
 *
 * <p>The mix, per request: 55 % carry analytics cookies only ({@code _ga}, {@code _gid},
 * {@code _fbp}); 20 % those and a consent manager's record ({@code OptanonConsent}); 5 % those and
 * a load balancer's stickiness cookie ({@code AWSALB}); 15 % no cookie (first visits, bots,
 * privacy browsers); 5 % are signed in (a session cookie, which bypasses: the site's policy says
 * {@code sessions=off}, as the visitor stands for a signed-in user whom the load driver cannot sign in).
 */
final class CookieMixScenario {
  private static final String ANALYTICS = "_ga=GA1.1.%d.1732300000; _gid=GA1.1.%d.1732300000; _fbp=fb.1.1732300000.%d";

  private final BenchMemcached memcached;
  private final MacroBench.Settings settings;
  private final Zipf zipf = new Zipf(ThroughputScenario.PAGES, 1.0);

  CookieMixScenario(BenchMemcached memcached, MacroBench.Settings settings) {
    this.memcached = memcached;
    this.settings = settings;
  }

  /** The headers of one request of the mix. */
  static String[] visitor() {
    ThreadLocalRandom r = ThreadLocalRandom.current();
    int id = r.nextInt(1_000_000);
    String analytics = String.format(ANALYTICS, id, id + 1, id + 2);
    int p = r.nextInt(100);
    String cookie;
    if (p < 55) {
      cookie = analytics;
    } else if (p < 75) {
      cookie = analytics + "; OptanonConsent=isGpcEnabled=0&datestamp=" + id + "; OptanonAlertBoxClosed=2026-11-01";
    } else if (p < 80) {
      cookie = analytics + "; AWSALB=" + Integer.toHexString(id) + "; AWSALBCORS=" + Integer.toHexString(id);
    } else if (p < 95) {
      cookie = null;
    } else {
      cookie = analytics + "; JSESSIONID=node0" + Integer.toHexString(id);
    }
    return cookie == null ? new String[] {"Accept-Encoding", "gzip"}
        : new String[] {"Accept-Encoding", "gzip", "Cookie", cookie};
  }

  MacroBench.Section run() {
    MacroBench.progress("cookies: hit ratio of the default configuration on a realistic cookie mix");
    BenchServlets.Pages pages = new BenchServlets.Pages(ThroughputScenario.PAGES, ThroughputScenario.PAGE_BYTES);
    try (BenchSite site = new BenchSite(memcached.node(0).address(), "cky", "ttl=10m, grace=10m, sessions=off", pages,
        ThroughputScenario.COST_MILLIS)) {
      LoadDriver plain = new LoadDriver("Accept-Encoding", "gzip");
      LoadDriver mix = new LoadDriver(CookieMixScenario::visitor);
      LoadDriver cookiesOnly = new LoadDriver("Accept-Encoding", "gzip", "Cookie",
          String.format(ANALYTICS, 1, 2, 3) + "; OptanonConsent=isGpcEnabled=0; AWSALB=abc", "X-Forwarded-Proto", "https");
      long filled = site.fill(plain);
      site.fill(cookiesOnly); // its X-Forwarded-Proto makes entries of their own
      mix.run("warm-up", settings.concurrency(), settings.maxRequests(), settings.warmUp(),
          () -> site.uri("cached", zipf.next()));

      long trips = site.cache.store().roundTrips();
      LoadDriver.Result m = mix.run("the mix, default configuration", settings.concurrency(), settings.maxRequests(),
          settings.window(), () -> site.uri("cached", zipf.next()));
      long mixTrips = site.cache.store().roundTrips() - trips;
      List<LoadDriver.Result> side = new ArrayList<>();
      for (int round = 0; round < ThroughputScenario.ROUNDS; round++) {
        side.add(plain.run("hits without cookies", settings.concurrency(), settings.maxRequests(),
            settings.window().dividedBy(ThroughputScenario.ROUNDS * 2), () -> site.uri("cached", zipf.next())));
        side.add(cookiesOnly.run("hits with 6 ignored cookies and X-Forwarded-Proto", settings.concurrency(),
            settings.maxRequests(), settings.window().dividedBy(ThroughputScenario.ROUNDS * 2),
            () -> site.uri("cached", zipf.next())));
      }
      LoadDriver.Result noCookies = LoadDriver.Result.combine("hits without cookies",
          side.stream().filter(r -> r.name().startsWith("hits without")).toList());
      LoadDriver.Result withCookies = LoadDriver.Result.combine("hits with 6 ignored cookies and X-Forwarded-Proto",
          side.stream().filter(r -> r.name().startsWith("hits with ")).toList());

      long hits = m.label("HIT");
      double ratio = hits / (double) m.requests();
      Table t = new Table("load", "requests", "req/s", "p50 ms", "p99 ms", "X-Cache", "errors", "hit ratio");
      for (LoadDriver.Result r : List.of(m, noCookies, withCookies)) {
        t.row(r.name(), r.requests(), num(r.rps(), 0), num(r.millis(0.5), 2), num(r.millis(0.99), 2),
            ThroughputScenario.labels(r), r.errors() + r.serverErrors(), num(r.label("HIT") / (double) r.requests(), 3));
      }
      String markdown = "Load: " + settings.concurrency() + " clients, the " + ThroughputScenario.PAGES
          + " Zipf-popular pages of the throughput run behind the **default** configuration (no `cookies=` in the"
          + " policy: a cookie not on the ignore list bypasses). The mix: 55 % of requests carry analytics cookies"
          + " (`_ga`, `_gid`, `_fbp`), 20 % also a consent record (`OptanonConsent`), 5 % also a load balancer's"
          + " `AWSALB`, 15 % no cookie, 5 % a session cookie (signed in: bypass). Every page was cached first ("
          + filled + " of " + ThroughputScenario.PAGES + " answered HIT).\n\n" + t
          + "\n**Hit ratio on the mix: " + num(ratio, 3) + "** (the signed-in 5 % bypass by design; without the"
          + " ignore list every request with a cookie would bypass, leaving the 15 % without one). memcached round"
          + " trips per hit on the mix: " + num(mixTrips / (double) Math.max(1, hits), 3) + " (bypasses make none)."
          + " Cost of the checks on a hit: hits carrying six ignored cookies and a keyed `X-Forwarded-Proto` serve "
          + num(withCookies.rps() / noCookies.rps(), 2) + " times the requests per second of hits without (measured"
          + " interleaved, " + ThroughputScenario.ROUNDS + " slices each).\n";
      List<String> summary = List.of(
          String.format("cookie mix: hit ratio %.3f, round trips per hit %.3f", ratio, mixTrips / (double) Math.max(1, hits)),
          ThroughputScenario.line(noCookies), ThroughputScenario.line(withCookies));
      return new MacroBench.Section("cookies", markdown, summary);
    }
  }
}
