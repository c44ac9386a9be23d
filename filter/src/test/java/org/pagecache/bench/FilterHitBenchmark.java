package org.pagecache.bench;

import jakarta.servlet.DispatcherType;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.LocalConnector;
import org.eclipse.jetty.server.Server;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.pagecache.PageCacheConfig;
import org.pagecache.PageCacheFilter;
import org.pagecache.store.LocalStore;

/**
 * What the filter itself costs on a hit, without the network: real HTTP/1.1 requests through
 * Jetty 12's {@link LocalConnector} (the real server, parser and servlet pipeline, no sockets),
 * against {@link LocalStore} (no memcached). {@code filterHit} is a cached 20 KB page served by
 * PageCache (lookup, Kryo decode, headers, body); {@code direct} is a servlet writing the same
 * bytes from memory. The difference is the filter's overhead per request.
 *
 * <p>{@code client=gzip} sends {@code Accept-Encoding: gzip} (browsers do): both send the stored
 * gzip body. {@code client=identity}: the filter decompresses the stored body on every request,
 * the direct servlet writes the identity bytes it holds.
 *
 * <p>Sample mode, so the report can show the median: each request hops to a Jetty pool thread and
 * back, and on a shared two-core machine the mean of such a hop is pulled around by whatever else
 * runs; the median much less.
 *
 * <pre>
 *   java -cp ... org.openjdk.jmh.Main FilterHitBenchmark -f 1 -wi 3 -i 5 -w 1s -r 1s
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class FilterHitBenchmark {
  static final int PAGE_BYTES = 20 * 1024;

  @Param({"gzip", "identity"})
  String client;

  private Server server;
  private LocalConnector connector;
  private ByteBuffer cachedRequest;
  private ByteBuffer directRequest;

  @Setup
  public void start() throws Exception {
    BenchServlets.Pages pages = new BenchServlets.Pages(1, PAGE_BYTES);
    server = new Server();
    connector = new LocalConnector(server);
    server.addConnector(connector);
    ServletContextHandler context = new ServletContextHandler();
    context.setContextPath("/");
    PageCacheConfig config = PageCacheConfig.builder().ignoreEnvironment().store(new LocalStore())
        .set("policies", "page: ttl=1h").build();
    context.addFilter(new FilterHolder(new PageCacheFilter(config)), "/cached/*", EnumSet.of(DispatcherType.REQUEST));
    context.addServlet(new ServletHolder("page", new BenchServlets.Backend(pages, 0)), "/cached/*");
    context.addServlet(new ServletHolder("direct", new BenchServlets.FromMemory(pages)), "/direct/*");
    server.setHandler(context);
    server.start();
    cachedRequest = request("/cached/0");
    directRequest = request("/direct/0");
    response(cachedRequest); // the build
    String hit = response(cachedRequest);
    String direct = response(directRequest);
    if (!hit.startsWith("HTTP/1.1 200") || !hit.contains("X-Cache: HIT") || !direct.startsWith("HTTP/1.1 200")) {
      throw new IllegalStateException("the bench site does not answer as expected:\n" + head(hit) + "\n" + head(direct));
    }
  }

  @TearDown
  public void stop() throws Exception {
    server.stop();
  }

  @Benchmark
  public ByteBuffer filterHit() throws Exception {
    return connector.getResponse(cachedRequest.slice());
  }

  @Benchmark
  public ByteBuffer direct() throws Exception {
    return connector.getResponse(directRequest.slice());
  }

  private ByteBuffer request(String path) {
    String accept = client.equals("gzip") ? "Accept-Encoding: gzip\r\n" : "";
    return ByteBuffer.wrap(("GET " + path + " HTTP/1.1\r\nHost: localhost\r\n" + accept + "\r\n")
        .getBytes(StandardCharsets.US_ASCII)).asReadOnlyBuffer();
  }

  private String response(ByteBuffer request) throws Exception {
    return StandardCharsets.ISO_8859_1.decode(connector.getResponse(request.slice())).toString();
  }

  private static String head(String response) {
    int end = response.indexOf("\r\n\r\n");
    return end < 0 ? response : response.substring(0, end);
  }
}
