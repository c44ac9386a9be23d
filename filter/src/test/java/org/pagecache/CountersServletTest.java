package org.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.reflect.Proxy;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.ContextHandlerCollection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.pagecache.counters.Counters;
import org.pagecache.counters.CountersSettings;
import org.pagecache.store.Namespace;
import org.pagecache.store.MemcachedStore;
import org.pagecache.store.Store;
import org.pagecache.store.StoreException;
import org.pagecache.testing.MemcachedExtension;
import org.pagecache.testing.MutableClock;

/**
 * The counters endpoint over real HTTP on an embedded Jetty, in three web applications: one
 * with counters in a real memcached, one whose memcached is down, one where the filter never
 * published counters.
 */
class CountersServletTest {
  @RegisterExtension
  static MemcachedExtension memcached = MemcachedExtension.nodes(1);
  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private static final MutableClock CLOCK = new MutableClock();
  /** Source loads per object key: what a request costs the database. */
  private static final Map<String, AtomicInteger> LOADS = new ConcurrentHashMap<>();
  private static Server server;
  private static Store store;
  private static Counters counters;
  private static Counters countersWithoutMemcached;
  private static String base;

  @BeforeAll
  static void startJetty() throws Exception {
    store = new MemcachedStore(new MemcachedStore.Settings(memcached.servers(), false, Duration.ofSeconds(1),
        MemcachedExtension.TEST_OP_TIMEOUT, 1));
    counters = Counters.builder(store, new Namespace("servlet"))
        .source(key -> {
          LOADS.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet();
          return key.equals("article:42") ? 1231 : 5;
        })
        .settings(CountersSettings.builder().onlineCacheFor(Duration.ZERO).build())
        .clock(CLOCK).build();
    for (String visitor : new String[] {"v1", "v2", "v3"}) {
      counters.visit(visitor);
    }
    CLOCK.advance(Duration.ofMinutes(1)); // their minute is complete: 3 online
    // A memcached that is down: every call fails the way a real client's would.
    Store down = (Store) Proxy.newProxyInstance(Store.class.getClassLoader(), new Class<?>[] {Store.class},
        (proxy, method, args) -> switch (method.getName()) {
          case "describe" -> "down";
          case "close" -> null;
          default -> throw new StoreException("test: memcached is down");
        });
    countersWithoutMemcached = Counters.builder(down, new Namespace("down")).build();

    server = new Server(0);
    ContextHandlerCollection contexts = new ContextHandlerCollection();
    contexts.addHandler(context("/app", counters));
    contexts.addHandler(context("/down", countersWithoutMemcached));
    contexts.addHandler(context("/unconfigured", null));
    server.setHandler(contexts);
    server.start();
    base = "http://127.0.0.1:" + ((ServerConnector) server.getConnectors()[0]).getLocalPort();
  }

  private static ServletContextHandler context(String path, Counters published) {
    ServletContextHandler context = new ServletContextHandler(path);
    context.addServlet(CountersServlet.class, "/counters");
    if (published != null) {
      context.setAttribute(Counters.class.getName(), published);
    }
    return context;
  }

  @AfterAll
  static void stopJetty() throws Exception {
    server.stop();
    counters.close();
    countersWithoutMemcached.close();
    store.close();
  }

