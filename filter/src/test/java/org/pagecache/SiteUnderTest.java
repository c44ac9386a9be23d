package org.pagecache;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.ServletRequestEvent;
import jakarta.servlet.ServletRequestListener;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.http.HttpTester;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.http.UriCompliance;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.LocalConnector;
import org.eclipse.jetty.server.Server;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.pagecache.store.LocalStore;
import org.pagecache.store.MemcachedStore;
import org.pagecache.store.Store;
import org.pagecache.testing.JettyApi;
import org.pagecache.testing.JettyServer;
import org.pagecache.testing.MemcachedExtension;

/**
 * The fast tier's site: a real Jetty 12 server with the PageCacheFilter in front of named handlers,
 * reached through Jetty's {@link LocalConnector} (the whole HTTP/1.1 parser and generator, the
 * servlet container, the filter; no socket), on either store: the in-process {@link LocalStore} or a
 * real memcached from {@link MemcachedExtension}. A behaviour specification is one class per group
 * of behaviours whose tests run on both stores ({@link BothStores}), in seconds. What is about the
 * network (keep-alive, Content-Length on the wire, gzip clients, memcached failing) stays in the
 * integration tier ({@link CachedSite}, real sockets).
 *
 * <pre>{@code
 * @RegisterExtension static MemcachedExtension memcached = MemcachedExtension.nodes(1);
 * @RegisterExtension final SiteUnderTest.Sites sites = new SiteUnderTest.Sites(memcached);
 *
 * @BothStores
 * void missThenHit(SiteUnderTest.Backend backend) {
 *   SiteUnderTest site = sites.on(backend).handler("page", SiteServlets.page(), "/page/*").start();
 *   assertEquals("MISS", site.get("/page/a").xcache());
 *   assertEquals("HIT", site.get("/page/a").xcache());
 * }
 * }</pre>
 */
final class SiteUnderTest implements AutoCloseable {
  /** The store a specification runs on. */
  enum Backend {
    /** {@link LocalStore}: in-process, no memcached. */
    LOCAL_STORE,
    /** {@link MemcachedStore} on a real memcached process. */
    MEMCACHED
  }

  /** A test run once per {@link Backend}; the method takes the backend as its parameter. */
  @Target({ElementType.METHOD, ElementType.ANNOTATION_TYPE})
  @Retention(RetentionPolicy.RUNTIME)
  @ParameterizedTest(name = "{0}")
  @EnumSource(Backend.class)
  @interface BothStores {}

  /** Creates the sites of a test class and closes them after each test. */
  static final class Sites implements AfterEachCallback {
    private final MemcachedExtension memcached;
    private final List<SiteUnderTest> open = new ArrayList<>();

    Sites(MemcachedExtension memcached) {
      this.memcached = memcached;
    }

    /** A site (not started) on this backend, closed after the test. */
    SiteUnderTest on(Backend backend) {
      SiteUnderTest site = new SiteUnderTest(backend, memcached);
      open.add(site);
      return site;
    }

    @Override
    public void afterEach(ExtensionContext context) {
      open.forEach(SiteUnderTest::close);
      open.clear();
    }
  }

  /** A response as it came over the connector: status, headers, body. */
  static final class Response {
    private final HttpTester.Response raw;

    private Response(HttpTester.Response raw) {
      this.raw = raw;
    }

    int status() {
      return raw.getStatus();
    }

    /** The header's first value, or null. */
    String header(String name) {
      return raw.get(name);
    }

    /** Every value of the header, in order. */
    List<String> headers(String name) {
      return raw.getValuesList(name);
    }

    String xcache() {
      return header("X-Cache");
    }

    byte[] body() {
      byte[] bytes = raw.getContentBytes();
      return bytes == null ? new byte[0] : bytes;
    }

    String text() {
      return new String(body(), StandardCharsets.UTF_8);
    }

    @Override
    public String toString() {
      return raw.toString();
    }
  }

  private static final AtomicInteger SITES = new AtomicInteger();
  private static final long LOCAL_STORE_BYTES = 64L * 1024 * 1024;

  final Backend backend;
  final SiteServlets.Registry handlers = new SiteServlets.Registry();
  private MemcachedExtension memcached;
  private java.util.function.UnaryOperator<Store> storeWrapper = java.util.function.UnaryOperator.identity();
  private final Map<String, String> params = new LinkedHashMap<>();
  private final Map<String, String[]> mappings = new LinkedHashMap<>();
  private final List<jakarta.servlet.Filter> before = new ArrayList<>();
  private Clock clock = Clock.systemUTC();
  private Server server;
  private LocalConnector connector;
  /** Requests sent, and requests the server has finished with (the filter's work after the answer included). */
  private long sent;
  private long finished;
  private final Object progress = new Object();
  PageCache cache;

  private SiteUnderTest(Backend backend, MemcachedExtension memcached) {
    this.backend = backend;
    this.memcached = memcached;
    // Its own namespace, so sites sharing one memcached never see each other's pages.
    params.put("namespace", "u" + SITES.incrementAndGet() + "x" + ProcessHandle.current().pid() % 1000);
  }

  SiteUnderTest set(String name, String value) {
    params.put(name, value);
    return this;
  }

  SiteUnderTest handler(String name, SiteServlets.Handler h, String... patterns) {
    handlers.add(name, h);
    mappings.put(name, patterns);
    return this;
  }

