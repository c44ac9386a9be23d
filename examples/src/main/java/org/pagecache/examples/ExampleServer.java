package org.pagecache.examples;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.http.HttpServlet;
import java.net.URI;
import java.util.EnumSet;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.pagecache.PageCache;
import org.pagecache.PageCacheConfig;
import org.pagecache.PageCacheFilter;

/**
 * An embedded Jetty 12 on a free loopback port with the PageCacheFilter in front of named
 * servlets; the servlet name is the handler name of policies, refreshes and stats. The same
 * registration as {@link SlowPageExample} spells out, in a reusable form.
 *
 * <pre>
 *   try (ExampleServer server = new ExampleServer(config)
 *       .servlet("article", new ArticleServlet(), "/article/*")
 *       .start()) {
 *     server.get("/article/1");
 *   }
 * </pre>
 */
public final class ExampleServer implements AutoCloseable {
  private final Server server = new Server();
  private final ServerConnector connector = new ServerConnector(server);
  private final ServletContextHandler context = new ServletContextHandler();

  public ExampleServer(PageCacheConfig config) {
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    server.addConnector(connector);
    context.setContextPath("/");
    context.addFilter(new FilterHolder(new PageCacheFilter(config)), "/*", EnumSet.of(DispatcherType.REQUEST, DispatcherType.ASYNC));
    server.setHandler(context);
  }

  /** Registers a servlet under a handler name and URL patterns. */
  public ExampleServer servlet(String name, HttpServlet servlet, String... patterns) {
    ServletHolder holder = new ServletHolder(name, servlet);
    for (String pattern : patterns) {
      context.addServlet(holder, pattern);
    }
    return this;
  }

  public ExampleServer start() throws Exception {
    server.start();
    return this;
  }

  public URI base() {
    return URI.create("http://127.0.0.1:" + connector.getLocalPort() + "/");
  }

  /** The cache of this application, as its own code would get it. */
  public PageCache pageCache() {
    return PageCache.from(context.getServletContext());
  }

  public Fetched get(String path) {
    return Fetched.send("GET", base(), path);
  }

  public Fetched post(String path, String... headers) {
    return Fetched.send("POST", base(), path, headers);
  }

  @Override
  public void close() throws Exception {
    server.stop();
  }
}
