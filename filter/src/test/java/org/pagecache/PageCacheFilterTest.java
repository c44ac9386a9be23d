package org.pagecache;

import org.pagecache.stats.HandlerStats;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.pagecache.testing.Concurrently;
import org.pagecache.testing.Eventually;
import org.pagecache.testing.Http;
import org.pagecache.testing.JettyServer;
import org.pagecache.testing.MemcachedExtension;
import org.pagecache.testing.RecordingStore;

/**
 * The filter through real HTTP on embedded Jetty with a real memcached: what a page cache must do
 * where the wire, the client or memcached itself is part of it (Content-Length and gzip on the wire,
 * hostile URLs, keys in memcached, failures). The behaviour specifications that need neither
 * (hit and miss, HEAD, conditional requests, what is cacheable) run on both stores in the fast
 * tier: {@link HitAndMissSpec}, {@link ConditionalRequestsSpec}, {@link CacheabilitySpec}.
 */
class PageCacheFilterTest {
  @RegisterExtension
  static MemcachedExtension memcached = MemcachedExtension.nodes(1);

  @RegisterExtension
  final CachedSite.Sites sites = new CachedSite.Sites(memcached);
  private CachedSite site;

  private CachedSite site() {
    site = sites.open();
    return site;
  }

  private static String xcache(HttpResponse<?> r) {
    return r.headers().firstValue("X-Cache").orElse(null);
  }

  @Test
  void aHitHasOneContentLengthAndNoTransferEncoding() {
    site().handler("page", SiteServlets.page(), "/page/*").start();
    site.get("/page/cl");
    String raw = Http.raw(site.jetty.port(), "GET /page/cl HTTP/1.1\r\nHost: 127.0.0.1:" + site.jetty.port() + "\r\nConnection: close\r\n\r\n");
    String head = raw.substring(0, raw.indexOf("\r\n\r\n")).toLowerCase();
    assertTrue(head.contains("x-cache: hit"), head);
    assertEquals(1, head.split("content-length:", -1).length - 1, head);
    assertFalse(head.contains("transfer-encoding"), head);
  }

  @Test
  void gzipAndIdentityClientsBothGetTheRightBody() throws IOException {
    site().handler("page", SiteServlets.page(), "/page/*").start();
    String identity = Http.text(site.get("/page/gz"));
    HttpResponse<byte[]> gz = site.get("/page/gz", "Accept-Encoding", "gzip");
    assertEquals("gzip", gz.headers().firstValue("Content-Encoding").orElse(null));
    assertTrue(gz.headers().firstValue("Vary").orElse("").contains("Accept-Encoding"));
    byte[] inflated = new GZIPInputStream(new ByteArrayInputStream(gz.body())).readAllBytes();
    assertEquals(identity, new String(inflated, StandardCharsets.UTF_8));
    HttpResponse<byte[]> plain = site.get("/page/gz", "Accept-Encoding", "gzip;q=0, identity");
    assertFalse(plain.headers().firstValue("Content-Encoding").isPresent());
    assertEquals(identity, Http.text(plain));
    assertTrue(plain.headers().firstValue("Vary").orElse("").contains("Accept-Encoding"));
    assertFalse(gz.headers().firstValue("ETag").equals(plain.headers().firstValue("ETag")),
        "two representations, two strong ETags");
    assertEquals(1, site.calls("page"));
  }

  @Test
  void writerWithANonUtf8CharsetRoundTripsByteExact() {
    String text = "Привет, мир: цена 100 ₽? no, just windows-1251 text";
    String safe = text.replace("₽", "");
    Charset cp1251 = Charset.forName("windows-1251");
    site().handler("cp", SiteServlets.of((req, res, call) -> {
      res.setContentType("text/plain;charset=windows-1251");
      res.getWriter().print(safe);
    }), "/cp").start();
    HttpResponse<byte[]> miss = site.get("/cp");
    HttpResponse<byte[]> hit = site.get("/cp");
    assertArrayEquals(safe.getBytes(cp1251), miss.body());
    assertArrayEquals(safe.getBytes(cp1251), hit.body());
    assertEquals("HIT", xcache(hit));
    assertTrue(hit.headers().firstValue("Content-Type").orElse("").toLowerCase().contains("charset=windows-1251"));
  }

