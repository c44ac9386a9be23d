package org.pagecache.bench;

import static org.pagecache.bench.Table.num;

import jakarta.servlet.DispatcherType;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.pagecache.PageCache;
import org.pagecache.stats.NearStats;
import org.pagecache.PageCacheConfig;
import org.pagecache.PageCacheFilter;
import org.pagecache.testing.JettyServer;

/**
 * PageCache against the proxies a site would otherwise put in front (issue 14), all rows measured
 * by wrk in one run on the same pages: the in-container limit (the same bytes written from memory),
 * PageCache with the near cache on and off, nginx {@code proxy_cache} and Varnish in front of the
 * same application; one hot page and the Zipf set of 200 pages; clients with and without gzip.
 *
 * <p>nginx and Varnish run as foreground processes of this program with their own configuration
 * in the output directory, on free loopback ports, and are stopped at the end (never the system
 * services). Binaries come from {@code WRK}, {@code NGINX}, {@code VARNISHD} (defaults: wrk,
 * /usr/sbin/nginx, /usr/sbin/varnishd); scripts/bench.sh installs Debian's packages.
 *
 * <pre>
 *   java -cp ... org.pagecache.bench.MacroBench target/bench 32 10 proxies
 * </pre>
 */
final class ProxyScenario {
  static final int PAGES = 200;
  static final int PAGE_BYTES = 20 * 1024;
  static final long COST_MILLIS = 20;
  static final int CONNECTIONS = 64;
  static final int THREADS = 2;
  private static final String GZIP = "Accept-Encoding: gzip";

  private final BenchMemcached memcached;
  private final MacroBench.Settings settings;
  private final Path dir;
  private final List<Process> processes = new ArrayList<>();
  /** A page of the app each proxy must answer before it counts as started. */
  private String readyPath = "/origin/0";
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  ProxyScenario(BenchMemcached memcached, MacroBench.Settings settings, Path out) {
    this(memcached, settings, out, "proxies");
  }

  /** The proxies' configuration and output under {@code out/dirName} (the long-tail scenario starts its own). */
  ProxyScenario(BenchMemcached memcached, MacroBench.Settings settings, Path out, String dirName) {
    this.memcached = memcached;
    this.settings = settings;
    this.dir = out.resolve(dirName).toAbsolutePath();
  }

  /** The app's page the proxies are asked for to see that they started (default {@code /origin/0}). */
  ProxyScenario readyPath(String path) {
    this.readyPath = path;
    return this;
  }

  /** Stops the nginx and Varnish this instance started. */
  void stopProxies() {
    processes.forEach(ProxyScenario::stop);
    processes.clear();
  }

  /** One way of serving the pages: a base URI whose path ends in the page number. */
  private record Way(String name, String base, PageCache cache) {}

  /** One wrk measurement. */
  private record Row(String way, boolean gzip, double rps, double p50Millis, double p99Millis, long requests,
      long errors, double roundTripsPerRequest, String label) {}

