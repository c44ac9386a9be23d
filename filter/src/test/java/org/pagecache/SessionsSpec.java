package org.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.servlet.Filter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpSession;
import java.security.Principal;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.pagecache.SiteUnderTest.Backend;
import org.pagecache.SiteUnderTest.BothStores;
import org.pagecache.SiteUnderTest.Response;
import org.pagecache.testing.MemcachedExtension;

/**
 * Specification, on both stores (fast tier): anonymous visitors with a session are served from the
 * cache, and nothing of one visitor's session (a cart, a member's greeting, a CSRF token) reaches
 * another (docs/safety.md, "Sessions"). The site is plain Jakarta: handlers use {@code HttpSession};
 * a "security" filter ordered before PageCache sets the principal of a signed-in member and hands
 * the page a CSRF token object holding the request it was given (as Spring Security's
 * {@code CsrfFilter} does), and copies a session token into a thread-local, both past PageCache's
 * request wrapper.
 */
class SessionsSpec {
  @RegisterExtension
  static MemcachedExtension memcached = MemcachedExtension.nodes(1);

  @RegisterExtension
  final SiteUnderTest.Sites sites = new SiteUnderTest.Sites(memcached);

  /** The CSRF token as a security filter hands it on: it reads the session through the request it holds. */
  static final class CsrfToken {
    private final HttpServletRequest capturedRequest;

    CsrfToken(HttpServletRequest capturedRequest) {
      this.capturedRequest = capturedRequest;
    }

    /** Masked with a salt of its own each time, as Spring Security's XOR handler does: never the stored text. */
    String token() {
      HttpSession session = capturedRequest.getSession(true);
      Object token = session.getAttribute("csrf");
      if (token == null) {
        token = UUID.randomUUID().toString();
        session.setAttribute("csrf", token);
      }
      return UUID.randomUUID().toString().substring(0, 8) + "." + new StringBuilder((String) token).reverse();
    }

    static String unmasked(String masked) {
      return new StringBuilder(masked.substring(masked.indexOf('.') + 1)).reverse().toString();
    }
  }

  static final ThreadLocal<String> TRACKING_TOKEN = new ThreadLocal<>();

  /** Before PageCache: principal of a signed-in member, the CSRF token object, a thread-local copy. */
  static Filter security() {
    return (request, response, chain) -> {
      HttpServletRequest req = (HttpServletRequest) request;
      HttpSession session = req.getSession(false);
      Object member = session == null ? null : session.getAttribute("member");
      req.setAttribute("_csrf", new CsrfToken(req));
      TRACKING_TOKEN.set(session == null ? null : (String) session.getAttribute("tracking"));
      HttpServletRequest passed = member == null ? req : new HttpServletRequestWrapper(req) {
        @Override
        public Principal getUserPrincipal() {
          return () -> (String) member;
        }

        @Override
        public String getRemoteUser() {
          return (String) member;
        }
      };
      try {
        chain.doFilter(passed, response);
      } finally {
        TRACKING_TOKEN.remove();
      }
    };
  }

  private SiteUnderTest site(Backend backend, String policies) {
    SiteUnderTest site = sites.on(backend).before(security())
        .set("policies", "setup: enabled=false" + (policies.isEmpty() ? "" : "; " + policies))
        .handler("setup", SiteServlets.of((req, res, call) -> {
          HttpSession session = req.getSession(true);
          String name = req.getParameter("name");
          String value = req.getParameter("value");
          if (name != null) {
            // A cart is an object, not text: only the session wrapper can see it used.
            session.setAttribute(name, name.equals("cart") ? java.util.List.of(value) : value);
          }
          res.getWriter().print("ok");
        }), "/setup")
        .handler("news", SiteServlets.page(), "/news/*")
        .handler("cart", SiteServlets.of((req, res, call) -> {
          HttpSession session = req.getSession(false);
          Object cart = session == null ? null : session.getAttribute("cart");
          res.setContentType("text/html;charset=UTF-8");
          res.getWriter().print(cart == null ? "<p>Your cart is empty</p>" : "<p>Your cart: " + cart + "</p>");
        }), "/cart")
        .handler("greeting", SiteServlets.of((req, res, call) -> {
          Principal user = req.getUserPrincipal();
          res.setContentType("text/html;charset=UTF-8");
          res.getWriter().print(user == null ? "<a href=/login>Sign in</a>" : "<p>Hello, " + user.getName() + "</p>");
        }), "/greeting")
        .handler("form", SiteServlets.of((req, res, call) -> {
          CsrfToken csrf = (CsrfToken) req.getAttribute("_csrf");
          res.setContentType("text/html;charset=UTF-8");
          res.getWriter().print("<form method=post><input type=hidden name=_csrf value=\"" + csrf.token() + "\"></form>");
        }), "/form")
        .handler("renew", SiteServlets.of((req, res, call) -> {
          String renewed = req.getSession(false) == null ? "none" : req.changeSessionId();
          res.setContentType("text/html;charset=UTF-8");
          res.getWriter().print("<p>renewed " + call + " " + renewed.length() + "</p>");
        }), "/renew")
        .handler("jsp", SiteServlets.of((req, res, call) -> {
          // What a JSP does: asks for a session before the page runs, reads page attributes through it.
          HttpSession session = req.getSession();
          Object theme = session.getAttribute("theme");
          res.setContentType("text/html;charset=UTF-8");
          res.getWriter().print("<p>news in " + (theme == null ? "plain" : theme) + " | session asked: "
              + (req.getSession(false) != null) + "</p>");
        }), "/jsp")
        .handler("visits", SiteServlets.of((req, res, call) -> {
          HttpSession session = req.getSession();
          Integer visits = (Integer) session.getAttribute("visits");
          session.setAttribute("visits", visits == null ? 1 : visits + 1);
          res.setContentType("text/html;charset=UTF-8");
          res.getWriter().print("<p>visit " + session.getAttribute("visits") + "</p>");
        }), "/visits")
        .handler("sessionid", SiteServlets.of((req, res, call) -> {
          res.setContentType("text/html;charset=UTF-8");
          res.getWriter().print("<p>your session " + req.getSession().getId() + "</p>");
        }), "/sessionid")
        .handler("tracked", SiteServlets.of((req, res, call) -> {
          String token = TRACKING_TOKEN.get();
          res.setContentType("text/html;charset=UTF-8");
          res.getWriter().print("<p>news</p>" + (token == null ? "" : "<img src=\"/pixel?t=" + token + "\">"));
        }), "/tracked");
    return site.start();
  }

