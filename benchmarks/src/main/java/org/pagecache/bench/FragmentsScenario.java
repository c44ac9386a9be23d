package org.pagecache.bench;

import static org.pagecache.bench.Table.num;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.Principal;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.pagecache.PageCache;
import org.pagecache.PageCacheConfig;
import org.pagecache.PageCacheFilter;
import org.pagecache.testing.JettyServer;

/**
 * Signed-in visitors served from the cache (issue 30, docs/fragments.md): what two fragments cost a
 * hit, and a signed-in mix against the same mix passed through to the backend.
 *
 * <p>The site: the throughput run's 200 pages of 20 KB at 50 ms of backend work, under four
 * handlers: {@code /plain/} (no fragment), {@code /frag/} (the same page with a greeting and a cart
 * fragment in it, {@code signed-in=roles:member}), {@code /pass/} (the same, {@code signed-in=bypass}:
 * signed-in visitors go to the backend, as before fragments). The load driver cannot sign in, so a
 * filter before the cache makes a request with {@code X-Bench-User: NAME} that user's principal with
 * the role {@code member}, as a security filter does from a session (the request carries a session
 * cookie too, as a signed-in visitor's does: under {@code signed-in=bypass} that is what sends them past). The greeting renders the name,
 * the cart a count from a map: the renderers an application would write, without their I/O.
 */
final class FragmentsScenario {
  private static final String USER_HEADER = "X-Bench-User";
  private static final int USERS = 1000;

  private final BenchMemcached memcached;
  private final MacroBench.Settings settings;
  private final Zipf zipf = new Zipf(ThroughputScenario.PAGES, 1.0);

  FragmentsScenario(BenchMemcached memcached, MacroBench.Settings settings) {
    this.memcached = memcached;
    this.settings = settings;
  }

  /** Signs a request in from its header: the principal and the member role. */
  private static Filter security() {
    return (request, response, chain) -> {
      String user = ((HttpServletRequest) request).getHeader(USER_HEADER);
      chain.doFilter(user == null ? request : new HttpServletRequestWrapper((HttpServletRequest) request) {
        private final Principal principal = () -> user;

        @Override
        public Principal getUserPrincipal() {
          return principal;
        }

        @Override
        public String getRemoteUser() {
          return user;
        }

        @Override
        public boolean isUserInRole(String role) {
          return "member".equals(role);
        }
      }, response);
    };
  }

  /** The throughput pages, with two placeholders in the header when {@code fragments}. */
  private static final class Page extends HttpServlet {
    private final java.util.concurrent.atomic.AtomicLong calls = new java.util.concurrent.atomic.AtomicLong();
    private final byte[][] bodies;
    private final long costMillis;

    Page(BenchServlets.Pages pages, boolean fragments, long costMillis) {
      this.costMillis = costMillis;
      bodies = new byte[pages.count()][];
      for (int i = 0; i < pages.count(); i++) {
        String html = new String(pages.identity[i], StandardCharsets.UTF_8);
        bodies[i] = (fragments ? html.replaceFirst("<body>", "<body><header>" + PageCache.fragment("greeting")
            + " · cart: " + PageCache.fragment("cart") + "</header>") : html).getBytes(StandardCharsets.UTF_8);
      }
    }

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException {
      BenchServlets.pay(calls, costMillis);
      String uri = req.getRequestURI();
      byte[] body = bodies[Math.floorMod(Integer.parseInt(uri.substring(uri.lastIndexOf('/') + 1)), bodies.length)];
      res.setContentType("text/html;charset=UTF-8");
      res.setContentLength(body.length);
      res.getOutputStream().write(body);
    }
  }

  /** Half the requests of a member (one of 1000), half anonymous. */
  private static String[] mixedVisitor() {
    ThreadLocalRandom r = ThreadLocalRandom.current();
    return r.nextBoolean() ? member(r.nextInt(USERS)) : new String[] {"Accept-Encoding", "gzip"};
  }

  /** A member's request: the header that signs them in and the session cookie a signed-in visitor carries. */
  private static String[] member(int user) {
    return new String[] {"Accept-Encoding", "gzip", USER_HEADER, "u" + user, "Cookie", "JSESSIONID=member" + user};
  }

