package org.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Arrays;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.pagecache.SiteUnderTest.Backend;
import org.pagecache.SiteUnderTest.BothStores;
import org.pagecache.SiteUnderTest.Response;
import org.pagecache.testing.MemcachedExtension;

/**
 * Specification, on both stores (fast tier, {@link SiteUnderTest}): with the default configuration
 * no page personalised by a cookie reaches another visitor, a forwarded header an attacker sends
 * keys the page it shapes, a method override bypasses, and the cookie rules (ignored cookies,
 * {@code cookies=vary:}, {@code cookies=ignore}, the session cookie) do what they state. What is
 * about responses, refusals and evidence over real HTTP stays in {@link SafeByDefaultTest}.
 */
class CookieAndHeaderSafetySpec {
  @RegisterExtension
  static MemcachedExtension memcached = MemcachedExtension.nodes(1);

  @RegisterExtension
  final SiteUnderTest.Sites sites = new SiteUnderTest.Sites(memcached);

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

  /** An account page for the user named in a stateless auth cookie (no session, no Set-Cookie). */
  private static SiteServlets.Handler account() {
    return SiteServlets.of((req, res, call) -> {
      res.setContentType("text/html;charset=UTF-8");
      String user = cookie(req, "auth");
      res.getWriter().print(user == null ? "<p>Please sign in</p>" : "<p>Account of " + user + "</p>");
    });
  }

  /** A page whose links are built from X-Forwarded-Host, as many apps behind a proxy do. */
  private static SiteServlets.Handler links() {
    return SiteServlets.of((req, res, call) -> {
      res.setContentType("text/html;charset=UTF-8");
      String host = req.getHeader("X-Forwarded-Host");
      res.getWriter().print("<a href=\"https://" + (host == null ? "www.example.com" : host) + "/next\">next</a>");
    });
  }

  @BothStores
  void aPageLocalisedFromACookieNeverReachesVisitorsWithoutIt(Backend backend) {
    SiteUnderTest site = sites.on(backend).handler("home", localised(), "/home").start();
    // personalised first, then plain
    Response german = site.get("/home", "Cookie", "lang=de");
    assertEquals("BYPASS", german.xcache());
    assertTrue(german.text().contains("Willkommen"));
    assertTrue(german.header("Cache-Status").contains("detail=cookie"), german.header("Cache-Status"));
    assertEquals("MISS", site.get("/home").xcache());
    Response plain = site.get("/home");
    assertEquals("HIT", plain.xcache());
    assertTrue(plain.text().contains("Welcome"));
    // plain stored first, then personalised
    Response germanAgain = site.get("/home", "Cookie", "lang=de");
    assertEquals("BYPASS", germanAgain.xcache());
    assertTrue(germanAgain.text().contains("Willkommen"));
  }

  @BothStores
  void aStatelessAuthCookiePageNeverReachesAnonymousVisitorsNorOtherUsers(Backend backend) {
    SiteUnderTest site = sites.on(backend).handler("account", account(), "/account").start();
    assertTrue(site.get("/account", "Cookie", "auth=alice").text().contains("Account of alice"));
    Response anonymous = site.get("/account");
    assertTrue(anonymous.text().contains("Please sign in"), "Alice's page is not served to anonymous visitors");
    assertEquals("HIT", site.get("/account").xcache());
    Response bob = site.get("/account", "Cookie", "auth=bob");
    assertEquals("BYPASS", bob.xcache());
    assertTrue(bob.text().contains("Account of bob"), "Bob signed in does not get the anonymous page");
  }

  @BothStores
  void aForwardedHostIsPartOfTheKeySoAPoisonedPageOnlyReachesItsAttacker(Backend backend) {
    SiteUnderTest site = sites.on(backend).handler("links", links(), "/links").start();
    Response poisoned = site.get("/links", "X-Forwarded-Host", "evil.example");
    assertTrue(poisoned.text().contains("evil.example"));
    Response plain = site.get("/links");
    assertEquals("MISS", plain.xcache(), "the attacker's entry is not the page of plain requests");
    assertFalse(plain.text().contains("evil.example"));
    assertFalse(site.get("/links").text().contains("evil.example"));
    // the other order: plain is stored, the attacker's value gets its own entry
    assertFalse(site.get("/links", "X-Forwarded-Host", "evil2.example").text().contains("www.example.com"));
    // header names in another case, and a repeated header, are keyed too
    assertTrue(site.get("/links", "x-forwarded-HOST", "evil3.example").text().contains("evil3.example"));
    Response repeated = site.get("/links", "X-Forwarded-Host", "evil.example", "X-Forwarded-Host", "evil4.example");
    assertEquals("MISS", repeated.xcache(), "two values are another entry than the first alone");
    assertEquals("HIT", site.get("/links", "X-Forwarded-Host", "evil.example").xcache());
    assertFalse(site.get("/links").text().contains("evil"));
  }

