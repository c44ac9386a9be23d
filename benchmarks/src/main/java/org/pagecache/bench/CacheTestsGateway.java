package org.pagecache.bench;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.pagecache.PageCacheConfig;
import org.pagecache.PageCacheFilter;
import org.pagecache.testing.JettyServer;

/**
 * PageCache as a gateway for the public HTTP caching test suite (http-tests/cache-tests): the filter
 * in front of a servlet that forwards every request to the suite's origin server, as an
 * application that builds its pages from another service would. Nothing in the library knows the
 * suite; the gateway only forwards. A real memcached is started for it (the test harness's).
 *
 * <pre>
 *   java -cp ... org.pagecache.bench.CacheTestsGateway http://127.0.0.1:8000 "default: cache-control=honor"
 * </pre>
 * It prints {@code listening http://127.0.0.1:PORT/} and runs until its standard input closes.
 * scripts/cache-tests.sh runs it for both modes and counts the required tests passed.
 */
public final class CacheTestsGateway {
  /** Hop-by-hop headers and those the client or container computes; never forwarded. */
  private static final Set<String> NOT_FORWARDED = Set.of("connection", "keep-alive", "proxy-connection",
      "transfer-encoding", "te", "trailer", "upgrade", "host", "content-length", "expect");

  private CacheTestsGateway() {}

  public static void main(String[] args) throws IOException {
    if (args.length < 1) {
      System.err.println("usage: CacheTestsGateway ORIGIN_BASE_URL [POLICIES]");
      System.exit(2);
    }
    // The origin's own Date, Via and Warning must reach it unchanged; the JDK client refuses them by default.
    System.setProperty("jdk.httpclient.allowRestrictedHeaders", "date,via,warning,from");
    // Idle connections are dropped before the origin's own keep-alive timeout (Node's is 5 s), so
    // the client never reuses one the origin is closing at that moment.
    System.setProperty("jdk.httpclient.keepalive.timeout", "2");
    URI origin = URI.create(args[0].endsWith("/") ? args[0].substring(0, args[0].length() - 1) : args[0]);
    String policies = args.length > 1 ? args[1] : "";
    try (BenchMemcached memcached = new BenchMemcached(1)) {
      PageCacheConfig config = PageCacheConfig.builder()
          .set("memcached.servers", memcached.servers())
          // a shared 2-core machine stalls now and then: no test should meet the circuit breaker
          .set("memcached.op.timeout", "2s")
          .set("policies", policies)
          .build();
      HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5)).followRedirects(HttpClient.Redirect.NEVER).build();
      try (JettyServer server = JettyServer.start(ctx -> {
        JettyServer.filter(ctx, new PageCacheFilter(config));
        JettyServer.servlet(ctx, "origin", new Forwarding(client, origin), "/*");
      })) {
        System.out.println("listening http://127.0.0.1:" + server.port() + "/");
        System.out.flush();
        InputStream in = System.in;
        while (in.read() >= 0) {
          // runs until the script closes standard input
        }
      }
    }
  }

  /** Forwards the request to the origin and copies its answer back, status, headers and body. */
  static final class Forwarding extends HttpServlet {
    private final transient HttpClient client;
    private final URI origin;

    Forwarding(HttpClient client, URI origin) {
      this.client = client;
      this.origin = origin;
    }

    /**
     * Sends once more when the origin closed a kept-alive connection just as it was reused (the
     * JDK client then reads no bytes): a retry of the gateway's own connection, not of the request.
     */
    private HttpResponse<byte[]> send(HttpRequest request) throws IOException, InterruptedException {
      try {
        return client.send(request, HttpResponse.BodyHandlers.ofByteArray());
      } catch (IOException e) {
        return client.send(request, HttpResponse.BodyHandlers.ofByteArray());
      }
    }

    @Override
    protected void service(HttpServletRequest req, HttpServletResponse res) throws IOException {
      String query = req.getQueryString();
      URI target = URI.create(origin + req.getRequestURI() + (query == null ? "" : "?" + query));
      byte[] body = req.getInputStream().readAllBytes();
      HttpRequest.Builder out = HttpRequest.newBuilder(target).timeout(Duration.ofSeconds(30))
          .method(req.getMethod(), body.length == 0 ? HttpRequest.BodyPublishers.noBody()
              : HttpRequest.BodyPublishers.ofByteArray(body));
      for (String name : Collections.list(req.getHeaderNames())) {
        if (NOT_FORWARDED.contains(name.toLowerCase(Locale.ROOT))) {
          continue;
        }
        for (String value : Collections.list(req.getHeaders(name))) {
          out.header(name, value);
        }
      }
      HttpResponse<byte[]> answer;
      try {
        answer = send(out.build());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        res.sendError(502);
        return;
      }
      res.setStatus(answer.statusCode());
      // A proxy drops the fields its Connection header names (RFC 9110 7.6.1), as it drops Connection.
      Set<String> connectionListed = new HashSet<>();
      for (String v : answer.headers().allValues("Connection")) {
        for (String n : v.split(",")) {
          connectionListed.add(n.trim().toLowerCase(Locale.ROOT));
        }
      }
      for (Map.Entry<String, List<String>> h : answer.headers().map().entrySet()) {
        String name = h.getKey();
        String lower = name.toLowerCase(Locale.ROOT);
        if (NOT_FORWARDED.contains(lower) || connectionListed.contains(lower) || name.startsWith(":")) {
          continue;
        }
        boolean first = true;
        for (String value : h.getValue()) {
          if (name.equalsIgnoreCase("Content-Type")) {
            res.setContentType(value);
          } else if (first) {
            res.setHeader(name, value); // replaces the container's own Date and Server
          } else {
            res.addHeader(name, value);
          }
          first = false;
        }
      }
      byte[] bytes = answer.body();
      if (bytes.length > 0 && !"HEAD".equals(req.getMethod())) {
        res.setContentLength(bytes.length);
        res.getOutputStream().write(bytes);
      }
    }
  }
}