  @Test
  void contentTypeIsReadAtTheEndNotAtGetWriter() {
    site().handler("late", SiteServlets.of((req, res, call) -> {
      res.setCharacterEncoding("UTF-8");
      res.getWriter().print("{\"late\":true}");
      res.setContentType("application/json");
    }), "/late").start();
    site.get("/late");
    HttpResponse<byte[]> hit = site.get("/late");
    assertEquals("HIT", xcache(hit));
    assertEquals("application/json;charset=utf-8", hit.headers().firstValue("Content-Type").orElse("").toLowerCase());
    assertEquals("{\"late\":true}", Http.text(hit));
  }

  @Test
  void everyKindOfHeaderIsCaptured() {
    site().handler("hdr", SiteServlets.of((req, res, call) -> {
      res.setDateHeader("Last-Modified", 0);
      res.setIntHeader("X-Int", 42);
      res.addHeader("X-Multi", "one");
      res.addHeader("X-Multi", "two");
      res.setHeader("Date", "should not be stored");
      res.getWriter().print("h");
    }), "/hdr").start();
    site.get("/hdr");
    HttpResponse<byte[]> hit = site.get("/hdr");
    assertEquals("HIT", xcache(hit));
    assertEquals("Thu, 1 Jan 1970 00:00:00 GMT", hit.headers().firstValue("Last-Modified").orElse(null));
    assertEquals("42", hit.headers().firstValue("X-Int").orElse(null));
    assertEquals(java.util.List.of("one", "two"), hit.headers().allValues("X-Multi"));
    assertFalse(hit.headers().firstValue("Date").orElse("").contains("should not"));
  }

  @Test
  void resetAndResetBufferClearWhatWasCaptured() {
    site().handler("reset", SiteServlets.of((req, res, call) -> {
      res.setHeader("X-Junk", "1");
      res.getWriter().print("junk");
      res.reset();
      res.setContentType("text/plain");
      res.getWriter().print("junk2");
      res.resetBuffer();
      res.getWriter().print("clean");
    }), "/reset").start();
    HttpResponse<byte[]> miss = site.get("/reset");
    HttpResponse<byte[]> hit = site.get("/reset");
    assertEquals("clean", Http.text(miss));
    assertEquals("clean", Http.text(hit));
    assertFalse(hit.headers().firstValue("X-Junk").isPresent());
  }

  // ---- bypass rules ----

  @Test
  void aBodyLargerThanTheMaximumIsStreamedWholeAndNotCached() {
    int size = 2 * 1024 * 1024;
    site().handler("big", SiteServlets.bytes(size), "/big").start();
    HttpResponse<byte[]> first = site.get("/big");
    assertEquals(200, first.statusCode());
    assertEquals(size, first.body().length);
    assertEquals((byte) (8191 * 31 + 1), first.body()[8191]);
    assertNotNull(memcached.text(0).getBytes(site.pageKey("big", "/big", null)), "remembered as uncacheable");
    HttpResponse<byte[]> second = site.get("/big");
    assertEquals(size, second.body().length);
    assertEquals("BYPASS", xcache(second));
    assertTrue(second.headers().firstValue("Cache-Status").orElse("").contains("too-large"));
    assertEquals(2, site.calls("big"));
  }

  @Test
  void theTagsHeaderNeverReachesTheClientOfAPageTooLargeToCache() {
    site().handler("bigTagged", SiteServlets.of((req, res, call) -> {
      res.setHeader("X-Cache-Tags", "before:overflow");
      res.setContentType("application/octet-stream");
      res.getOutputStream().write(new byte[2 * 1024 * 1024]); // outgrows max.entry.size: passes through
    }), "/big-tagged").start();
    HttpResponse<byte[]> r = site.get("/big-tagged");
    assertEquals(200, r.statusCode());
    assertEquals(2 * 1024 * 1024, r.body().length);
    assertFalse(r.headers().firstValue("X-Cache-Tags").isPresent(), "tag header stripped on pass-through");
  }

  @Test
  void theTagsHeaderNeverReachesTheClientOfAPostOrABypassedHead() {
    HttpServlet tagging = new HttpServlet() {
      @Override
      protected void service(HttpServletRequest req, HttpServletResponse res) throws IOException {
        res.setHeader("X-Cache-Tags", "article:1");
        res.addHeader("X-Cache-Tags", "section:2");
        res.setContentType("text/plain");
        res.getWriter().print("ok");
      }
    };
    site().with(ctx -> JettyServer.servlet(ctx, "tagging", tagging, "/tagging")).start();

    HttpResponse<byte[]> post = Http.post(site.uri("/tagging"), "form=1");
    HttpResponse<byte[]> head = Http.head(site.uri("/tagging"), "Authorization", "Basic dTpw");

    assertEquals(List.of(200, 200), List.of(post.statusCode(), head.statusCode()));
    assertEquals("BYPASS", xcache(head));
    assertTrue(post.headers().allValues("X-Cache-Tags").isEmpty(), "POST goes straight through, without the tags");
    assertTrue(head.headers().allValues("X-Cache-Tags").isEmpty(), "so does a HEAD that bypasses");
  }