  @BothStores
  void aMethodOverrideBypasses(Backend backend) {
    SiteUnderTest site = sites.on(backend).handler("page", SiteServlets.page(), "/page/*").start();
    site.get("/page/m");
    Response overridden = site.get("/page/m", "X-HTTP-Method-Override", "DELETE");
    assertEquals("BYPASS", overridden.xcache());
    assertTrue(overridden.header("Cache-Status").contains("detail=method-override"));
    assertEquals(2, site.calls("page"));
  }

  @BothStores
  void onlyIgnoredCookiesStillHitAndASignificantCookieAmongThemBypasses(Backend backend) {
    SiteUnderTest site = sites.on(backend).set("cookies.ignore", "consent_given, myab_*").handler("home", localised(), "/home").start();
    site.get("/home");
    assertEquals("HIT", site.get("/home", "Cookie", "_ga=GA1.1.123; _gid=GA1.1.9; __cf_bm=x; AWSALB=y").xcache());
    assertEquals("HIT", site.get("/home", "Cookie", "_ga=1", "Cookie", "OptanonConsent=isGpcEnabled=0").xcache());
    assertEquals("HIT", site.get("/home", "Cookie", "consent_given=1; myab_test=b").xcache(), "cookies.ignore extends the list");
    Response mixed = site.get("/home", "Cookie", "_ga=1; lang=de; _gid=2");
    assertEquals("BYPASS", mixed.xcache(), "one significant cookie among ignored ones");
    assertTrue(mixed.text().contains("Willkommen"));
    assertEquals("BYPASS", site.get("/home", "Cookie", "_ga=1", "Cookie", "lang=de").xcache(), "in a second Cookie header too");
    assertEquals("BYPASS", site.get("/home", "Cookie", "_GA=1").xcache(), "names are case-sensitive");
  }

  @BothStores
  void aHitWithIgnoredCookiesAndAForwardedHeaderStillCostsOneRoundTrip(Backend backend) {
    // near.trust=0s: the memcached hit path, whose one multi-get the request checks must not add to
    SiteUnderTest site = sites.on(backend).set("near.trust", "0s").set("policies", "home: cookies=vary:lang").handler("home", localised(), "/home").start();
    String[] visitor = {"Cookie", "_ga=1; lang=de; OptanonConsent=x", "X-Forwarded-Proto", "https"};
    site.get("/home", visitor);
    long before = site.roundTrips();
    assertEquals("HIT", site.get("/home", visitor).xcache());
    assertEquals(1, site.roundTrips() - before);
  }

  @BothStores
  void varyOnACookieKeepsOneEntryPerValueEachAHitForItsOwnVisitors(Backend backend) {
    SiteUnderTest site = sites.on(backend).set("policies", "home: cookies=vary:lang").handler("home", localised(), "/home").start();
    assertEquals("MISS", site.get("/home", "Cookie", "lang=de").xcache());
    assertEquals("MISS", site.get("/home").xcache());
    Response german = site.get("/home", "Cookie", "lang=de; _ga=1");
    assertEquals("HIT", german.xcache());
    assertTrue(german.text().contains("Willkommen"));
    Response english = site.get("/home", "Cookie", "_ga=1");
    assertEquals("HIT", english.xcache(), "only ignored cookies: the entry of visitors without lang");
    assertTrue(english.text().contains("Welcome"));
    assertEquals("BYPASS", site.get("/home", "Cookie", "lang=de; theme=dark").xcache(), "another cookie still bypasses");
    assertEquals(3, site.calls("home"), "one build per language, and the bypass");
  }

  @BothStores
  void cookiesIgnoreStatesThatTheHandlerNeverDependsOnACookie(Backend backend) {
    SiteUnderTest site = sites.on(backend).set("policies", "plain: cookies=ignore").handler("plain", SiteServlets.page(), "/plain").start();
    site.get("/plain", "Cookie", "lang=de");
    assertEquals("HIT", site.get("/plain", "Cookie", "theme=dark").xcache());
    assertEquals(1, site.calls("plain"));
  }

  @BothStores
  void theSessionCookieKeepsItsOwnRule(Backend backend) {
    SiteUnderTest site = sites.on(backend).set("policies", "open: sessions=allow").handler("open", SiteServlets.page(), "/open").start();
    site.get("/open");
    assertEquals("HIT", site.get("/open", "Cookie", "JSESSIONID=abc; _ga=1").xcache());
  }
}