  MacroBench.Section run() {
    BenchServlets.Pages pages = new BenchServlets.Pages(PAGES, PAGE_BYTES);
    String servers = memcached.node(0).address();
    try {
      Files.createDirectories(dir);
      Path zipf = zipfScript();
      try (JettyServer app = app(pages, servers, "pxnear", "1s");
          JettyServer far = app(pages, servers, "pxfar", "0s")) {
        int nginxPort = freePort();
        int varnishPort = freePort();
        startNginx(app.port(), nginxPort);
        startVarnish(app.port(), varnishPort);
        PageCache nearCache = PageCache.from(app.context().getServletContext());
        List<Way> ways = List.of(
            new Way("limit: the same bytes from memory (servlet)", "http://127.0.0.1:" + app.port() + "/limit/", null),
            new Way("PageCache, near cache on (near.trust=1s)", "http://127.0.0.1:" + app.port() + "/cached/", nearCache),
            new Way("PageCache, near cache off (near.trust=0)", "http://127.0.0.1:" + far.port() + "/cached/",
                PageCache.from(far.context().getServletContext())),
            new Way("nginx proxy_cache in front of the app", "http://127.0.0.1:" + nginxPort + "/origin/", null),
            new Way("Varnish in front of the app", "http://127.0.0.1:" + varnishPort + "/origin/", null));
        StringBuilder md = new StringBuilder();
        List<String> summary = new ArrayList<>();
        md.append("wrk ").append(THREADS).append(" threads, ").append(CONNECTIONS).append(" connections, ")
            .append(settings.window().toSeconds()).append(" s per row after ").append(settings.warmUp().toSeconds())
            .append(" s of warm-up; pages of ").append(PAGE_BYTES / 1024).append(" KB (")
            .append(pages.gzip[0].length / 1024).append(" KB gzipped); backend cost ").append(COST_MILLIS)
            .append(" ms (paid on misses only: every row is measured warm).\n\n");
        // A pass over every way first, so that no row (the first least of all) is measured on a cold JIT.
        for (Way w : ways) {
          for (boolean gzip : List.of(false, true)) {
            fill(w, true, gzip);
            wrk(w, true, gzip, zipf, settings.warmUp());
          }
        }
        for (boolean hot : List.of(true, false)) {
          md.append(hot ? "**One hot page**\n\n" : "**Zipf set of " + PAGES + " pages (s = 1)**\n\n");
          Table t = new Table("served by", "client", "req/s", "p50 ms", "p99 ms", "vs limit",
              "memcached round trips per request", "checked");
          for (boolean gzip : List.of(false, true)) {
            Map<String, Row> rows = new LinkedHashMap<>();
            for (Way w : ways) {
              fill(w, hot, gzip);
              Row r = measure(w, hot, gzip, zipf);
              rows.put(w.name, r);
              MacroBench.progress(String.format(Locale.ROOT, "proxies %s %s %s: %.0f req/s", hot ? "hot" : "zipf",
                  gzip ? "gzip" : "identity", w.name, r.rps));
            }
            double limit = rows.get(ways.get(0).name).rps;
            for (Row r : rows.values()) {
              t.row(r.way, r.gzip ? "gzip" : "identity", num(r.rps, 0), num(r.p50Millis, 2), num(r.p99Millis, 2),
                  num(r.rps / limit, 2), Double.isNaN(r.roundTripsPerRequest) ? "–" : num(r.roundTripsPerRequest, 4),
                  r.label + (r.errors > 0 ? ", " + r.errors + " errors" : ""));
            }
            double near = rows.get(ways.get(1).name).rps;
            String line = String.format(Locale.ROOT, "%s, %s: PageCache (near) %.2f of the limit, %.2f of nginx, %.2f of Varnish;"
                    + " near off %.2f of the limit", hot ? "hot page" : "Zipf set", gzip ? "gzip" : "identity",
                near / limit, near / rows.get(ways.get(3).name).rps, near / rows.get(ways.get(4).name).rps,
                rows.get(ways.get(2).name).rps / limit);
            summary.add(line);
          }
          md.append(t).append('\n');
        }
        NearStats n = nearCache.nearStats();
        md.append("Ratios (PageCache with the near cache over each):\n\n");
        summary.forEach(s -> md.append("- ").append(s).append('\n'));
        md.append("\nNear cache of the app at the end: ").append(n.entries()).append(" pages, ")
            .append(num(n.bytes() / 1024.0 / 1024.0, 1)).append(" MB of ")
            .append(num(n.maxBytes() / 1024.0 / 1024.0, 0)).append(" MB, hit ratio ")
            .append(n.hitRatio() < 0 ? "n/a" : Table.percent(n.hitRatio(), 2)).append(".\n");
        summary.add("near cache: " + n.entries() + " pages, " + n.bytes() + " bytes");
        return new MacroBench.Section("proxies", md.toString(), summary);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      processes.forEach(ProxyScenario::stop);
    }
  }

  /** The application: the limit, PageCache in front of the backend, and the origin the proxies cache. */
  private static JettyServer app(BenchServlets.Pages pages, String servers, String namespace, String nearTrust) {
    PageCacheConfig config = PageCacheConfig.builder().ignoreEnvironment()
        .set("memcached.servers", servers)
        .set("namespace", namespace)
        .set("near.trust", nearTrust)
        .set("header", "X-Cache")
        .set("policies", "page: ttl=10m, grace=10m")
        .build();
    PageCacheFilter filter = new PageCacheFilter(config);
    return JettyServer.start(ctx -> {
      ctx.addFilter(new FilterHolder(filter), "/cached/*", EnumSet.of(DispatcherType.REQUEST));
      JettyServer.servlet(ctx, "page", new BenchServlets.Backend(pages, COST_MILLIS), "/cached/*");
      JettyServer.servlet(ctx, "origin", new BenchServlets.Origin(pages, COST_MILLIS), "/origin/*");
      JettyServer.servlet(ctx, "limit", new BenchServlets.FromMemory(pages), "/limit/*");
    });
  }

  /** Requests every page the row will ask for (twice), so the row is measured warm. */
  private void fill(Way w, boolean hot, boolean gzip) {
    int n = hot ? 1 : PAGES;
    for (int pass = 0; pass < 2; pass++) {
      for (int i = 0; i < n; i++) {
        get(w.base + i, gzip);
      }
    }
  }

  private HttpResponse<Void> get(String uri, boolean gzip) {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(uri)).timeout(Duration.ofSeconds(30));
    if (gzip) {
      b.header("Accept-Encoding", "gzip");
    }
    try {
      return http.send(b.build(), HttpResponse.BodyHandlers.discarding());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** What a warm request of the row is labelled (X-Cache, or the proxies' X-Proxy-Cache). */
  private String label(Way w, boolean gzip) {
    HttpResponse<Void> r = get(w.base + "0", gzip);
    String label = r.headers().firstValue("X-Cache").or(() -> r.headers().firstValue("X-Proxy-Cache")).orElse("");
    String encoding = r.headers().firstValue("Content-Encoding").orElse("identity");
    return r.statusCode() + (label.isEmpty() ? "" : " " + label) + ", " + encoding;
  }

  private Row measure(Way w, boolean hot, boolean gzip, Path zipf) {
    String label = label(w, gzip);
    wrk(w, hot, gzip, zipf, settings.warmUp());
    long tripsBefore = w.cache != null ? w.cache.store().roundTrips() : 0;
    String out = wrk(w, hot, gzip, zipf, settings.window());
    long trips = w.cache != null ? w.cache.store().roundTrips() - tripsBefore : 0;
    long requests = firstLong(out, "(\\d+) requests in");
    double rps = Double.parseDouble(first(out, "Requests/sec:\\s+([0-9.]+)"));
    long errors = 0;
    Matcher m = Pattern.compile("Non-2xx or 3xx responses: (\\d+)").matcher(out);
    if (m.find()) {
      errors += Long.parseLong(m.group(1));
    }
    m = Pattern.compile("Socket errors: connect (\\d+), read (\\d+), write (\\d+), timeout (\\d+)").matcher(out);
    if (m.find()) {
      for (int i = 1; i <= 4; i++) {
        errors += Long.parseLong(m.group(i));
      }
    }
    return new Row(w.name, gzip, rps, latency(out, "50%"), latency(out, "99%"), requests, errors,
        w.cache != null && requests > 0 ? (double) trips / requests : Double.NaN, label);
  }

  private String wrk(Way w, boolean hot, boolean gzip, Path zipf, Duration d) {
    List<String> cmd = new ArrayList<>(List.of(env("WRK", "wrk"), "-t" + THREADS, "-c" + CONNECTIONS,
        "-d" + Math.max(1, d.toSeconds()) + "s", "--timeout", "10s", "--latency"));
    if (gzip) {
      cmd.addAll(List.of("-H", GZIP));
    }
    if (!hot) {
      cmd.addAll(List.of("-s", zipf.toString()));
    }
    cmd.add(w.base + "0");
    return run(cmd, d.plusSeconds(30));
  }

  /** A wrk script asking for the Zipf set: page numbers drawn like {@link Zipf}, under the URL's path. */
  private Path zipfScript() throws IOException {
    Zipf zipf = new Zipf(PAGES, 1.0);
    StringBuilder ids = new StringBuilder();
    for (int i = 0; i < 20_000; i++) {
      ids.append(i == 0 ? "" : ",").append(zipf.next());
    }
    String lua = "-- generated by ProxyScenario: page numbers drawn from Zipf(" + PAGES + ", 1.0)\n"
        + "local ids = {" + ids + "}\n"
        + "local prefix\n"
        + "request = function()\n"
        + "  if not prefix then prefix = string.gsub(wrk.path, \"%d+$\", \"\") end\n"
        + "  return wrk.format(nil, prefix .. ids[math.random(#ids)])\n"
        + "end\n";
    Path p = dir.resolve("zipf.lua");
    Files.writeString(p, lua, StandardCharsets.UTF_8);
    return p;
  }

  void startNginx(int appPort, int port) throws IOException {
    startNginx(appPort, port, "");
  }

  /** nginx caching the app, with {@code location} lines added to its one location (the expiring scenario's background update). */
  void startNginx(int appPort, int port, String location) throws IOException {
    Path d = dir.resolve("nginx");
    Files.createDirectories(d.resolve("cache"));
    Files.createDirectories(d.resolve("tmp"));
    boolean root = "root".equals(System.getProperty("user.name"));
    String conf = (root ? "user root;\n" : "")
        + "daemon off;\nworker_processes " + THREADS + ";\npid " + d.resolve("nginx.pid") + ";\n"
        + "error_log " + d.resolve("error.log") + " warn;\n"
        + "events { worker_connections 4096; }\n"
        + "http {\n"
        + "  access_log off;\n"
        + "  client_body_temp_path " + d.resolve("tmp") + "/body;\n"
        + "  proxy_temp_path " + d.resolve("tmp") + "/proxy;\n"
        + "  fastcgi_temp_path " + d.resolve("tmp") + "/fastcgi;\n"
        + "  uwsgi_temp_path " + d.resolve("tmp") + "/uwsgi;\n"
        + "  scgi_temp_path " + d.resolve("tmp") + "/scgi;\n"
        + "  proxy_cache_path " + d.resolve("cache") + " levels=1:2 keys_zone=pages:10m max_size=1g inactive=1h use_temp_path=off;\n"
        + "  upstream app { server 127.0.0.1:" + appPort + "; keepalive 64; }\n"
        + "  server {\n"
        + "    listen 127.0.0.1:" + port + ";\n"
        + "    location / {\n"
        + "      proxy_pass http://app;\n"
        + "      proxy_http_version 1.1;\n"
        + "      proxy_set_header Connection \"\";\n"
        + "      proxy_cache pages;\n"
        + "      proxy_cache_lock on;\n"
        + "      add_header X-Proxy-Cache $upstream_cache_status;\n"
        + location
        + "    }\n"
        + "  }\n"
        + "}\n";
    Path file = d.resolve("nginx.conf");
    Files.writeString(file, conf, StandardCharsets.UTF_8);
    start("nginx", List.of(env("NGINX", "/usr/sbin/nginx"), "-p", d.toString(), "-c", file.toString(),
        "-e", d.resolve("error.log").toString()), port);
  }

  void startVarnish(int appPort, int port) throws IOException {
    startVarnish(appPort, port, "");
  }

  /** Varnish caching the app, with {@code vcl} appended to its VCL (subroutines add to the built-in ones). */
  void startVarnish(int appPort, int port, String vcl) throws IOException {
    Path d = dir.resolve("varnish");
    Files.createDirectories(d);
    String conf = "vcl 4.1;\n"
        + "backend app { .host = \"127.0.0.1\"; .port = \"" + appPort + "\"; }\n"
        + "sub vcl_deliver {\n"
        + "  if (obj.hits > 0) { set resp.http.X-Proxy-Cache = \"HIT\"; } else { set resp.http.X-Proxy-Cache = \"MISS\"; }\n"
        + "}\n" + vcl;
    Path file = d.resolve("default.vcl");
    Files.writeString(file, conf, StandardCharsets.UTF_8);
    // -F: foreground, stopped with this program; -j none: no user switching, the work dir is ours.
    start("varnish", List.of(env("VARNISHD", "/usr/sbin/varnishd"), "-F", "-j", "none", "-n", d.resolve("work").toString(),
        "-a", "127.0.0.1:" + port, "-f", file.toString(), "-s", "malloc,1g", "-T", "none"), port);
  }

  /** Starts a proxy in the foreground, its output in the output directory; waits until it answers. */
  private void start(String name, List<String> cmd, int port) throws IOException {
    File log = dir.resolve(name + ".out").toFile();
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log).start();
    processes.add(p);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < deadline) {
      if (!p.isAlive()) {
        throw new IllegalStateException(name + " exited with " + p.exitValue() + "; see " + log + ": "
            + Files.readString(log.toPath()).strip());
      }
      try {
        if (get("http://127.0.0.1:" + port + readyPath, false).statusCode() == 200) {
          return;
        }
      } catch (UncheckedIOException notYet) {
        // not listening yet
      }
      pause(200);
    }
    throw new IllegalStateException(name + " did not answer on port " + port + " within 60 s; see " + log);
  }

  private static void stop(Process p) {
    p.destroy();
    try {
      if (!p.waitFor(15, TimeUnit.SECONDS)) {
        p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  String run(List<String> cmd, Duration limit) {
    try {
      Path out = Files.createTempFile(dir, "wrk", ".txt");
      Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile()).start();
      if (!p.waitFor(limit.toSeconds(), TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new IllegalStateException("wrk did not finish within " + limit + ": " + cmd);
      }
      String text = Files.readString(out);
      Files.delete(out);
      if (p.exitValue() != 0) {
        throw new IllegalStateException("wrk failed (" + p.exitValue() + "): " + cmd + "\n" + text);
      }
      return text;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** A latency percentile of wrk's --latency distribution, in milliseconds. */
  static double latency(String wrk, String percentile) {
    Matcher m = Pattern.compile("^\\s*" + Pattern.quote(percentile) + "\\s+([0-9.]+)(us|ms|s)\\s*$", Pattern.MULTILINE).matcher(wrk);
    if (!m.find()) {
      return Double.NaN;
    }
    double v = Double.parseDouble(m.group(1));
    return switch (m.group(2)) {
      case "us" -> v / 1000;
      case "ms" -> v;
      default -> v * 1000;
    };
  }

  static String first(String text, String regex) {
    Matcher m = Pattern.compile(regex).matcher(text);
    if (!m.find()) {
      throw new IllegalStateException("no '" + regex + "' in wrk's output:\n" + text);
    }
    return m.group(1);
  }

  private static long firstLong(String text, String regex) {
    return Long.parseLong(first(text, regex));
  }

  static String env(String name, String fallback) {
    String v = System.getenv(name);
    return v == null || v.isBlank() ? fallback : v;
  }

  static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  private static void pause(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