  @Test
  void theCachePlaceholderSaysHowEachResponseWasServedEvenWithTheHeaderOff() {
    site().set("header", "none").handler("footer", SiteServlets.of((req, res, call) -> {
      res.setContentType("text/html;charset=UTF-8");
      res.getWriter().print("<p>call " + call + ", served: <!--pagecache:cache--></p>");
    }), "/footer").start();

    assertEquals("<p>call 1, served: MISS</p>", Http.text(site.get("/footer")));
    HttpResponse<byte[]> hit = site.get("/footer");
    assertEquals("<p>call 1, served: HIT</p>", Http.text(hit));
    assertNull(xcache(hit), "header=none");
    assertEquals("<p>call 2, served: BYPASS</p>", Http.text(site.get("/footer", "Authorization", "Basic dTpw")));
    assertEquals(2, site.calls("footer"));
  }

  @Test
  void everyAnswerCarriesOneExactContentLengthAndNoTransferEncoding() {
    byte[] body = "a body the handler measured itself".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    site().handler("measured", SiteServlets.of((req, res, call) -> {
      res.setContentType("text/plain");
      res.setContentLength(body.length);
      res.addHeader("Content-Length", String.valueOf(body.length)); // twice, as some frameworks do
      res.getOutputStream().write(body);
      res.flushBuffer();
    }), "/measured").start();

    HttpResponse<byte[]> miss = site.get("/measured");
    HttpResponse<byte[]> hit = site.get("/measured");
    HttpResponse<byte[]> bypass = site.get("/measured", "Authorization", "Basic dTpw");

    assertEquals(List.of("MISS", "HIT", "BYPASS"), List.of(xcache(miss), xcache(hit), xcache(bypass)));
    for (HttpResponse<byte[]> r : List.of(miss, hit, bypass)) {
      assertArrayEquals(body, r.body(), xcache(r));
      assertEquals(List.of(String.valueOf(body.length)), r.headers().allValues("Content-Length"), xcache(r));
      assertTrue(r.headers().allValues("Transfer-Encoding").isEmpty(), xcache(r));
    }
  }

  @Test
  void flushingABodyThatFitsStillCachesIt() {
    site().handler("flushy", SiteServlets.bytes(20_000), "/flushy").start();
    HttpResponse<byte[]> first = site.get("/flushy");
    HttpResponse<byte[]> second = site.get("/flushy");
    assertEquals(20_000, first.body().length);
    assertArrayEquals(first.body(), second.body());
    assertEquals("HIT", xcache(second));
  }

  @Test
  void anAsyncResponseIsCapturedStoredAndServedAsAHit() {
    site().handler("async", SiteServlets.async(), "/async").start();
    site.context().getServletHandler().getServlet("async").setAsyncSupported(true);
    HttpResponse<byte[]> first = site.get("/async");
    HttpResponse<byte[]> second = site.get("/async");
    assertEquals(200, first.statusCode());
    assertEquals("async call 1", Http.text(first));
    assertEquals("MISS", xcache(first));
    assertEquals("HIT", xcache(second));
    assertEquals("async call 1", Http.text(second));
    assertEquals(1, site.calls("async"));
  }

  /**
   * A servlet that starts async (with the wrappers it got, or without), then dispatches back to
   * itself, which writes the page.
   */
  private static SiteServlets.Handler dispatching(boolean withWrappers) {
    return SiteServlets.of((req, res, call) -> {
      if (req.getDispatcherType() == jakarta.servlet.DispatcherType.ASYNC) {
        res.setContentType("text/plain");
        res.getWriter().print("dispatched " + req.getAttribute("first") + " " + "x".repeat(5000));
        return;
      }
      req.setAttribute("first", call);
      jakarta.servlet.AsyncContext ctx = withWrappers ? req.startAsync(req, res) : req.startAsync();
      ctx.start(ctx::dispatch);
    });
  }

  @Test
  void anAsyncResponseThatIsDispatchedIsCapturedStoredAndServedAsAHit() {
    dispatchedPageIsAHit(false);
  }

