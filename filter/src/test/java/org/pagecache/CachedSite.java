package org.pagecache;

import jakarta.servlet.DispatcherType;
import java.net.URI;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.pagecache.internal.key.PageKey;
import org.pagecache.store.Store;
import org.pagecache.testing.Http;
import org.pagecache.testing.JettyServer;
import org.pagecache.testing.MemcachedExtension;

/**
 * A test site: embedded Jetty with the PageCacheFilter in front of named handlers, on real
 * memcached (or a given store). Each site gets its own namespace, so sites sharing one memcached
 * never see each other's pages.
 */
final class CachedSite implements AutoCloseable {
  /**
   * Creates the sites of a socket-tier test class on its memcached and closes every one after each
   * test, in place of a copied {@code @AfterEach}:
   * <pre>{@code
   * @RegisterExtension static MemcachedExtension memcached = MemcachedExtension.nodes(1);
   * @RegisterExtension final CachedSite.Sites sites = new CachedSite.Sites(memcached);
   * ...
   * CachedSite site = sites.open().handler("page", SiteServlets.page(), "/page/*").start();
   * }</pre>
   */
  static final class Sites implements AfterEachCallback {
    private final MemcachedExtension memcached;
    private final List<CachedSite> open = new ArrayList<>();

    Sites(MemcachedExtension memcached) {
      this.memcached = memcached;
    }

    /** A site (not started) on the class's memcached, closed after the test. */
    CachedSite open() {
      CachedSite site = new CachedSite(memcached.servers());
      open.add(site);
      return site;
    }

    @Override
    public void afterEach(ExtensionContext context) {
      open.forEach(CachedSite::close);
      open.clear();
    }
  }

  private static final AtomicInteger SITES = new AtomicInteger();

  final SiteServlets.Registry handlers = new SiteServlets.Registry();
  final Map<String, String> params = new LinkedHashMap<>();
  private final Map<String, String[]> mappings = new LinkedHashMap<>();
  private Clock clock = Clock.systemUTC();
  private Store store;
  private org.pagecache.counters.CountSource source;
  private boolean forwardDispatch;
  private boolean requestOnly;
  private boolean http2;
  private final List<Consumer<ServletContextHandler>> extras = new ArrayList<>();
  private final List<jakarta.servlet.Filter> before = new ArrayList<>();
  JettyServer jetty;
  PageCache cache;

  CachedSite(String servers) {
    params.put("memcached.servers", servers);
    params.put("memcached.op.timeout", MemcachedExtension.TEST_OP_TIMEOUT.toMillis() + "ms");
    params.put("namespace", "s" + SITES.incrementAndGet() + "x" + ProcessHandle.current().pid() % 1000);
  }

  CachedSite set(String name, String value) {
    params.put(name, value);
    return this;
  }

  CachedSite handler(String name, SiteServlets.Handler h, String... patterns) {
    handlers.add(name, h);
    mappings.put(name, patterns);
    return this;
  }

  CachedSite clock(Clock clock) {
    this.clock = clock;
    return this;
  }

  CachedSite store(Store store) {
    this.store = store;
    return this;
  }

  CachedSite countSource(org.pagecache.counters.CountSource source) {
    this.source = source;
    return this;
  }

  /** Maps the filter for REQUEST dispatches only (not ASYNC), as an application may. */
  CachedSite requestDispatchesOnly() {
    this.requestOnly = true;
    return this;
  }

  /** The connector also speaks HTTP/2 without TLS (h2c). */
  CachedSite http2() {
    this.http2 = true;
    return this;
  }

  CachedSite alsoOnForward() {
    this.forwardDispatch = true;
    return this;
  }

  /** A filter ordered before PageCache's (a security filter, say), in the order added. */
  CachedSite before(jakarta.servlet.Filter f) {
    before.add(f);
    return this;
  }

  /** More setup of the context before it starts: other servlets, a security handler. */
  CachedSite with(Consumer<ServletContextHandler> setup) {
    extras.add(setup);
    return this;
  }

  CachedSite start() {
    PageCacheConfig.Builder b = PageCacheConfig.builder().ignoreEnvironment().clock(clock);
    params.forEach(b::set);
    if (store != null) {
      b.store(store);
    }
    if (source != null) {
      b.countSource(source);
    }
    PageCacheFilter filter = new PageCacheFilter(b.build());
    Consumer<ServletContextHandler> setup = ctx -> {
      before.forEach(f -> ctx.addFilter(new FilterHolder(f), "/*", EnumSet.of(DispatcherType.REQUEST)));
      FilterHolder holder = new FilterHolder(filter);
      ctx.addFilter(holder, "/*", forwardDispatch
          ? EnumSet.of(DispatcherType.REQUEST, DispatcherType.ASYNC, DispatcherType.FORWARD, DispatcherType.INCLUDE)
          : requestOnly ? EnumSet.of(DispatcherType.REQUEST) : EnumSet.of(DispatcherType.REQUEST, DispatcherType.ASYNC));
      handlers.forEach(e -> JettyServer.servlet(ctx, e.getKey(), e.getValue(), mappings.get(e.getKey())));
      extras.forEach(extra -> extra.accept(ctx));
    };
    jetty = http2 ? JettyServer.startWithHttp2(setup) : JettyServer.start(setup);
    cache = PageCache.from(jetty.context().getServletContext());
    return this;
  }

  int calls(String handler) {
    return handlers.calls(handler);
  }

  URI uri(String path) {
    return jetty.uri(path);
  }

  HttpResponse<byte[]> get(String path, String... headers) {
    return Http.get(uri(path), headers);
  }

  /** The memcached key of a page without varied headers, as the filter computes it. */
  String pageKey(String handler, String path, String query) {
    return cache.config.namespace.page(handler,
        PageKey.canonical("http", "127.0.0.1", jetty.port(), path, query, java.util.List.of()));
  }

  /**
   * The rebuild lock key a build of this page takes now: one per version, the handler's token as
   * this JVM knows it (pages without tags).
   */
  String lockKey(String handler, String path) {
    return cache.engine.lock.key(pageKey(handler, path, null), cache.engine.tokens.remembered(handler));
  }

  ServletContextHandler context() {
    return jetty.context();
  }

  @Override
  public void close() {
    if (jetty != null) {
      jetty.close();
    }
  }
}
