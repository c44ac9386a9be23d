package org.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.pagecache.SiteUnderTest.Backend;
import org.pagecache.SiteUnderTest.BothStores;
import org.pagecache.SiteUnderTest.Response;
import org.pagecache.testing.MemcachedExtension;

/**
 * Specification, on both stores (fast tier, {@link SiteUnderTest}): which responses are cached and
 * which are passed through (BYPASS) every time: statuses, redirects, errors, cookies and sessions,
 * private and no-store, authorized requests, and policy paths that cannot be escaped by encoding.
 * A bypassed response is never served to anyone else.
 */
class CacheabilitySpec {
  @RegisterExtension
  static MemcachedExtension memcached = MemcachedExtension.nodes(1);

  @RegisterExtension
  final SiteUnderTest.Sites sites = new SiteUnderTest.Sites(memcached);

  private static String value(String header) {
    return header == null ? "" : header;
  }

  @BothStores
  void uncacheableStatusesAreNotCached(Backend backend) {
    SiteServlets.Handler h = SiteServlets.page();
    h.status.set(500);
    SiteUnderTest site = sites.on(backend).handler("broken", h, "/broken").start();
    assertEquals(500, site.get("/broken").status());
    assertEquals(500, site.get("/broken").status());
    assertEquals(2, site.calls("broken"));
  }

  @BothStores
  void permanentRedirectsAreCachedAndTemporaryOnesAreNot(Backend backend) {
    SiteUnderTest site = sites.on(backend).handler("moved", SiteServlets.of((req, res, call) -> {
      res.setStatus(301);
      res.setHeader("Location", "/page/new");
    }), "/moved").handler("found", SiteServlets.of((req, res, call) -> res.sendRedirect("/page/new")), "/found")
        .start();
    site.get("/moved");
    Response hit = site.get("/moved");
    assertEquals(301, hit.status());
    assertEquals("HIT", hit.xcache());
    assertTrue(value(hit.header("Location")).endsWith("/page/new"), hit.toString());
    site.get("/found");
    Response again = site.get("/found");
    assertEquals(302, again.status());
    assertEquals("BYPASS", again.xcache());
    assertEquals(2, site.calls("found"));
  }

  @BothStores
  void sendErrorIsNotCachedUnlessThePolicyListsTheStatus(Backend backend) {
    SiteUnderTest site = sites.on(backend).set("policies", "missing404: statuses=200|404")
        .handler("missing", SiteServlets.of((req, res, call) -> res.sendError(404, "no such page")), "/missing")
        .handler("missing404", SiteServlets.of((req, res, call) -> res.sendError(404, "gone <b>")), "/missing404")
        .start();
    assertEquals(404, site.get("/missing").status());
    Response again = site.get("/missing");
    assertEquals(404, again.status());
    assertEquals(2, site.calls("missing"));
    site.get("/missing404");
    Response cached = site.get("/missing404");
    assertEquals(404, cached.status());
    assertEquals("HIT", cached.xcache());
    assertTrue(cached.text().contains("gone &lt;b&gt;"), cached.text());
    assertEquals(1, site.calls("missing404"));
  }

  @BothStores
  void responsesThatSetACookieAreNeverCachedNorLeaked(Backend backend) {
    SiteUnderTest site = sites.on(backend).handler("cookie", SiteServlets.cookie(), "/cookie").start();
    Response alice = site.get("/cookie");
    Response bob = site.get("/cookie");
    assertEquals("BYPASS", alice.xcache());
    assertEquals("BYPASS", bob.xcache());
    assertTrue(value(alice.header("Set-Cookie")).contains("secret-1"), alice.toString());
    assertTrue(value(bob.header("Set-Cookie")).contains("secret-2"), bob.toString());
    assertFalse(bob.text().contains("user 1"), "Bob must never see Alice's page");
    assertEquals(2, site.calls("cookie"));
  }

  @BothStores
  void aSetCookieHeaderIsAsUncacheableAsAddCookie(Backend backend) {
    SiteUnderTest site = sites.on(backend).handler("sc", SiteServlets.header("Set-Cookie", "a=b"), "/sc").start();
    site.get("/sc");
    assertEquals("BYPASS", site.get("/sc").xcache());
    assertEquals(2, site.calls("sc"));
  }

  @BothStores
  void aPageWhoseHandlerCreatesASessionIsNeverCachedNorLeaked(Backend backend) {
    SiteUnderTest site = sites.on(backend).handler("login", SiteServlets.session(), "/login").start();
    Response alice = site.get("/login");
    Response bob = site.get("/login");
    assertEquals("BYPASS", alice.xcache());
    assertEquals("BYPASS", bob.xcache());
    String aliceCookie = value(alice.header("Set-Cookie"));
    assertTrue(aliceCookie.contains("JSESSIONID"), "the container's session cookie reaches Alice: " + aliceCookie);
    String aliceSession = aliceCookie.replaceAll("^JSESSIONID=([^;]+).*$", "$1");
    assertFalse(bob.text().contains(aliceSession), "Bob must never get Alice's session-bound page");
    assertTrue(value(bob.header("Set-Cookie")).contains("JSESSIONID"), "Bob gets a session of his own");
    assertEquals(2, site.calls("login"));
  }

  @BothStores
  void privateNoStoreAndVaryStarAreNotCached(Backend backend) {
    SiteUnderTest site = sites.on(backend)
        .handler("private", SiteServlets.header("Cache-Control", "private, max-age=60"), "/private")
        .handler("nostore", SiteServlets.header("Cache-Control", "no-store"), "/nostore")
        .handler("varystar", SiteServlets.header("Vary", "*"), "/varystar")
        .start();
    for (String path : new String[] {"/private", "/nostore", "/varystar"}) {
      site.get(path);
      Response second = site.get(path);
      assertEquals("BYPASS", second.xcache(), path);
      assertEquals(2, site.calls(path.substring(1)), path);
    }
  }

  @BothStores
  void requestsWithAuthorizationOrASessionBypassUnlessThePolicyAllows(Backend backend) {
    SiteUnderTest site = sites.on(backend).set("policies", "open: authorized=allow; page: sessions=off")
        .handler("page", SiteServlets.page(), "/page/*")
        .handler("open", SiteServlets.page(), "/open/*").start();
    site.get("/page/auth", "Authorization", "Basic dTpw");
    assertEquals("BYPASS", site.get("/page/auth", "Authorization", "Basic dTpw").xcache());
    assertEquals(2, site.calls("page"));
    assertEquals("BYPASS", site.get("/page/sess", "Cookie", "JSESSIONID=abc").xcache());
    site.get("/open/auth", "Authorization", "Basic dTpw");
    assertEquals("HIT", site.get("/open/auth", "Authorization", "Basic dTpw").xcache());
  }

  @BothStores
  void aPolicyPathCannotBeEscapedByEncodingTheUrl(Backend backend) {
    SiteUnderTest site = sites.on(backend).set("policies", "account: enabled=false, paths=/account/*")
        .handler("front", SiteServlets.page(), "/*").start();
    for (String path : List.of("/account/me", "/%61ccount/me", "/account/%6De")) {
      site.get(path);
      Response again = site.get(path);
      assertEquals("BYPASS", again.xcache(), path + " is under the policy that turns caching off");
    }
    site.get("/public");
    assertEquals("HIT", site.get("/public").xcache(), "the front servlet's other pages are cached");
  }
}