  @Test
  void anAsyncResponseDispatchedWithTheWrappersItWasStartedWithIsAHitToo() {
    dispatchedPageIsAHit(true);
  }

  private void dispatchedPageIsAHit(boolean withWrappers) {
    site().handler("dispatching", dispatching(withWrappers), "/dispatching/*").start();
    site.context().getServletHandler().getServlet("dispatching").setAsyncSupported(true);
    // The first ASYNC dispatch tells the filter that it is mapped for them; that one goes out uncached.
    HttpResponse<byte[]> teaching = site.get("/dispatching/first");
    assertTrue(Http.text(teaching).startsWith("dispatched 1 xxx"), Http.text(teaching));
    int calls = site.calls("dispatching");
    HttpResponse<byte[]> first = site.get("/dispatching/page");
    HttpResponse<byte[]> second = site.get("/dispatching/page");
    assertEquals("MISS", xcache(first));
    assertEquals("dispatched " + (calls + 1) + " " + "x".repeat(5000), Http.text(first));
    assertEquals("HIT", xcache(second));
    assertEquals(Http.text(first), Http.text(second), "the whole body, stored");
    assertEquals(calls + 2, site.calls("dispatching"), "one build: the first pass and its dispatch");
  }

  @Test
  void anAsyncDispatchTheFilterIsNotMappedForGoesOutUncachedAndWhole() {
    site().requestDispatchesOnly().handler("dispatching", dispatching(true), "/dispatching").start();
    site.context().getServletHandler().getServlet("dispatching").setAsyncSupported(true);
    HttpResponse<byte[]> first = site.get("/dispatching");
    HttpResponse<byte[]> second = site.get("/dispatching");
    assertEquals("dispatched 1 " + "x".repeat(5000), Http.text(first), "handed to the client, not kept in the capture");
    assertEquals("dispatched 3 " + "x".repeat(5000), Http.text(second), "not stored: built again");
    assertEquals("BYPASS", xcache(second));
  }

  @Test
  void anAsyncResponseCompletedWithTheWrappersItWasStartedWithIsCapturedToo() {
    site().handler("async2", SiteServlets.of((req, res, call) -> {
      jakarta.servlet.AsyncContext ctx = req.startAsync(req, res);
      ctx.start(() -> {
        try {
          res.setContentType("text/plain");
          res.getWriter().print("async with wrappers " + call);
        } catch (java.io.IOException e) {
          throw new IllegalStateException(e);
        } finally {
          ctx.complete();
        }
      });
    }), "/async2").start();
    site.context().getServletHandler().getServlet("async2").setAsyncSupported(true);
    site.get("/async2");
    HttpResponse<byte[]> second = site.get("/async2");
    assertEquals("HIT", xcache(second));
    assertEquals("async with wrappers 1", Http.text(second));
  }

  @Test
  void aForwardThroughTheFilterAgainIsCapturedOnce() {
    site().alsoOnForward()
        .handler("front", SiteServlets.of((req, res, call) ->
            req.getRequestDispatcher("/page/inner").forward(req, res)), "/front")
        .handler("page", SiteServlets.page(), "/page/*").start();
    HttpResponse<byte[]> first = site.get("/front");
    HttpResponse<byte[]> second = site.get("/front");
    assertTrue(Http.text(first).contains("page /page/inner"), Http.text(first));
    assertEquals(Http.text(first), Http.text(second));
    assertEquals("HIT", xcache(second));
    assertEquals(1, site.calls("page"));
  }

  // ---- hostile input ----

  @Test
  void aHugeQueryStringIsServedAndCachedUnderAValidKey() {
    site().handler("page", SiteServlets.page(), "/page/*").start();
    String query = "q=" + "x".repeat(10_000);
    assertEquals(200, site.get("/page/long?" + query).statusCode());
    assertEquals("HIT", xcache(site.get("/page/long?" + query)));
    assertEquals(1, site.calls("page"));
  }

