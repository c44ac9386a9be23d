package org.pagecache.bench;

import static org.pagecache.bench.Table.num;

import jakarta.servlet.DispatcherType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.pagecache.PageCache;
import org.pagecache.PageCacheFilter;
import org.pagecache.store.MemcachedStore;
import org.pagecache.testing.JettyServer;

/**
 * A hit beyond the near cache against one memcached {@code get} (issue 38): every request of
 * PageCache's row is answered from memcached ({@code near.size=0}), next to a servlet of the same
 * Jetty that answers each request with one xmemcached {@code get} of the bytes the client takes
 * (the plain page, or its gzip for a client that takes gzip: {@link BenchServlets.OneGet}), through
 * the same client and one connection, and the limit (the same bytes from memory). Uniform over
 * {@value #PAGES} pages of 8 KB, so nothing is hot; wrk 2 threads, 64 connections; clients without
 * gzip, then clients with gzip; rows interleaved, the median of the rounds. The difference between
 * PageCache and one {@code get} is what PageCache adds to a hit.
 *
 * <pre>
 *   scripts/bench.sh memhit
 *   java -Dmemhit.rows=pagecache -cp ... org.pagecache.bench.MacroBench target/bench 32 10 memhit   # one row, e.g. to profile it
 * </pre>
 */
final class MemcachedHitScenario {
  static final int PAGES = Integer.getInteger("memhit.pages", 20_000);
  static final int PAGE_BYTES = 8 * 1024;
  static final int ROUNDS = Integer.getInteger("memhit.rounds", 3);
  static final Duration ROUND = Duration.ofSeconds(Integer.getInteger("memhit.seconds", 6));
  /** Only these rows (limit, oneget, pagecache, builds), for profiling one of them; all when unset. */
  private static final Set<String> ROWS =
      Set.of(System.getProperty("memhit.rows", "limit,oneget,pagecache,builds").split(","));

  private final MacroBench.Settings settings;
  private final Path out;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  MemcachedHitScenario(MacroBench.Settings settings, Path out) {
    this.settings = settings;
    this.out = out;
  }

  private record Way(String id, String name, String base, PageCache cache) {}