  /** A new visitor's session: the cookie to send, after the session was given this attribute. */
  private static String session(SiteUnderTest site, String name, String value) {
    Response r = site.get("/setup?name=" + name + "&value=" + value);
    Matcher m = Pattern.compile("JSESSIONID=([^;]+)").matcher(String.valueOf(r.header("Set-Cookie")));
    assertTrue(m.find(), "the setup page gives a session: " + r.header("Set-Cookie"));
    return "JSESSIONID=" + m.group(1);
  }

  private static String anonymousSession(SiteUnderTest site) {
    return session(site, "saved-request", "/account/orders");
  }

  @BothStores
  void anonymousVisitorsWithASessionAreServedFromTheCache(Backend backend) {
    SiteUnderTest site = site(backend, "");
    String ann = anonymousSession(site);
    String ben = anonymousSession(site);

    assertEquals("MISS", site.get("/news/1").xcache());
    assertEquals("HIT", site.get("/news/1", "Cookie", ann).xcache());
    assertEquals("MISS", site.get("/news/2", "Cookie", ann).xcache(),
        () -> "a visitor with a session builds too: " + site.cache.stats("news").bypassesByReason());
    assertEquals("HIT", site.get("/news/2").xcache(), "and the page is shared: it used nothing of the session");
    assertEquals("HIT", site.get("/news/2", "Cookie", ben).xcache());
    assertEquals(2, site.calls("news"));
  }

  /** Asking for a session is not using it: a JSP's page is shared, and no session is created for the reader. */
  @BothStores
  void aSessionAskedForButNeverUsedIsNotCreatedAndThePageIsShared(Backend backend) {
    SiteUnderTest site = site(backend, "");

    Response first = site.get("/jsp");
    Response second = site.get("/jsp");

    assertEquals("MISS", first.xcache());
    assertEquals(null, first.header("Set-Cookie"), "no session was created for a page that never used one");
    assertTrue(first.text().contains("news in plain | session asked: false"), first.text());
    assertEquals("HIT", second.xcache(), "the page was stored for everyone");
    assertEquals(1, site.calls("jsp"));
  }

  /** The first real use creates the session, and the build is the visitor's, as before. */
  @BothStores
  void aSessionTheBuildWritesOrWhoseIdItShowsIsCreatedAndThePageIsNotShared(Backend backend) {
    SiteUnderTest site = site(backend, "");

    Response written = site.get("/visits");
    Response shown = site.get("/sessionid");

    assertTrue(String.valueOf(written.header("Set-Cookie")).contains("JSESSIONID="), "the write created the session");
    assertEquals("visit 1", written.text().replaceAll("<[^>]+>", ""));
    assertNotEquals("HIT", site.get("/visits").xcache(), "the page with the visit count was not shared");
    assertTrue(String.valueOf(shown.header("Set-Cookie")).contains("JSESSIONID="), "reading the id created it");
    Matcher id = Pattern.compile("JSESSIONID=([^;]+)").matcher(shown.header("Set-Cookie"));
    assertTrue(id.find());
    Response other = site.get("/sessionid");
    assertFalse(other.text().contains(id.group(1)), "another reader never gets the first one's session id");
    assertNotEquals("HIT", other.xcache());
  }