  @Test
  void controlCharactersAndNonAsciiInThePathAreServedAndCachedUnderAValidKey() {
    RecordingStore store = RecordingStore.onMemcached(memcached.servers());
    site().store(store).set("near.trust", "0s") // the second request must look the key up in memcached
        .handler("page", SiteServlets.page(), "/page/*").start();
    Set<String> keys = new HashSet<>();
    // Percent-encoded control characters (NUL only in the query, see below), DEL, a space and
    // non-ASCII, as java.net.http sends them.
    for (String target : new String[] {"/page/a%01b%0Ac%0D%7Fd%20e", "/page/q?x=%00%0A%0D&y=%01",
        "/page/%D0%BF%D1%80%D0%B8%D0%B2%D0%B5%D1%82", "/page/caf%C3%A9%20x"}) {
      keys.add(servedAndCachedUnderAValidKey(store, target, () -> {
        HttpResponse<byte[]> r = site.get(target);
        return new Answer(r.statusCode(), xcache(r));
      }));
    }
    // Raw UTF-8 bytes in the request line, not percent-encoded, as a careless client sends them.
    for (String target : new String[] {"/page/\u00e9t\u00e9", "/page/q?x=\u00e9"}) {
      keys.add(servedAndCachedUnderAValidKey(store, target, () -> rawGet(target)));
    }
    assertEquals(6, keys.size(), "every input is a page of its own: " + keys);

    // Jetty refuses these itself with a 400, before any filter runs (even with UriCompliance.UNSAFE):
    // an encoded NUL in the path (its URI parser), a raw control byte or DEL in the request line
    // (its HTTP parser: "Illegal character CNTL=0x1"). The filter and the store never see them.
    for (String target : new String[] {"/page/a%00b", "/page/a\u0001b", "/page/a\u007fb"}) {
      int calls = site.calls("page");
      store.clear();
      assertEquals(400, rawGet(target).status(), "Jetty refuses " + shown(target));
      assertEquals(calls, site.calls("page"), "no handler ran for " + shown(target));
      assertEquals(List.of(), store.calls(), "the store was not asked about " + shown(target));
    }
  }

  /** Status and X-Cache label of one answer. */
  private record Answer(int status, String xCache) {}

  /**
   * Requests {@code target} twice: the first is a 200 MISS that runs the handler and stores the page
   * once, under a valid memcached key that memcached really holds; the second is a HIT looked up
   * under that same key. Every key the store was handed meanwhile is valid. Returns the page's key.
   */
  private String servedAndCachedUnderAValidKey(RecordingStore store, String target, Supplier<Answer> request) {
    String what = shown(target);
    int calls = site.calls("page");
    store.clear();
    Answer first = request.get();
    assertEquals(200, first.status(), what);
    assertEquals("MISS", first.xCache(), what);
    assertEquals(calls + 1, site.calls("page"), what);
    List<String> stored = store.keys("set");
    assertEquals(1, stored.size(), what + ": stored once, got " + store.calls());
    String key = stored.get(0);
    store.calls().forEach(c -> assertValidKey(c.key(), what + " (" + c.op() + ")"));
    assertNotNull(memcached.text(0).getBytes(key), what + ": memcached holds the page under " + key);

    store.clear();
    Answer second = request.get();
    assertEquals(200, second.status(), what);
    assertEquals("HIT", second.xCache(), what);
    assertEquals(calls + 1, site.calls("page"), what + ": served from memcached, not the handler");
    assertTrue(store.keys("getMulti").contains(key), what + ": looked up under " + key + ", got " + store.calls());
    store.calls().forEach(c -> assertValidKey(c.key(), what + " (" + c.op() + ")"));
    return key;
  }

  /** memcached's rule for a key, checked here independently of the code under test's own check. */
  private static void assertValidKey(String key, String what) {
    int bytes = key.getBytes(StandardCharsets.UTF_8).length;
    assertTrue(bytes >= 1 && bytes <= 250, what + ": key of " + bytes + " bytes: " + key);
    for (char c : key.toCharArray()) {
      assertTrue(c > 0x20 && c < 0x7f, what + ": key with character " + (int) c + ": " + shown(key));
    }
  }