  /** A filter ordered before PageCache's (a security filter, say), in the order added. */
  SiteUnderTest before(jakarta.servlet.Filter f) {
    before.add(f);
    return this;
  }

  /** Runs on these memcached servers instead of the test class's (a site per cluster, issue 19). */
  SiteUnderTest cluster(MemcachedExtension servers) {
    this.memcached = servers;
    return this;
  }

  /** Wraps the site's store, e.g. to act at a chosen moment of the flow. */
  SiteUnderTest wrapStore(java.util.function.UnaryOperator<Store> wrapper) {
    this.storeWrapper = wrapper;
    return this;
  }

  SiteUnderTest clock(Clock clock) {
    this.clock = clock;
    return this;
  }

  SiteUnderTest start() {
    PageCacheConfig.Builder b = PageCacheConfig.builder().ignoreEnvironment().clock(clock);
    params.forEach(b::set);
    b.store(storeWrapper.apply(newStore()));
    PageCacheFilter filter = new PageCacheFilter(b.build());

    server = new Server();
    // As permissive as the integration tier's JettyServer: hostile URLs must reach the filter.
    HttpConfiguration http = new HttpConfiguration();
    http.setUriCompliance(UriCompliance.UNSAFE);
    http.setRequestHeaderSize(64 * 1024);
    connector = new LocalConnector(server, new HttpConnectionFactory(http));
    server.addConnector(connector);
    ServletContextHandler ctx = new ServletContextHandler(ServletContextHandler.SESSIONS);
    ctx.setContextPath("/");
    JettyApi.decodeAmbiguousUris(ctx);
    before.forEach(f -> ctx.addFilter(new FilterHolder(f), "/*", EnumSet.of(DispatcherType.REQUEST)));
    ctx.addFilter(new FilterHolder(filter), "/*", EnumSet.of(DispatcherType.REQUEST, DispatcherType.ASYNC));
    ctx.addEventListener(new ServletRequestListener() {
      @Override
      public void requestDestroyed(ServletRequestEvent event) {
        synchronized (progress) {
          finished++;
          progress.notifyAll();
        }
      }
    });
    handlers.forEach(e -> JettyServer.servlet(ctx, e.getKey(), e.getValue(), mappings.get(e.getKey())));
    server.setHandler(ctx);
    try {
      server.start();
    } catch (Exception e) {
      close();
      throw new IllegalStateException("Jetty did not start: " + e, e);
    }
    cache = PageCache.from(ctx.getServletContext());
    return this;
  }

  private Store newStore() {
    if (backend == Backend.LOCAL_STORE) {
      return new LocalStore(clock, LOCAL_STORE_BYTES);
    }
    return new MemcachedStore(new MemcachedStore.Settings(memcached.servers(), false,
        java.time.Duration.ofSeconds(1), MemcachedExtension.TEST_OP_TIMEOUT, 1));
  }

  int calls(String handler) {
    return handlers.calls(handler);
  }

  /** Round trips to the store so far (a hit through memcached costs one). */
  long roundTrips() {
    return cache.store().roundTrips();
  }

  Response get(String pathAndQuery, String... headers) {
    return send("GET", pathAndQuery, headers);
  }

  Response head(String pathAndQuery, String... headers) {
    return send("HEAD", pathAndQuery, headers);
  }

  /**
   * One request, with name/value header pairs, on its own connection. Returns once the server has
   * finished with it: the client has the whole answer before the filter has stored the page and
   * released the lock, and the next request of a test must not race that work.
   */
  Response send(String method, String pathAndQuery, String... headers) {
    long number;
    synchronized (progress) {
      number = ++sent;
    }
    HttpTester.Request request = HttpTester.newRequest();
    request.setMethod(method);
    request.setURI(pathAndQuery);
    request.setVersion(HttpVersion.HTTP_1_1);
    request.put("Host", "localhost");
    for (int i = 0; i + 1 < headers.length; i += 2) {
      request.add(headers[i], headers[i + 1]);
    }
    return exchange(number, method, pathAndQuery, request.generate());
  }

  /**
   * One request written as it stands (request line, headers and body, its framing the caller's:
   * a {@code Content-Length} body, a chunked one), on its own connection.
   */
  Response raw(String request) {
    long number;
    synchronized (progress) {
      number = ++sent;
    }
    String line = request.substring(0, request.indexOf('\r'));
    String[] parts = line.split(" ");
    return exchange(number, parts[0], parts[1], ByteBuffer.wrap(request.getBytes(StandardCharsets.ISO_8859_1)));
  }

  private Response exchange(long number, String method, String pathAndQuery, ByteBuffer bytes) {
    boolean head = "HEAD".equals(method);
    try {
      ByteBuffer answer = connector.getResponse(bytes, head, 30, TimeUnit.SECONDS);
      HttpTester.Response response = JettyApi.parseResponse(answer, head);
      if (response == null) {
        throw new IllegalStateException(method + " " + pathAndQuery + ": no complete response within 30 s");
      }
      awaitFinished(number, method + " " + pathAndQuery);
      return new Response(response);
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException(method + " " + pathAndQuery + " failed: " + e, e);
    }
  }

  private void awaitFinished(long number, String what) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    synchronized (progress) {
      while (finished < number) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          throw new IllegalStateException(what + ": answered, but the server did not finish the request within 30 s");
        }
        TimeUnit.NANOSECONDS.timedWait(progress, left);
      }
    }
  }

  @Override
  public void close() {
    if (server != null) {
      try {
        server.stop();
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
      server = null;
    }
  }
}