  @BothStores
  void aSessionCartNeverReachesAnotherVisitor(Backend backend) {
    SiteUnderTest site = site(backend, "");
    String alice = session(site, "cart", "umbrella-7731");
    String carol = anonymousSession(site);

    assertTrue(site.get("/cart", "Cookie", alice).text().contains("umbrella-7731"));
    Response bob = site.get("/cart");
    assertEquals("MISS", bob.xcache(), "Alice's page was not stored");
    assertTrue(bob.text().contains("empty"), bob.text());
    Response carols = site.get("/cart", "Cookie", carol);
    assertEquals("HIT", carols.xcache(), "a session without a cart gets the shared page");
    assertFalse(carols.text().contains("umbrella"));

    Response again = site.get("/cart", "Cookie", alice);
    assertEquals("BYPASS", again.xcache(), "Alice's session holds an attribute the page reads");
    assertTrue(again.text().contains("umbrella-7731"), "Alice still sees her cart");
    assertEquals(2L, site.cache.stats("cart").sessionBypasses().get("attribute:cart"),
        "evidence: Alice's first build not shared, then her request bypassed");
  }

  @BothStores
  void aSignedInMembersGreetingNeverReachesAnotherVisitor(Backend backend) {
    SiteUnderTest site = site(backend, "");
    String alice = session(site, "member", "alice-liddell");

    Response hers = site.get("/greeting", "Cookie", alice);
    assertEquals("BYPASS", hers.xcache());
    assertTrue(hers.text().contains("Hello, alice-liddell"));
    site.get("/greeting");
    Response bob = site.get("/greeting");
    assertEquals("HIT", bob.xcache());
    assertFalse(bob.text().contains("alice"), bob.text());
    assertEquals(1L, site.cache.stats("greeting").sessionBypasses().get("user"));
  }

  @BothStores
  void aCsrfTokenFromTheSessionNeverReachesAnotherVisitor(Backend backend) {
    SiteUnderTest site = site(backend, "");
    String ann = anonymousSession(site);
    String ben = anonymousSession(site);

    String annsToken = token(site.get("/form", "Cookie", ann));
    String bensToken = token(site.get("/form", "Cookie", ben));
    String newcomersToken = token(site.get("/form"));
    assertNotEquals(annsToken, bensToken);
    assertNotEquals(annsToken, newcomersToken);
    assertNotEquals(bensToken, newcomersToken);
    assertEquals(annsToken, token(site.get("/form", "Cookie", ann)), "Ann keeps her own token");
    assertEquals(4, site.calls("form"), "no form page was served from the cache");
    assertTrue(site.cache.stats("form").sessionBypasses().get("csrf-token") >= 2);
  }

  private static String token(Response r) {
    Matcher m = Pattern.compile("name=_csrf value=\"([^\"]+)\"").matcher(r.text());
    assertTrue(m.find(), r.text());
    return CsrfToken.unmasked(m.group(1));
  }

  @BothStores
  void aSessionValueThatReachesThePagePastTheWrapperIsFoundInTheBody(Backend backend) {
    SiteUnderTest site = site(backend, "");
    String ann = session(site, "tracking", "trk-5d41402abc4b");

    Response hers = site.get("/tracked", "Cookie", ann);
    assertTrue(hers.text().contains("trk-5d41402abc4b"));
    Response bob = site.get("/tracked");
    assertEquals("MISS", bob.xcache(), "Ann's page was not stored");
    assertFalse(bob.text().contains("trk-"), bob.text());
    assertEquals(1L, site.cache.stats("tracked").sessionBypasses().get("value-of:tracking"));
  }

  @BothStores
  void aBuildThatRenewsTheSessionIdIsNotShared(Backend backend) {
    SiteUnderTest site = site(backend, "");
    Response hers = site.get("/renew", "Cookie", anonymousSession(site));
    assertTrue(String.valueOf(hers.header("Set-Cookie")).contains("JSESSIONID="), "the new id goes to her");
    assertEquals("MISS", site.get("/renew").xcache(), "her page was not stored");
  }

  @BothStores
  void sessionsOffBypassesEverySessionAndAllowCachesThemAll(Backend backend) {
    SiteUnderTest site = site(backend, "news: sessions=off; cart: sessions=allow");
    String ann = anonymousSession(site);

    site.get("/news/1");
    assertEquals("BYPASS", site.get("/news/1", "Cookie", ann).xcache());
    assertEquals(1L, site.cache.stats("news").sessionBypasses().get("sessions=off"));
    site.get("/cart");
    assertEquals("HIT", site.get("/cart", "Cookie", ann).xcache());
  }
}
