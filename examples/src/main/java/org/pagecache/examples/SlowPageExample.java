package org.pagecache.examples;

import jakarta.servlet.DispatcherType;
import java.io.PrintStream;
import java.net.URI;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.pagecache.PageCacheConfig;
import org.pagecache.PageCacheFilter;

/**
 * The PageCacheFilter registered in code, in front of one slow servlet, in an embedded Jetty 12:
 * the first request waits for the handler (MISS), the next ones come from memcached (HIT).
 *
 * <pre>
 *   scripts/example.sh SlowPageExample [memcached servers, default 127.0.0.1:11211]
 *
 *   GET  /slow                    → 200 MISS   in  312 ms
 *   GET  /slow                    → 200 HIT    in    3 ms
 *   GET  /slow                    → 200 HIT    in    2 ms
 *   the handler ran 1 time for 3 requests
 * </pre>
 */
public final class SlowPageExample {
  private SlowPageExample() {}

  public static void main(String[] args) throws Exception {
    run(args.length > 0 ? args[0] : "127.0.0.1:11211", 3, System.out);
  }

  /** Starts the server, requests {@code /slow} {@code requests} times, prints and returns what came back, stops. */
  public static List<Fetched> run(String memcachedServers, int requests, PrintStream out) throws Exception {
    PageCacheConfig config = PageCacheConfig.builder()
        .set("memcached.servers", memcachedServers)
        // generous: a busy laptop should show caching, not fail-open misses (the default is 200ms)
        .set("memcached.op.timeout", "1s")
        .set("namespace", Namespaces.fresh("slow"))
        .set("ttl", "30s")
        .ignoreEnvironment() // this example's settings, not PAGECACHE_* of the machine
        .build();
    SlowServlet slow = new SlowServlet(300);

    Server server = new Server();
    ServerConnector connector = new ServerConnector(server);
    connector.setHost("127.0.0.1");
    server.addConnector(connector);
    ServletContextHandler context = new ServletContextHandler();
    context.setContextPath("/");
    context.addFilter(new FilterHolder(new PageCacheFilter(config)), "/*", EnumSet.of(DispatcherType.REQUEST, DispatcherType.ASYNC));
    context.addServlet(new ServletHolder("slow", slow), "/slow"); // servlet name = handler name
    server.setHandler(context);
    server.start();
    try {
      URI base = URI.create("http://127.0.0.1:" + connector.getLocalPort() + "/");
      out.println("memcached.servers = " + memcachedServers + "; /slow takes 300 ms to build");
      List<Fetched> fetched = new ArrayList<>();
      for (int i = 0; i < requests; i++) {
        Fetched f = Fetched.send("GET", base, "/slow");
        out.println(f);
        fetched.add(f);
      }
      out.println("the handler ran " + slow.calls() + (slow.calls() == 1 ? " time" : " times") + " for " + requests + " requests");
      return fetched;
    } finally {
      server.stop();
    }
  }
}