  private static HttpResponse<String> get(String pathAndQuery) throws Exception {
    return HTTP.send(HttpRequest.newBuilder(URI.create(base + pathAndQuery)).timeout(Duration.ofSeconds(10)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void answersTheRequestedViewsAndOnlineAsJson() throws Exception {
    counters.viewed("article:42");
    counters.viewed("article:42");
    counters.viewed("article:42");

    HttpResponse<String> r = get("/app/counters?views=article:42&views=article:7&online");

    assertEquals(200, r.statusCode());
    assertEquals("{\"views\":{\"article:42\":1234,\"article:7\":5},\"online\":3}", r.body());
    assertEquals("no-store", r.headers().firstValue("Cache-Control").orElseThrow());
    assertEquals("application/json;charset=utf-8",
        r.headers().firstValue("Content-Type").orElseThrow().replace(" ", "").toLowerCase());
  }

  @Test
  void answersOnlyWhatWasAsked() throws Exception {
    assertEquals("{\"views\":{\"photo/1\":5}}", get("/app/counters?views=photo/1").body());
    assertEquals("{\"online\":3}", get("/app/counters?online").body());
    assertEquals("{}", get("/app/counters").body());
  }

  @Test
  void readingNeverCounts() throws Exception {
    for (int i = 0; i < 3; i++) {
      assertEquals("{\"views\":{\"video:3\":5}}", get("/app/counters?views=video:3").body());
    }
    assertEquals(5, counters.views("video:3"));
  }

  @Test
  void aBadObjectKeyIsA400WithAnEscapedMessage() throws Exception {
    HttpResponse<String> r = get("/app/counters?views=article:1&views=%22%3E%3Cscript%3E%5C");

    assertEquals(400, r.statusCode());
    assertEquals("{\"error\":\"views: '\\\"\\u003e\\u003cscript\\u003e\\\\' is not an object key; "
        + "use 1 to 200 of A-Z a-z 0-9 : _ . / -\"}", r.body());
    assertEquals("no-store", r.headers().firstValue("Cache-Control").orElseThrow());
  }

  @Test
  void moreThanTwentyKeysIsA400NamingTheLimitAndLoadsNothing() throws Exception {
    HttpResponse<String> r = get("/app/counters?" + views("capped:", 21));

    assertEquals(400, r.statusCode());
    assertEquals("{\"error\":\"views: 21 object keys asked, at most 20 per request\"}", r.body());
    assertEquals("no-store", r.headers().firstValue("Cache-Control").orElseThrow());
    assertEquals(0, loads("capped:"), "an oversized request costs the database nothing");
    assertEquals(200, get("/app/counters?" + views("capped:", 20)).statusCode());
  }

  @Test
  void theLimitCountsDistinctKeys() throws Exception {
    String twentyTwice = views("twice:", 20) + "&" + views("twice:", 20);

    assertEquals(200, get("/app/counters?" + twentyTwice).statusCode());
    assertEquals(20, loads("twice:"));
  }

  @Test
  void missingCountersAreLoadedOnceThenReadFromMemcached() throws Exception {
    String query = views("listed:", 20);

    HttpResponse<String> first = get("/app/counters?" + query);
    HttpResponse<String> second = get("/app/counters?" + query);

    assertEquals(200, first.statusCode());
    assertEquals(first.body(), second.body());
    assertEquals(20, loads("listed:"), "one load per missing counter, none on the second read");
  }

  private static String views(String prefix, int count) {
    return IntStream.range(0, count).mapToObj(i -> "views=" + prefix + i).collect(Collectors.joining("&"));
  }

  private static int loads(String prefix) {
    return LOADS.entrySet().stream().filter(e -> e.getKey().startsWith(prefix))
        .mapToInt(e -> e.getValue().get()).sum();
  }

  @Test
  void onlyGetIsServed() throws Exception {
    HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(base + "/app/counters?views=post:1"))
        .POST(HttpRequest.BodyPublishers.ofString("views=post:1")).build(), HttpResponse.BodyHandlers.ofString());

    assertEquals(405, r.statusCode());
    assertEquals("GET, HEAD", r.headers().firstValue("Allow").orElseThrow());
    assertEquals("{\"error\":\"POST is not allowed here; counters are read with GET\"}", r.body());
    assertEquals(5, counters.views("post:1"), "a POST counts nothing either");
  }

  @Test
  void countsUnknownBecauseMemcachedIsDownAreNull() throws Exception {
    HttpResponse<String> r = get("/down/counters?views=article:1&online");

    assertEquals(200, r.statusCode());
    assertEquals("{\"views\":{\"article:1\":null},\"online\":null}", r.body());
  }

  @Test
  void withoutCountersInTheContextTheAnswerIs503() throws Exception {
    HttpResponse<String> r = get("/unconfigured/counters?online");

    assertEquals(503, r.statusCode());
    assertEquals("{\"error\":\"the PageCache filter is not configured: no Counters in the ServletContext "
        + "attribute org.pagecache.counters.Counters\"}", r.body());
  }
}
