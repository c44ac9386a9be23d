package org.pagecache;

import org.pagecache.admin.PageCacheAdminServlet;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.pagecache.testing.Eventually;
import org.pagecache.testing.Http;
import org.pagecache.testing.JettyServer;
import org.pagecache.testing.MemcachedExtension;
import org.pagecache.testing.MutableClock;

/**
 * Safe by default: with the default configuration (no policy at all) a response that forbids reuse
 * is never reused, one request cannot switch caching off for everyone, and the evidence an
 * operator opens the cache up with names no value. Real HTTP, embedded Jetty, real memcached. The
 * cookie and forwarded-header rules are specified on both stores in {@link CookieAndHeaderSafetySpec}.
 */
class SafeByDefaultTest {
  @RegisterExtension
  static MemcachedExtension memcached = MemcachedExtension.nodes(1);

  private static final String BEARER = "Bearer evidence-token";

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

  private static String cacheStatus(HttpResponse<?> r) {
    return r.headers().firstValue("Cache-Status").orElse("");
  }

  private static String cookie(HttpServletRequest req, String name) {
    Cookie[] cookies = req.getCookies();
    return cookies == null ? null : Arrays.stream(cookies).filter(c -> c.getName().equals(name))
        .map(Cookie::getValue).findFirst().orElse(null);
  }

  /** A page localised from a cookie, the way CookieLocaleResolver keeps a language. */
  private static SiteServlets.Handler localised() {
    return SiteServlets.of((req, res, call) -> {
      res.setContentType("text/html;charset=UTF-8");
      res.getWriter().print("de".equals(cookie(req, "lang")) ? "<p>Willkommen</p>" : "<p>Welcome</p>");
    });
  }

  @Test
  void oneRequestThatMakesTheHandlerAnswer400DoesNotSwitchCachingOffForOthers() {
    SiteServlets.Handler picky = SiteServlets.of((req, res, call) -> {
      if (req.getHeader("X-Evil") != null) {
        res.sendError(400, "bad header");
        return;
      }
      res.setContentType("text/html");
      res.getWriter().print("<p>fine</p>");
    });
    site().handler("picky", picky, "/picky").start();
    assertEquals(400, site.get("/picky", "X-Evil", "1").statusCode());
    HttpResponse<byte[]> next = site.get("/picky");
    assertEquals(200, next.statusCode());
    assertEquals("MISS", xcache(next), "built and stored at once, not bypassed for uncacheable.ttl");
    assertEquals("HIT", xcache(site.get("/picky")));
  }

  @Test
  void aFirstVisitAnsweredWithACookieDoesNotMakeThePageUncacheableForOthers() {
    SiteServlets.Handler consent = SiteServlets.of((req, res, call) -> {
      if (cookie(req, "OptanonConsent") == null) {
        res.addCookie(new Cookie("OptanonConsent", "new"));
      }
      res.setContentType("text/html");
      res.getWriter().print("<p>news</p>");
    });
    site().handler("news", consent, "/news").start();
    assertEquals("BYPASS", xcache(site.get("/news")));
    assertEquals("MISS", xcache(site.get("/news", "Cookie", "OptanonConsent=yes")));
    assertEquals("HIT", xcache(site.get("/news", "Cookie", "OptanonConsent=yes")));
  }

