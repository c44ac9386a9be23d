package org.pagecache.spring.shop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.pagecache.PageCache;
import org.pagecache.spring.MemcachedProperties;
import org.pagecache.spring.SecurityForms;
import org.pagecache.testing.Http;
import org.pagecache.testing.MemcachedExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Issue 21 on a Spring Security site with default settings (embedded Tomcat, real HTTP, real
 * memcached): anonymous visitors with a session are served from the cache; a visitor's CSRF token
 * and a member's greeting never reach another visitor; the hit ratios of visitors with and
 * without a session, measured.
 */
@SpringBootTest(classes = ShopApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = "pagecache.namespace=shop-test")
class AnonymousSessionsTest {
  @RegisterExtension
  static MemcachedExtension memcached = MemcachedExtension.nodes(1);

  @DynamicPropertySource
  static void memcached(DynamicPropertyRegistry registry) {
    MemcachedProperties.register(registry, memcached);
  }

  @LocalServerPort
  int port;

  @Autowired
  PageCache pageCache;

  @Test
  void anonymousVisitorsWithASessionAreServedFromTheCache() {
    String ann = anonymousSession();
    assertEquals("MISS", xCache(get("/news/hit-1")));
    assertEquals("HIT", xCache(get("/news/hit-1", "Cookie", ann)));
    assertEquals("MISS", xCache(get("/news/hit-2", "Cookie", ann)),
        () -> "a visitor with a session builds the page: " + pageCache.stats("news").bypassesByReason()
            + pageCache.stats("news").sessionBypasses());
    assertEquals("HIT", xCache(get("/news/hit-2")), "which is shared");
    assertEquals("HIT", xCache(get("/news/hit-2", "Cookie", anonymousSession())));
  }

  @Test
  void theCsrfTokenOfOneVisitorIsNeverShownToAnother() {
    String ann = anonymousSession();
    String ben = anonymousSession();
    int before = ShopApplication.CALLS.getOrDefault("newsletter", new java.util.concurrent.atomic.AtomicInteger()).get();

    List<String> tokens = new ArrayList<>();
    for (String visitor : new String[] {ann, ben, ann, ben}) {
      HttpResponse<byte[]> r = get("/newsletter", "Cookie", visitor);
      assertNotEquals("HIT", xCache(r));
      tokens.add(SecurityForms.csrfToken(Http.text(r)));
    }
    tokens.add(SecurityForms.csrfToken(Http.text(get("/newsletter"))));
    assertEquals(tokens.size(), tokens.stream().distinct().count(), "every page shows a token of its own: " + tokens);
    assertEquals(before + 5, ShopApplication.CALLS.get("newsletter").get(), "no form page came from the cache");
  }

  @Test
  void aMembersGreetingNeverReachesAnotherVisitor() {
    String alice = signIn("alice", "alice-pw");
    HttpResponse<byte[]> hers = get("/greeting", "Cookie", alice);
    assertTrue(Http.text(hers).contains("Hello, alice"), Http.text(hers));
    assertEquals("BYPASS", xCache(hers));
    assertEquals("BYPASS", xCache(get("/greeting", "Cookie", alice)));

    for (String visitor : new String[] {null, anonymousSession(), null}) {
      HttpResponse<byte[]> r = visitor == null ? get("/greeting") : get("/greeting", "Cookie", visitor);
      assertFalse(Http.text(r).contains("alice"), Http.text(r));
      assertTrue(Http.text(r).contains("Sign in"));
    }
    assertTrue(pageCache.stats("greeting").sessionBypasses().get("user") >= 2);
  }

  /**
   * With Spring Security's context watched during builds (issue 35), anonymous visitors are as
   * before: once a page is built, every visitor with a saved request, a CSRF token or no session at
   * all hits, hit ratio 1.00.
   */
  @Test
  void onceBuiltEveryAnonymousVisitorWithOrWithoutASessionHits() {
    String[] visitors = {anonymousSession(), newsletterSession(), null};
    for (int page = 0; page < 5; page++) {
      assertEquals("MISS", xCache(get("/news/built-" + page, "Cookie", visitors[page % 2])));
    }
    int requests = 0;
    int hits = 0;
    for (int round = 0; round < 3; round++) {
      for (int page = 0; page < 5; page++) {
        for (String visitor : visitors) {
          HttpResponse<byte[]> r = visitor == null ? get("/news/built-" + page) : get("/news/built-" + page, "Cookie", visitor);
          requests++;
          hits += "HIT".equals(xCache(r)) ? 1 : 0;
        }
      }
    }
    assertEquals("1.00", String.format("%.2f", (double) hits / requests),
        () -> "evidence: " + pageCache.stats("news").sessionBypasses() + pageCache.stats("news").bypassesByReason());
  }

  /**
   * 100 visitors, 40 of whom first met the login page (a saved request in their session) or the
   * newsletter form (a CSRF token in it), each reading 6 of 30 news pages in a seeded random order.
   */
  @Test
  void visitorsWithASessionHitAtLeastFourFifthsAsOftenAsThoseWithout() {
    Random random = new Random(21);
    List<String> visitors = new ArrayList<>();
    for (int v = 0; v < 100; v++) {
      visitors.add(v % 5 < 2 ? (v % 2 == 0 ? anonymousSession() : newsletterSession()) : null);
    }
    long[] hits = new long[2];
    long[] requests = new long[2];
    for (int round = 0; round < 6; round++) {
      for (String visitor : visitors) {
        String path = "/news/ratio-" + random.nextInt(30);
        HttpResponse<byte[]> r = visitor == null ? get(path) : get(path, "Cookie", visitor);
        int group = visitor == null ? 0 : 1;
        requests[group]++;
        if ("HIT".equals(xCache(r))) {
          hits[group]++;
        }
      }
    }
    double without = (double) hits[0] / requests[0];
    double with = (double) hits[1] / requests[1];
    System.out.printf("pagecache issue 21: hit ratio without a session %.3f (%d/%d), with an anonymous session %.3f"
        + " (%d/%d), ratio %.3f%n", without, hits[0], requests[0], with, hits[1], requests[1], with / without);
    assertTrue(with >= 0.8 * without, "with a session " + with + ", without " + without);
  }

  /** A visitor sent to the login form by a protected page: Spring Security saved the request in a new session. */
  private String anonymousSession() {
    HttpResponse<byte[]> r = get("/account");
    assertEquals(302, r.statusCode());
    return SecurityForms.sessionCookie(r);
  }

  /** A visitor who saw the newsletter form: the CSRF token went into a new session. */
  private String newsletterSession() {
    return SecurityForms.sessionCookie(get("/newsletter"));
  }

  private String signIn(String user, String password) {
    return SecurityForms.signIn(uri("/"), user, password);
  }

  private HttpResponse<byte[]> get(String path, String... headers) {
    return Http.get(uri(path), headers);
  }

  private URI uri(String path) {
    return URI.create("http://127.0.0.1:" + port + path);
  }

  private static String xCache(HttpResponse<byte[]> res) {
    return res.headers().firstValue("X-Cache").orElse("(none)");
  }
}
