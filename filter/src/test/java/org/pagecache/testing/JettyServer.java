package org.pagecache.testing;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.http.HttpServlet;
import java.net.URI;
import java.util.EnumSet;
import java.util.function.Consumer;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.http.UriCompliance;
import org.eclipse.jetty.http2.server.HTTP2CServerConnectionFactory;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * A real embedded Jetty 12 (ee10) on a free loopback port, for tests that go through real HTTP.
 *
 * <pre>
 *   try (JettyServer jetty = JettyServer.start(ctx -> {
 *     JettyServer.filter(ctx, new PageCacheFilter(config));
 *     JettyServer.servlet(ctx, "article", new ArticleServlet(), "/article/*");
 *   })) {
 *     Http.get(jetty.uri("/article/1"));
 *   }
 * </pre>
 */
public final class JettyServer implements AutoCloseable {
  /**
   * Threads and accept backlog for stampede tests, which hold 200 requests in the server at once.
   * Jetty's default of 200 threads is shared with the acceptor, the selector and reserved threads,
   * so it serves fewer than 200 requests concurrently; the JDK's default backlog of 50 would make
   * the kernel drop SYNs of a burst of 200 connects (retried only after a second). Threads are
   * started on demand, so ordinary tests pay nothing for the higher limit.
   */
  static final int MAX_THREADS = 256;
  static final int ACCEPT_QUEUE = 256;

  private final Server server;
  private final ServletContextHandler context;
  private final int port;

  private JettyServer(Server server, ServletContextHandler context, int port) {
    this.server = server;
    this.context = context;
    this.port = port;
  }

  public static JettyServer start(Consumer<ServletContextHandler> setup) {
    return start("/", setup);
  }

  public static JettyServer start(String contextPath, Consumer<ServletContextHandler> setup) {
    return start(contextPath, setup, false);
  }

  /**
   * As {@link #start(Consumer)}, and the connector also speaks HTTP/2 without TLS (h2c, by upgrade
   * or prior knowledge), for tests of what only HTTP/2 frames carry.
   */
  public static JettyServer startWithHttp2(Consumer<ServletContextHandler> setup) {
    return start("/", setup, true);
  }

  private static JettyServer start(String contextPath, Consumer<ServletContextHandler> setup, boolean h2c) {
    QueuedThreadPool threads = new QueuedThreadPool(MAX_THREADS);
    threads.setName("jetty-test");
    Server server = new Server(threads);
    // Permissive on purpose: hostile URLs (control characters, 10 000-character queries) must reach
    // the filter under test instead of being refused by Jetty's own defaults first.
    HttpConfiguration http = new HttpConfiguration();
    http.setUriCompliance(UriCompliance.UNSAFE);
    http.setRequestHeaderSize(64 * 1024);
    ServerConnector connector = h2c
        ? new ServerConnector(server, new HttpConnectionFactory(http), new HTTP2CServerConnectionFactory(http))
        : new ServerConnector(server, new HttpConnectionFactory(http));
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    connector.setAcceptQueueSize(ACCEPT_QUEUE);
    server.addConnector(connector);
    ServletContextHandler context = new ServletContextHandler(ServletContextHandler.SESSIONS);
    context.setContextPath(contextPath);
    JettyApi.decodeAmbiguousUris(context);
    setup.accept(context);
    server.setHandler(context);
    try {
      server.start();
    } catch (Exception e) {
      try {
        server.stop();
      } catch (Exception ignored) {
        // already failing
      }
      throw new IllegalStateException("Jetty did not start: " + e, e);
    }
    return new JettyServer(server, context, connector.getLocalPort());
  }

  /** Registers a filter for REQUEST and ASYNC dispatches on every path. */
  public static FilterHolder filter(ServletContextHandler ctx, Filter filter) {
    FilterHolder holder = new FilterHolder(filter);
    ctx.addFilter(holder, "/*", EnumSet.of(DispatcherType.REQUEST, DispatcherType.ASYNC));
    return holder;
  }

  /** Registers a servlet under a name (the handler name PageCache sees) and URL patterns. */
  public static ServletHolder servlet(ServletContextHandler ctx, String name, HttpServlet servlet, String... patterns) {
    ServletHolder holder = new ServletHolder(name, servlet);
    for (String p : patterns) {
      ctx.addServlet(holder, p);
    }
    return holder;
  }

  public URI uri(String pathAndQuery) {
    return URI.create("http://127.0.0.1:" + port + context.getContextPath().replaceAll("/$", "") + pathAndQuery);
  }

  public int port() {
    return port;
  }

  public ServletContextHandler context() {
    return context;
  }

  @Override
  public void close() {
    try {
      server.stop();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