  @Test
  void aPageRefusedAgainAndAgainIsPassedAndNobodyQueuesOnItsLock() throws Exception {
    SiteServlets.Handler alwaysCookie = SiteServlets.of((req, res, call) -> {
      res.addCookie(new Cookie("tracker", "x" + call));
      res.setContentType("text/html");
      res.getWriter().print("<p>always a cookie</p>");
    });
    site().handler("sticky", alwaysCookie, "/sticky").start();
    site.get("/sticky"); // refused: a miss marker
    // While one build of it is held, another request builds too instead of waiting on the lock.
    CountDownLatch gate = new CountDownLatch(1);
    alwaysCookie.gate.set(gate);
    CompletableFuture<HttpResponse<byte[]>> first = CompletableFuture.supplyAsync(() -> site.get("/sticky"));
    CompletableFuture<HttpResponse<byte[]>> second = CompletableFuture.supplyAsync(() -> site.get("/sticky"));
    Eventually.assertWithin(Duration.ofSeconds(10), "both requests run the handler", () -> site.calls("sticky") == 3);
    gate.countDown();
    assertEquals("BYPASS", xcache(first.get()));
    assertEquals("BYPASS", xcache(second.get()));
    alwaysCookie.gate.set(null);
    HttpResponse<byte[]> third = site.get("/sticky"); // the third refusal in a row (the two above raced to the second)
    assertTrue(cacheStatus(third).contains("stored=0"), "built, tried and refused: " + cacheStatus(third));
    HttpResponse<byte[]> passed = site.get("/sticky");
    assertEquals("BYPASS", xcache(passed));
    assertFalse(cacheStatus(passed).contains("stored=0"), "passed straight to the handler: " + cacheStatus(passed));
    assertTrue(cacheStatus(passed).contains("detail=set-cookie"), cacheStatus(passed));
  }

  @Test
  void responsesThatForbidReuseAreNeverAHit() {
    String[][] forbidding = {
        {"Cache-Control", "max-age=0"},
        {"Cache-Control", "public, s-maxage=0"},
        {"Cache-Control", "Private"},
        {"Expires", "Thu, 01 Jan 1970 00:00:00 GMT"},
        {"Expires", "0"},
        {"Expires", "-1"},
        {"Pragma", "no-cache"},
        {"Vary", "Accept-Language, *"},
    };
    for (int i = 0; i < forbidding.length; i++) {
      String[] header = forbidding[i];
      site().handler("r" + i, SiteServlets.of((req, res, call) -> {
        res.setHeader(header[0], header[1]);
        res.setContentType("text/html");
        res.getWriter().print("<p>" + call + "</p>");
      }), "/r").start();
      site.get("/r");
      HttpResponse<byte[]> second = site.get("/r");
      assertNotEquals("HIT", xcache(second), header[0] + ": " + header[1]);
      assertEquals(2, site.calls("r" + i), header[0] + ": " + header[1]);
      site.close();
    }
  }

  @Test
  void aPositiveLifetimeStillStoresTheResponse() {
    site().handler("ok", SiteServlets.of((req, res, call) -> {
      res.setHeader("Cache-Control", "max-age=0, s-maxage=60");
      res.setContentType("text/html");
      res.getWriter().print("<p>shared for a minute</p>");
    }), "/ok").start();
    site.get("/ok");
    assertEquals("HIT", xcache(site.get("/ok")), "s-maxage speaks for shared caches");
  }

  @Test
  void aMustRevalidatePageIsNeverServedStaleWhileItIsRebuilt() throws Exception {
    MutableClock clock = new MutableClock();
    SiteServlets.Handler strict = SiteServlets.of((req, res, call) -> {
      res.setHeader("Cache-Control", "public, must-revalidate");
      res.setContentType("text/html");
      res.getWriter().print("<p>" + call + "</p>");
    });
    site().clock(clock).set("policies", "strict: ttl=10s, grace=10m").handler("strict", strict, "/strict").start();
    site.get("/strict");
    assertEquals("HIT", xcache(site.get("/strict")));
    clock.advance(Duration.ofSeconds(11));
    assertRebuiltWithoutStale(strict, 2, "expired");
    site.cache.refreshHandler("strict");
    clock.advance(Duration.ofMillis(5));
    assertRebuiltWithoutStale(strict, 3, "refreshed");
  }

