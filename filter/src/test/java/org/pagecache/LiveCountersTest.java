package org.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.pagecache.testing.Http;
import org.pagecache.testing.MemcachedExtension;
import org.pagecache.testing.MutableClock;

/** Counters stay live on cached pages: counted on every serve, placeholders filled at serve time. */
class LiveCountersTest {
  @RegisterExtension
  static MemcachedExtension memcached = MemcachedExtension.nodes(1);

  private final List<CachedSite> sites = new ArrayList<>();
  private final MutableClock clock = new MutableClock();

  @AfterEach
  void stop() {
    sites.forEach(CachedSite::close);
  }

  private static SiteServlets.Handler article() {
    return SiteServlets.of((req, res, call) -> {
      PageCache.countView(req, "article:42");
      res.setContentType("text/html;charset=UTF-8");
      res.getWriter().print("<html><body><h1>Статья 42</h1><p>views: <!--pagecache:views article:42--></p>"
          + "<p>online: <!--pagecache:online--></p><p>built by call " + call + "</p></body></html>");
    });
  }

  private CachedSite site(String namespace, String... params) {
    CachedSite site = new CachedSite(memcached.servers()).clock(clock).set("namespace", namespace).set("online", "on").set("policies", "article: ttl=5m")
        .countSource(key -> 500).handler("article", article(), "/article/*");
    for (int i = 0; i < params.length; i += 2) {
      site.set(params[i], params[i + 1]);
    }
    sites.add(site);
    return site.start();
  }

  private static long views(HttpResponse<byte[]> r) {
    return shown("views", r);
  }

  private static long online(HttpResponse<byte[]> r) {
    return shown("online", r);
  }

  /** The number the page shows after {@code label: } (article() writes "views: N" and "online: N"). */
  private static long shown(String label, HttpResponse<byte[]> r) {
    Matcher m = Pattern.compile(label + ": (\\d+)").matcher(Http.text(r));
    assertTrue(m.find(), Http.text(r));
    return Long.parseLong(m.group(1));
  }

  @Test
  void aCachedPageShowsAnIncreasingViewCountWhileItsHandlerRanOnce() {
    CachedSite site = site("lc1");
    HttpResponse<byte[]> first = site.get("/article/42");
    HttpResponse<byte[]> second = site.get("/article/42");
    // The online count shows completed minute-buckets only: this visitor shows from the next minute.
    clock.advance(java.time.Duration.ofSeconds(61));
    HttpResponse<byte[]> third = site.get("/article/42");
    assertEquals("HIT", third.headers().firstValue("X-Cache").orElse(null));
    assertEquals(501, views(first), "started from the source's 500");
    assertEquals(502, views(second));
    assertEquals(503, views(third));
    assertTrue(Http.text(third).contains("Статья 42"), "the UTF-8 text around the placeholders is intact");
    assertTrue(Http.text(third).contains("online: 1"), Http.text(third));
    assertEquals(1, site.calls("article"));
    assertNotEquals(second.headers().firstValue("ETag"), third.headers().firstValue("ETag"),
        "the ETag describes what was sent");
    assertEquals(503, site.cache.counters().views("article:42"), "reading does not count");
  }

  @Test
  void withOnlineOffThePlaceholderAndTheEndpointShowNothingRatherThanZero() {
    CachedSite site = new CachedSite(memcached.servers()).clock(clock).set("namespace", "lc4")
        .set("online", "off").set("policies", "article: ttl=5m").countSource(key -> 500)
        .handler("article", article(), "/article/*")
        .with(ctx -> ctx.addServlet(CountersServlet.class, "/counters"));
    sites.add(site);
    site.start();
    site.get("/article/42");
    clock.advance(java.time.Duration.ofSeconds(61)); // a minute on, a counted visitor would show

    String page = Http.text(site.get("/article/42"));
    assertTrue(page.contains("<p>online: </p>"), page);
    assertEquals("{\"online\":null}", Http.text(site.get("/counters?online")));
  }