  MacroBench.Section run() {
    MacroBench.progress("fragments: a hit with two fragments against a plain hit; a signed-in mix against pass-through");
    BenchServlets.Pages pages = new BenchServlets.Pages(ThroughputScenario.PAGES, ThroughputScenario.PAGE_BYTES);
    long cost = ThroughputScenario.COST_MILLIS;
    PageCacheConfig config = PageCacheConfig.builder().ignoreEnvironment()
        .set("memcached.servers", memcached.node(0).address())
        .set("namespace", "frg")
        .set("policies", "plain: ttl=10m, grace=10m; frag: ttl=10m, grace=10m, signed-in=roles:member;"
            + " pass: ttl=10m, grace=10m")
        .build();
    PageCacheFilter filter = new PageCacheFilter(config);
    JettyServer jetty = JettyServer.start(ctx -> {
      ctx.addFilter(new FilterHolder(security()), "/*", EnumSet.of(DispatcherType.REQUEST));
      ctx.addFilter(new FilterHolder(filter), "/*", EnumSet.of(DispatcherType.REQUEST));
      JettyServer.servlet(ctx, "plain", new Page(pages, false, cost), "/plain/*");
      JettyServer.servlet(ctx, "frag", new Page(pages, true, cost), "/frag/*");
      JettyServer.servlet(ctx, "pass", new Page(pages, true, cost), "/pass/*");
    });
    try {
      PageCache cache = PageCache.from(jetty.context().getServletContext());
      cache.fragment("greeting", req -> req.getUserPrincipal() == null ? "<a href=/signin>Sign in</a>"
          : "Signed in as " + req.getUserPrincipal().getName());
      java.util.concurrent.ConcurrentHashMap<String, Integer> carts = new java.util.concurrent.ConcurrentHashMap<>();
      cache.fragment("cart", req -> req.getRemoteUser() == null ? "0"
          : Integer.toString(carts.computeIfAbsent(req.getRemoteUser(), u -> u.hashCode() & 7)));

      LoadDriver anonymous = new LoadDriver("Accept-Encoding", "gzip");
      LoadDriver member = new LoadDriver(() -> member(ThreadLocalRandom.current().nextInt(USERS)));
      LoadDriver mix = new LoadDriver(FragmentsScenario::mixedVisitor);
      for (int i = 0; i < ThroughputScenario.PAGES; i++) { // every page cached first, for both groups
        for (int pass = 0; pass < 2; pass++) {
          anonymous.run("fill", 1, 1, java.time.Duration.ofSeconds(10), uri(jetty, "plain", i));
          anonymous.run("fill", 1, 1, java.time.Duration.ofSeconds(10), uri(jetty, "frag", i));
          member.run("fill", 1, 1, java.time.Duration.ofSeconds(10), uri(jetty, "frag", i));
          anonymous.run("fill", 1, 1, java.time.Duration.ofSeconds(10), uri(jetty, "pass", i));
        }
      }
      anonymous.run("warm-up", settings.concurrency(), settings.maxRequests(), settings.warmUp(),
          () -> jetty.uri("/plain/" + zipf.next()));
      member.run("warm-up", settings.concurrency(), settings.maxRequests(), settings.warmUp(),
          () -> jetty.uri("/frag/" + zipf.next()));

      List<LoadDriver.Result> slices = new ArrayList<>();
      int rounds = ThroughputScenario.ROUNDS * 2;
      for (int round = 0; round < rounds; round++) { // interleaved, so a neighbour's load hits both alike
        slices.add(anonymous.run("plain hit (anonymous, no fragment)", settings.concurrency(), settings.maxRequests(),
            settings.window().dividedBy(rounds), () -> jetty.uri("/plain/" + zipf.next())));
        slices.add(member.run("hit with two fragments (a member)", settings.concurrency(), settings.maxRequests(),
            settings.window().dividedBy(rounds), () -> jetty.uri("/frag/" + zipf.next())));
        slices.add(anonymous.run("the same page, anonymous", settings.concurrency(), settings.maxRequests(),
            settings.window().dividedBy(rounds), () -> jetty.uri("/frag/" + zipf.next())));
      }
      LoadDriver.Result plain = LoadDriver.Result.combine("plain hit (anonymous, no fragment)",
          slices.stream().filter(r -> r.name().startsWith("plain")).toList());
      LoadDriver.Result fragments = LoadDriver.Result.combine("hit with two fragments (a member)",
          slices.stream().filter(r -> r.name().startsWith("hit with")).toList());
      LoadDriver.Result anonymousFragments = LoadDriver.Result.combine("the same page, anonymous (its 2 fragments filled in)",
          slices.stream().filter(r -> r.name().startsWith("the same")).toList());

      LoadDriver.Result served = mix.run("mix: half members, signed-in=roles:member", settings.concurrency(),
          settings.maxRequests(), settings.window().dividedBy(2), () -> jetty.uri("/frag/" + zipf.next()));
      LoadDriver.Result passed = mix.run("mix: half members, signed-in=bypass", settings.concurrency(),
          settings.maxRequests(), settings.window().dividedBy(2), () -> jetty.uri("/pass/" + zipf.next()));

      double p50Ratio = fragments.millis(0.5) / plain.millis(0.5);
      Table t = new Table("load", "requests", "req/s", "p50 ms", "p99 ms", "bytes/answer", "X-Cache", "errors",
          "hit ratio");
      for (LoadDriver.Result r : List.of(plain, fragments, anonymousFragments, served, passed)) {
        t.row(r.name(), r.requests(), num(r.rps(), 0), num(r.millis(0.5), 2), num(r.millis(0.99), 2),
            bytesPerAnswer(r), ThroughputScenario.labels(r), r.errors() + r.serverErrors(),
            num(r.label("HIT") / (double) r.requests(), 3));
      }
      var frag = cache.stats("frag");
      String markdown = "Load: " + settings.concurrency() + " clients, the throughput run's " + ThroughputScenario.PAGES
          + " Zipf-popular pages of " + ThroughputScenario.PAGE_BYTES / 1024 + " KB (" + cost + " ms of backend work"
          + " per build) on one memcached. Members are 1000 users signed in by a filter before the cache (a header"
          + " stands for their session); their pages are keyed on the role (`signed-in=roles:member`) and carry two"
          + " fragments, a greeting and a cart count, filled in on every serve. The plain and the fragment hits are"
          + " measured interleaved (" + rounds + " slices each); the two mixes (half the requests a member's, half"
          + " anonymous) one after the other. **This machine's 2 cores are shared with other work running at the same"
          + " time: compare the rows of one run with each other, not with other runs.**\n\n" + t
          + "\n**A hit with two fragments: p50 " + num(p50Ratio, 2) + " × a plain hit's** (goal ≤ 1.5). Requests per"
          + " second: " + num(fragments.rps() / plain.rps(), 2) + " × a plain hit's. The same page for anonymous"
          + " visitors (fragments filled in, no sign-in, no session cookie): p50 "
          + num(anonymousFragments.millis(0.5) / plain.millis(0.5), 2) + " × a plain hit's. Every client here takes"
          + " gzip: a page with fragments is sent as one gzip member made of its static text deflated once and the"
          + " parts filled in (docs/fragments.md), " + bytesPerAnswer(fragments) + " bytes an answer against "
          + bytesPerAnswer(plain) + " for the plain hit's stored gzip body (the page is "
          + ThroughputScenario.PAGE_BYTES / 1024 + " KB identity). The signed-in mix served from the"
          + " cache: " + num(served.rps() / passed.rps(), 1) + " × the requests per second of the same mix passed"
          + " through, p50 " + num(served.millis(0.5), 2) + " ms against " + num(passed.millis(0.5), 2) + " ms."
          + " Renderers: " + frag.fragments() + " fragments filled in, " + num(frag.fragmentNanos() / 1000.0
          / Math.max(1, frag.fragments()), 2) + " µs each on average, " + frag.fragmentFailures() + " empty.\n";
      List<String> summary = List.of(
          String.format("fragments: p50 %.2f x a plain hit (goal <= 1.5); signed-in mix %.1f x the req/s of pass-through",
              p50Ratio, served.rps() / passed.rps()),
          ThroughputScenario.line(plain), ThroughputScenario.line(fragments), ThroughputScenario.line(anonymousFragments),
          ThroughputScenario.line(served),
          ThroughputScenario.line(passed));
      return new MacroBench.Section("fragments", markdown, summary);
    } finally {
      jetty.close();
    }
  }

  /** The mean body bytes of an answer, as sent (gzip when gzipped). */
  private static long bytesPerAnswer(LoadDriver.Result r) {
    return r.requests() == 0 ? 0 : r.bodyBytes() / r.requests();
  }

  private static java.util.function.Supplier<java.net.URI> uri(JettyServer jetty, String kind, int page) {
    return () -> jetty.uri("/" + kind + "/" + page);
  }
}