  /** A GET written byte for byte (the target as UTF-8), for request lines java.net.http refuses to send. */
  private Answer rawGet(String target) {
    String raw = Http.raw(site.jetty.port(), ("GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        .getBytes(StandardCharsets.UTF_8));
    List<String> head = raw.substring(0, Math.max(0, raw.indexOf("\r\n\r\n"))).lines().toList();
    assertFalse(head.isEmpty(), "no answer to " + shown(target) + ": " + raw);
    int status = Integer.parseInt(head.get(0).split(" ")[1]);
    String xCache = head.stream().filter(h -> h.regionMatches(true, 0, "X-Cache:", 0, 8))
        .map(h -> h.substring(8).trim()).findFirst().orElse(null);
    return new Answer(status, xCache);
  }

  private static String shown(String s) {
    return s.replaceAll("\\p{Cntrl}", "?");
  }

  @Test
  void garbageUnderAPageKeyIsAMissAndTheEntryIsRepaired() {
    site().set("near.trust", "0s") // the garbage is written to memcached behind this JVM's back
        .handler("page", SiteServlets.page(), "/page/*").start();
    site.get("/page/garbage");
    String key = site.pageKey("page", "/page/garbage", null);
    memcached.text(0).setRaw(key, "not a page at all \u0000\u00ff".getBytes(StandardCharsets.ISO_8859_1), 0, 60);
    HttpResponse<byte[]> repaired = site.get("/page/garbage");
    assertEquals(200, repaired.statusCode());
    assertEquals("MISS", xcache(repaired));
    assertTrue(Http.text(repaired).contains("call 2"));
    assertEquals("HIT", xcache(site.get("/page/garbage")));
  }

  @Test
  void aRefusedPageIsRememberedSoNobodyWaitsOnIt() {
    site().handler("cookie", SiteServlets.cookie(), "/cookie").start();
    site.get("/cookie");
    String key = site.pageKey("cookie", "/cookie", null);
    assertNotNull(memcached.text(0).getBytes(key), "a small marker entry is stored");
    HttpResponse<byte[]> second = site.get("/cookie");
    assertTrue(second.headers().firstValue("Cache-Status").orElse("").contains("set-cookie"));

    // Now many at once: every one is answered by the handler at once, none takes the lock or waits for it.
    HandlerStats before = site.cache.stats("cookie");
    long waitsBefore = before.lockWaits();
    String traceBefore = before.trace();
    List<HttpResponse<byte[]>> burst = Concurrently.run(20, Duration.ofSeconds(30), i -> site.get("/cookie"));
    burst.forEach(r -> assertEquals("BYPASS", xcache(r)));
    HandlerStats after = site.cache.stats("cookie");
    assertEquals(waitsBefore, after.lockWaits(), "nobody waited on a lock");
    String added = after.trace().substring(traceBefore.length());
    assertEquals(20, added.chars().filter(c -> c == 'B').count(), added);
    assertFalse(added.contains("L"), "no lock taken after the marker: " + added);
  }

  // ---- memcached failures ----

  @Test
  void whenMemcachedDiesEveryRequestIsStillServedAndCachingResumesAfterItReturns() {
    site().set("retry.interval", "200ms").set("near.trust", "0s").handler("page", SiteServlets.page(), "/page/*").start();
    site.get("/page/down");
    memcached.node(0).stop();
    try {
      for (int i = 0; i < 20; i++) {
        HttpResponse<byte[]> r = site.get("/page/down");
        assertEquals(200, r.statusCode());
        assertTrue(Http.text(r).contains("page /page/down"));
      }
      assertTrue(site.calls("page") >= 20, "served by the handler while memcached is down");
    } finally {
      memcached.node(0).start();
    }
    // Until xmemcached has reconnected, every request is still a 200 from the handler; then the
    // first of a pair stores the page and the second is a hit.
    Eventually.assertWithin(Duration.ofSeconds(20), "caching resumed after memcached came back", () -> {
      HttpResponse<byte[]> fill = site.get("/page/down");
      assertEquals(200, fill.statusCode(), "while memcached comes back");
      assertTrue(Http.text(fill).contains("page /page/down"), Http.text(fill));
      HttpResponse<byte[]> again = site.get("/page/down");
      assertEquals(200, again.statusCode(), "while memcached comes back");
      assertTrue(Http.text(again).contains("page /page/down"), Http.text(again));
      return "HIT".equals(xcache(again));
    });
  }

  @Test
  void badConfigurationFailsAtStartNamingTheParameter() {
    IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
        () -> PageCacheConfig.builder().ignoreEnvironment().set("ttl", "5 minutes").set("lock.wait", "x").build());
    assertTrue(e.getMessage().contains("ttl: '5 minutes' is not a duration"), e.getMessage());
    assertTrue(e.getMessage().contains("lock.wait: 'x'"), e.getMessage());
  }

  @Test
  void nonGetRequestsPassThroughUntouched() {
    site().handler("page", SiteServlets.page(), "/page/*").start();
    HttpResponse<byte[]> post = Http.post(site.uri("/page/p"), "x");
    assertNull(post.headers().firstValue("X-Cache").orElse(null));
    assertEquals(HttpServletResponse.SC_METHOD_NOT_ALLOWED, post.statusCode());
  }
}