  /**
   * Holds the rebuild of /strict on a gate and sends a second request meanwhile: where a stale copy
   * may be served, it would get it at once; here it must wait for the rebuild and get the new page.
   */
  private void assertRebuiltWithoutStale(SiteServlets.Handler strict, int call, String why) throws Exception {
    CountDownLatch gate = new CountDownLatch(1);
    strict.gate.set(gate);
    CompletableFuture<HttpResponse<byte[]>> rebuild = CompletableFuture.supplyAsync(() -> site.get("/strict"));
    Eventually.assertWithin(Duration.ofSeconds(10), why + ": the rebuild runs", () -> site.calls("strict") == call);
    long waitsBefore = site.cache.stats().handler("strict").lockWaits();
    CompletableFuture<HttpResponse<byte[]>> meanwhile = CompletableFuture.supplyAsync(() -> site.get("/strict"));
    Eventually.assertWithin(Duration.ofSeconds(10), why + ": the second request waits or is answered",
        () -> meanwhile.isDone() || site.cache.stats().handler("strict").lockWaits() > waitsBefore);
    strict.gate.set(null);
    gate.countDown();
    assertEquals("MISS", xcache(rebuild.get()), why);
    HttpResponse<byte[]> second = meanwhile.get();
    assertNotEquals("STALE", xcache(second), why + ": " + cacheStatus(second));
    assertTrue(Http.text(second).contains("<p>" + call + "</p>"), why + ": the rebuilt page");
    assertEquals(call, site.calls("strict"), why + ": one rebuild");
  }

  @Test
  void theAdminEvidenceNamesTheBypassingCookiesAndTheUnkeyedHeadersNeverAValue() {
    SiteServlets.Handler agent = SiteServlets.of((req, res, call) -> {
      res.setContentType("text/html");
      res.getWriter().print("<p>" + req.getHeader("User-Agent") + "</p>");
    });
    site().set("admin.token", "evidence-token")
        .handler("home", localised(), "/home")
        .handler("agent", agent, "/agent")
        .handler("ignorant", SiteServlets.page(), "/ignorant")
        .with(ctx -> JettyServer.servlet(ctx, "pagecache-admin", new PageCacheAdminServlet(), "/cache-admin/*"))
        .start();
    for (int i = 0; i < 3; i++) {
      site.get("/home", "Cookie", "XSRF-TOKEN=secret-value-" + i);
      site.get("/ignorant", "Cookie", "XSRF-TOKEN=secret-value-" + i);
    }
    site.get("/agent", "User-Agent", "secret-agent");
    String json = Http.text(site.get("/cache-admin/api/stats", "Authorization", BEARER));
    assertTrue(json.contains("{\"name\":\"XSRF-TOKEN\",\"bypasses\":3,\"readByHandler\":3}"), json);
    assertTrue(json.contains("{\"name\":\"XSRF-TOKEN\",\"bypasses\":3,\"readByHandler\":0}"), "never read by the page servlet: " + json);
    assertTrue(json.contains("\"unkeyedHeaders\":{\"user-agent\":1}"), json);
    assertTrue(json.contains("\"bypassReasons\":{\"cookie\":3}"), json);
    assertFalse(json.contains("secret"), "no cookie or header value: " + json);
  }

  @Test
  void theAdminEvidenceSaysATrackingParameterAHandlerReadIsNowInItsKeyNeverAValue() {
    SiteServlets.Handler landing = SiteServlets.of((req, res, call) -> {
      res.setContentType("text/html");
      res.getWriter().print("<p>from " + req.getParameter("utm_campaign") + "</p>");
    });
    site().set("admin.token", "evidence-token")
        .handler("landing", landing, "/landing")
        .with(ctx -> JettyServer.servlet(ctx, "pagecache-admin", new PageCacheAdminServlet(), "/cache-admin/*"))
        .start();
    site.get("/landing?utm_campaign=secret-campaign");
    String json = Http.text(site.get("/cache-admin/api/stats", "Authorization", BEARER));
    assertTrue(json.contains("\"keyedParameters\":{\"utm_campaign\":1}"), json);
    String page = Http.text(site.get("/cache-admin/", "Authorization", BEARER));
    assertTrue(page.contains("query parameter <code>utm_campaign</code> (tracking list), now in the key"), page);
    assertFalse(json.contains("secret") || page.contains("secret-campaign"), "no parameter value");
  }

