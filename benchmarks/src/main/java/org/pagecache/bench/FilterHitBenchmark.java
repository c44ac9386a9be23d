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
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.Blackhole;
import org.pagecache.PageCacheConfig;
import org.pagecache.PageCacheFilter;
import org.pagecache.store.LocalStore;

/**
 * What the filter itself costs on a hit, without the network: real HTTP/1.1 requests through
 * Jetty 12's {@link LocalConnector} (the real server, parser and servlet pipeline, no sockets),
 * against {@link LocalStore} (no memcached). Each invocation sends two requests, in alternating
 * order: a cached 20 KB page served by PageCache (lookup, Kryo decode, headers, body) and the same
 * bytes written from memory by a plain servlet. Their times are summed separately
 * ({@link Timings}); the difference of the means is the filter's overhead per request.
 *
 * <p>Paired on purpose: each request hops to a Jetty pool thread and back, and on a shared
 * two-core machine the cost of that hop moves with whatever else runs. Two benchmarks measured a
 * minute apart differed by more than the overhead itself (the filter came out faster than no
 * filter); interleaved requests see the same machine.
 *
 * <p>{@code client=gzip} sends {@code Accept-Encoding: gzip} (browsers do): both send the stored
 * gzip body. {@code client=identity}: the filter inflates the stored body on every request, the
 * plain servlet writes the identity bytes it holds.
 *
 * <pre>
 *   java -cp ... org.openjdk.jmh.Main FilterHitBenchmark -f 1 -wi 3 -i 5 -w 1s -r 1s
 * </pre>
 * The report divides {@code filterNanos} and {@code directNanos} by {@code pairs}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class FilterHitBenchmark {
  static final int PAGE_BYTES = 20 * 1024;

  @Param({"gzip", "identity"})
  String client;

  private Server server;
  private LocalConnector connector;
  private ByteBuffer cachedRequest;
  private ByteBuffer directRequest;

  /** Time spent on each kind of request, summed over the run (JMH reports event counters as totals). */
  @State(Scope.Thread)
  @AuxCounters(AuxCounters.Type.EVENTS)
  public static class Timings {
    public long filterNanos;
    public long directNanos;
    public long pairs;
  }

  @Setup
  public void start() throws Exception {
    BenchServlets.Pages pages = new BenchServlets.Pages(1, PAGE_BYTES);
    server = new Server();
    connector = new LocalConnector(server);
    server.addConnector(connector);
    ServletContextHandler context = new ServletContextHandler();
    context.setContextPath("/");
    PageCacheConfig config = PageCacheConfig.builder().ignoreEnvironment().store(new LocalStore())
        // The store's hit path (lookup, decode, inflate), as documented above: without the near
        // cache, which would answer every request here from memory (ProxyScenario measures it).
        .set("near.trust", "0s")
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
  public void pairedRequests(Timings t, Blackhole blackhole) throws Exception {
    boolean filterFirst = (t.pairs & 1) == 0;
    long t0 = System.nanoTime();
    blackhole.consume(connector.getResponse((filterFirst ? cachedRequest : directRequest).slice()));
    long t1 = System.nanoTime();
    blackhole.consume(connector.getResponse((filterFirst ? directRequest : cachedRequest).slice()));
    long t2 = System.nanoTime();
    t.filterNanos += filterFirst ? t1 - t0 : t2 - t1;
    t.directNanos += filterFirst ? t2 - t1 : t1 - t0;
    t.pairs++;
  }

  /**
   * {@code Connection: close}: each {@code getResponse} opens a new local connection, and without it
   * every one stayed open until Jetty's 30 s idle timeout, tens of thousands per iteration, and
   * later iterations slowed down under them.
   */
  private ByteBuffer request(String path) {
    String accept = client.equals("gzip") ? "Accept-Encoding: gzip\r\n" : "";
    return ByteBuffer.wrap(("GET " + path + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n" + accept + "\r\n")
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