  /** {@code views} requests for article 42 from 50 threads, alternating between the two servers; each a 200. */
  private static void viewArticleFromBoth(CachedSite a, CachedSite b, int views) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(50);
    try {
      List<Future<HttpResponse<byte[]>>> futures = new ArrayList<>();
      for (int i = 0; i < views; i++) {
        CachedSite s = i % 2 == 0 ? a : b;
        futures.add(pool.submit(() -> s.get("/article/42")));
      }
      for (Future<HttpResponse<byte[]>> f : futures) {
        assertEquals(200, f.get(60, TimeUnit.SECONDS).statusCode());
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void aThousandConcurrentViewsThroughTwoServersAreAllCounted() throws Exception {
    // Each view one incr (local aggregation off): memcached holds every view the moment it is served.
    CachedSite a = site("lc2", "counters", "local-aggregation=0s");
    CachedSite b = site("lc2", "counters", "local-aggregation=0s");
    viewArticleFromBoth(a, b, 1000);
    assertEquals(1500, a.cache.counters().views("article:42"));
    assertEquals(1500, Long.parseLong(memcached.text(0).get(a.cache.config.namespace().views("article:42")).trim()));
  }

  @Test
  void aGzipClientGetsTheFilledInPageAndAnOldETagNeverGivesA304ForANewCount() {
    CachedSite site = site("lc7");
    site.get("/article/42");
    HttpResponse<byte[]> gzipClient = site.get("/article/42", "Accept-Encoding", "gzip");
    String etag = gzipClient.headers().firstValue("ETag").orElseThrow();
    HttpResponse<byte[]> revalidation = site.get("/article/42", "If-None-Match", etag);

    assertEquals("HIT", gzipClient.headers().firstValue("X-Cache").orElse(null));
    assertFalse(gzipClient.headers().firstValue("Content-Encoding").isPresent(), "sent as it was filled in");
    assertEquals(502, views(gzipClient));
    assertEquals(200, revalidation.statusCode(), "the count moved on: the old ETag does not match");
    assertEquals(503, views(revalidation));
    assertNotEquals(etag, revalidation.headers().firstValue("ETag").orElse(null));
  }

  @Test
  void onlineVisitorsAreToldApartWithoutASessionOrACookieAndTheirPagesStayCached() {
    CachedSite site = site("lc5");
    for (String agent : List.of("reader-a", "reader-b", "reader-a", "reader-c", "reader-b")) {
      HttpResponse<byte[]> r = site.get("/article/42", "User-Agent", agent);
      assertTrue(r.headers().allValues("Set-Cookie").isEmpty(), "counting a visitor sets no cookie");
    }
    clock.advance(java.time.Duration.ofSeconds(61)); // their minute-bucket is shown from the next minute
    HttpResponse<byte[]> later = site.get("/article/42", "User-Agent", "reader-a");

    assertEquals("HIT", later.headers().firstValue("X-Cache").orElse(null));
    assertEquals(3, online(later), "three distinct visitors (IP + User-Agent), not five requests");
    assertEquals(1, site.calls("article"));
  }

  @Test
  void onlineVisitorsCanBeToldApartByACookieTheApplicationSets() {
    CachedSite site = new CachedSite(memcached.servers()).clock(clock).set("namespace", "lc6")
        .set("online", "cookie:visitor").set("policies", "article: ttl=5m, cookies=ignore").countSource(key -> 500)
        .handler("article", article(), "/article/*");
    sites.add(site);
    site.start();
    for (String id : List.of("v1", "v2", "v1", "v3", "v2", "v4")) {
      site.get("/article/42", "Cookie", "theme=dark; visitor=" + id); // one IP and User-Agent for all
    }
    clock.advance(java.time.Duration.ofSeconds(61));
    HttpResponse<byte[]> later = site.get("/article/42", "Cookie", "visitor=v1");

    assertEquals("HIT", later.headers().firstValue("X-Cache").orElse(null), "with cookies=ignore the cookie does not make pages private");
    assertEquals(4, online(later));
  }

  @Test
  void aThousandViewsThroughTwoServersAggregatingInTheirJvmsAreAllCountedOnceTheyPush() throws Exception {
    CachedSite a = site("lc4"); // the default: views summed in the JVM, one incr per second
    CachedSite b = site("lc4");
    viewArticleFromBoth(a, b, 1000);
    a.close(); // a server that stops pushes what it has summed
    b.close();
    assertEquals(1500, Long.parseLong(memcached.text(0).get(a.cache.config.namespace().views("article:42")).trim()),
        "no view lost, none counted twice");
  }

  @Test
  void withMemcachedDownPagesAreServedAndPlaceholdersFallBackSafely() {
    // Every request asks memcached and finds it gone (no near cache); each view is its own incr (no
    // local aggregation), so the count shown falls back to the last one seen plus this view.
    CachedSite site = site("lc3", "near.trust", "0s", "counters", "local-aggregation=0s");
    long before = views(site.get("/article/42"));
    assertEquals(501, before);
    memcached.node(0).stop();
    try {
      HttpResponse<byte[]> r = site.get("/article/42");
      assertEquals(200, r.statusCode(), "the page is served");
      assertEquals("BYPASS", r.headers().firstValue("X-Cache").orElse(null), "by its handler, the cache being away");
      assertEquals(2, site.calls("article"));
      String body = Http.text(r);
      assertTrue(body.contains("Статья 42") && body.contains("built by call 2"), body);
      assertFalse(body.contains("<!--pagecache:"), "no raw placeholder text where a value would be");
      // Fall back safely: the last count this JVM saw plus its own views since (they reach
      // memcached when it is back; never a made-up or smaller number), and for online a number
      // or nothing.
      assertEquals(before + 1, views(r), "the last count seen, and this view");
      assertTrue(Pattern.compile("online: \\d*</p>").matcher(body).find(), body);
    } finally {
      memcached.node(0).start();
    }
  }
}