  MacroBench.Section run() {
    BenchServlets.Pages pages = new BenchServlets.Pages(PAGES, PAGE_BYTES);
    try (BenchMemcached memcached = new BenchMemcached(1, 512)) {
      ProxyScenario wrk = new ProxyScenario(memcached, settings, out, "memhit");
      Path dir = out.resolve("memhit").toAbsolutePath();
      Files.createDirectories(dir);
      Path plain = WrkRounds.script(dir, "uniform.lua", uniformLua(false));
      Path gzip = WrkRounds.script(dir, "uniform-gzip.lua", uniformLua(true));
      String servers = memcached.node(0).address();
      PageCacheFilter filter = new PageCacheFilter(LongTailScenario.settings(servers, "mh").set("near.size", "0").build());
      // Builds: pages never seen, at URLs of their own (the filters of one context share the first one's cache).
      PageCacheFilter fresh = new PageCacheFilter(LongTailScenario.settings(servers, "mhb").build());
      try (MemcachedStore oneGetStore = new MemcachedStore(MemcachedStore.Settings.defaults(servers));
          JettyServer app = JettyServer.start(ctx -> {
            ctx.addFilter(new FilterHolder(filter), "/cached/*", EnumSet.of(DispatcherType.REQUEST));
            ctx.addFilter(new FilterHolder(fresh), "/fresh/*", EnumSet.of(DispatcherType.REQUEST));
            JettyServer.servlet(ctx, "page", new BenchServlets.Backend(pages, 0), "/cached/*", "/fresh/*");
            JettyServer.servlet(ctx, "limit", new BenchServlets.FromMemory(pages), "/limit/*");
            BenchServlets.OneGet oneGet = new BenchServlets.OneGet(pages, oneGetStore, "mh-og:", true);
            oneGet.load();
            JettyServer.servlet(ctx, "oneget", oneGet, "/oneget/*");
          })) {
        String local = "http://127.0.0.1:" + app.port();
        List<Way> ways = new ArrayList<>();
        for (Way w : List.of(
            new Way("limit", "limit: the same bytes from memory (servlet)", local + "/limit/", null),
            new Way("oneget", "one memcached get per request of the bytes the client takes (servlet)", local + "/oneget/",
                null),
            new Way("pagecache", "PageCache, every hit from memcached (near.size=0)", local + "/cached/",
                filter.pageCache()))) {
          if (ROWS.contains(w.id)) {
            ways.add(w);
          }
        }
        for (int pass = 0; pass < 2; pass++) {
          for (int i = 0; i < PAGES; i++) { // every page built and stored, then its identity copy made
            get(local + "/cached/" + i);
          }
        }
        StringBuilder md = new StringBuilder();
        List<String> summary = new ArrayList<>();
        md.append(PAGES).append(" pages of ").append(PAGE_BYTES / 1024).append(" KB (about ")
            .append(pages.gzip[0].length / 1024).append(" KB gzipped), every one stored first, then read once by a client without gzip (which makes its")
            .append(" identity copy); requests drawn")
            .append(" uniformly; wrk ").append(ProxyScenario.THREADS).append(" threads, ")
            .append(ProxyScenario.CONNECTIONS).append(" connections; each row the median of ").append(ROUNDS)
            .append(" interleaved rounds of ").append(ROUND.toSeconds()).append(" s; memcached on loopback, one")
            .append(" connection from each client (PageCache's default).\n\n");
        Table t = new Table("clients", "served by", "req/s (median)", "rounds", "p50 ms", "p99 ms", "vs limit",
            "vs one get", "JVM CPU µs per request", "memcached round trips per request");
        for (Path script : List.of(plain, gzip)) {
          String clients = script == plain ? "without gzip" : "with gzip";
          for (Way w : ways) {
            WrkRounds.run(wrk, w.base, script, Duration.ofSeconds(2)); // warm-up of the JIT and connections
          }
          Map<String, List<double[]>> rounds = new LinkedHashMap<>();
          Map<String, long[]> trips = new LinkedHashMap<>();
          for (int r = 0; r < ROUNDS; r++) {
            for (Way w : ways) {
              long before = w.cache != null ? w.cache.store().roundTrips() : 0;
              long cpuBefore = cpuNanos();
              String o = WrkRounds.run(wrk, w.base, script, ROUND);
              long cpu = cpuNanos() - cpuBefore;
              long requests = Long.parseLong(ProxyScenario.first(o, "(\\d+) requests in"));
              rounds.computeIfAbsent(w.id, k -> new ArrayList<>())
                  .add(new double[] {WrkRounds.rps(o), ProxyScenario.latency(o, "50%"), ProxyScenario.latency(o, "99%"),
                      cpu / 1000.0 / requests});
              long[] tr = trips.computeIfAbsent(w.id, k -> new long[2]);
              tr[0] += w.cache != null ? w.cache.store().roundTrips() - before : 0;
              tr[1] += requests;
              MacroBench.progress(String.format(Locale.ROOT, "memhit %s round %d %s: %.0f req/s", clients, r + 1,
                  w.id, WrkRounds.rps(o)));
            }
          }
          Map<String, Double> medians = new LinkedHashMap<>();
          ways.forEach(w -> medians.put(w.id, WrkRounds.median(rounds.get(w.id), 0)));
          Double limit = medians.get("limit");
          Double oneGet = medians.get("oneget");
          for (Way w : ways) {
            List<double[]> rs = rounds.get(w.id);
            double m = medians.get(w.id);
            StringBuilder each = new StringBuilder();
            rs.forEach(x -> each.append(each.length() == 0 ? "" : ", ").append(num(x[0], 0)));
            long[] tr = trips.get(w.id);
            t.row(clients, w.name, num(m, 0), each.toString(), num(WrkRounds.median(rs, 1), 2), num(WrkRounds.median(rs, 2), 2),
                limit == null ? "–" : num(m / limit, 2), oneGet == null ? "–" : num(m / oneGet, 2),
                num(WrkRounds.median(rs, 3), 1), w.cache == null ? "–" : num((double) tr[0] / tr[1], 3));
          }
          if (medians.containsKey("pagecache") && oneGet != null) {
            summary.add(String.format(Locale.ROOT, "memhit, clients %s: PageCache %.0f req/s, %.2f of one get%s",
                clients, medians.get("pagecache"), medians.get("pagecache") / oneGet,
                limit == null ? "" : String.format(Locale.ROOT, " (one get %.2f of the limit)", oneGet / limit)));
          }
        }
        md.append(t).append('\n');
        if (ROWS.contains("builds")) {
          // Building and storing pages that cost the application nothing: wrk asks pages never seen, in order.
          for (boolean gz : new boolean[] {false, true}) {
            Path script = WrkRounds.script(dir, gz ? "new-gzip.lua" : "new.lua", newPagesLua(gz));
            MacroBench.progress("memhit: builds, clients " + (gz ? "with" : "without") + " gzip");
            long cpuBefore = cpuNanos();
            String o = WrkRounds.run(wrk, local + "/fresh/" + (gz ? "g/" : "a/"), script, ROUND);
            long cpu = cpuNanos() - cpuBefore;
            long requests = Long.parseLong(ProxyScenario.first(o, "(\\d+) requests in"));
            String line = String.format(Locale.ROOT, "memhit, builds of 0 ms pages never seen, clients %s: %.0f req/s,"
                + " %.0f µs of JVM CPU per build", gz ? "with gzip" : "without gzip", WrkRounds.rps(o), cpu / 1000.0 / requests);
            MacroBench.progress(line);
            summary.add(line);
          }
        }
        for (String s : summary) {
          md.append("- ").append(s.substring("memhit, ".length())).append('\n');
        }
        return new MacroBench.Section("memhit", md.toString(), summary);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * CPU time of this JVM (Jetty, PageCache, xmemcached; wrk and memcached are processes of their
   * own): what a row costs the application's machine per request, which req/s on two shared
   * cores reflects only in part.
   */
  private static long cpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
  }


  private void get(String uri) {
    try {
      http.send(HttpRequest.newBuilder(URI.create(uri)).timeout(Duration.ofSeconds(30)).build(),
          HttpResponse.BodyHandlers.discarding());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Pages never seen, in order over all connections: thread {@code t} asks t, t + threads, ... (no wrap-around). */
  private static String newPagesLua(boolean gzip) {
    return "-- generated by MemcachedHitScenario: pages never seen" + (gzip ? ", clients with gzip" : "") + "\n"
        + "local prefix\n"
        + "local threads = 0\n"
        + "function setup(thread)\n  thread:set(\"first\", threads)\n  threads = threads + 1\nend\n"
        + "local next_page\n"
        + "function init(args)\n  next_page = first\nend\n"
        + "request = function()\n"
        + "  if not prefix then prefix = string.gsub(wrk.path, \"%d+$\", \"\") end\n"
        + "  local i = next_page\n  next_page = next_page + " + ProxyScenario.THREADS + "\n"
        + "  return wrk.format(nil, prefix .. i" + (gzip ? ", {[\"Accept-Encoding\"] = \"gzip\"}" : "") + ")\n"
        + "end\n";
  }

  private static String uniformLua(boolean gzip) {
    return "-- generated by MemcachedHitScenario: uniform over " + PAGES + " pages" + (gzip ? ", clients with gzip" : "")
        + "\nlocal prefix\n"
        + "request = function()\n"
        + "  if not prefix then prefix = string.gsub(wrk.path, \"%d+$\", \"\") end\n"
        + "  return wrk.format(nil, prefix .. (math.random(" + PAGES + ") - 1)"
        + (gzip ? ", {[\"Accept-Encoding\"] = \"gzip\"}" : "") + ")\n"
        + "end\n";
  }
}