  @Test
  void theAdminEvidenceShowsWhySessionRequestsBypassNeverAValue() {
    SiteServlets.Handler cart = SiteServlets.of((req, res, call) -> {
      jakarta.servlet.http.HttpSession session = req.getSession(false);
      res.setContentType("text/html");
      res.getWriter().print("<p>" + (session == null ? null : session.getAttribute("cart")) + "</p>");
    });
    SiteServlets.Handler fill = SiteServlets.of((req, res, call) -> {
      req.getSession(true).setAttribute("cart", java.util.List.of("secret-umbrella"));
      res.getWriter().print("added");
    });
    site().set("admin.token", "evidence-token").set("policies", "fill: enabled=false")
        .handler("cart", cart, "/cart")
        .handler("fill", fill, "/fill")
        .with(ctx -> JettyServer.servlet(ctx, "pagecache-admin", new PageCacheAdminServlet(), "/cache-admin/*"))
        .start();
    String session = site.get("/fill").headers().firstValue("Set-Cookie").orElseThrow().replaceAll(";.*$", "");
    site.get("/cart", "Cookie", session); // built, not shared: the cart had a value
    site.get("/cart", "Cookie", session); // bypassed: the session holds what the builds read
    String json = Http.text(site.get("/cache-admin/api/stats", "Authorization", BEARER));
    assertTrue(json.contains("\"sessionBypasses\":{\"attribute:cart\":2}"), json);
    String page = Http.text(site.get("/cache-admin/", "Authorization", BEARER));
    assertTrue(page.contains("session: <code>attribute:cart</code>"), page);
    assertFalse(json.contains("secret") || page.contains("secret"), "no session value");
  }

  @Test
  void strictHeadersRefusesPagesThatReadAnUnkeyedHeaderAndHarmlessDeclaresOne() {
    SiteServlets.Handler.Body readsAgent = (req, res, call) -> {
      res.setContentType("text/html");
      res.getWriter().print("<p>" + (req.getHeader("User-Agent") != null) + "</p>");
    };
    site().set("policies", "strict: headers=strict; calm: headers=strict, harmless=User-Agent")
        .handler("strict", SiteServlets.of(readsAgent), "/strict")
        .handler("calm", SiteServlets.of(readsAgent), "/calm").start();
    HttpResponse<byte[]> refused = site.get("/strict");
    assertEquals("BYPASS", xcache(refused));
    assertTrue(cacheStatus(refused).contains("detail=unkeyed-header"), cacheStatus(refused));
    site.get("/calm");
    assertEquals("HIT", xcache(site.get("/calm")));
    assertTrue(site.cache.stats().handler("calm").unkeyedHeaders().isEmpty());
  }

  @Test
  void readingTheLocaleCountsAsReadingAcceptLanguageUnlessThePolicyVariesOnIt() {
    SiteServlets.Handler.Body locale = (req, res, call) -> {
      res.setContentType("text/html");
      res.getWriter().print("<p>" + req.getLocale() + "</p>");
    };
    site().set("policies", "keyed: vary=Accept-Language")
        .handler("unkeyed", SiteServlets.of(locale), "/unkeyed")
        .handler("keyed", SiteServlets.of(locale), "/keyed").start();
    site.get("/unkeyed", "Accept-Language", "de");
    site.get("/keyed", "Accept-Language", "de");
    assertEquals(java.util.Map.of("accept-language", 1L), site.cache.stats().handler("unkeyed").unkeyedHeaders());
    assertTrue(site.cache.stats().handler("keyed").unkeyedHeaders().isEmpty());
  }
}
