package org.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.servlet.Filter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import java.security.Principal;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.pagecache.SiteUnderTest.Backend;
import org.pagecache.SiteUnderTest.BothStores;
import org.pagecache.SiteUnderTest.Response;
import org.pagecache.testing.MemcachedExtension;

/**
 * Specification, on both stores (fast tier): a visitor signed in without a session and without an
 * {@code Authorization} header (an SSO proxy's header read by a filter before PageCache, a client
 * certificate, a remember-me token checked on each request) goes past the cache under the default
 * {@code signed-in=bypass}: their page is theirs, never stored for the anonymous visitors.
 */
class SignedInWithoutSessionSpec {
  @RegisterExtension
  static MemcachedExtension memcached = MemcachedExtension.nodes(1);

  @RegisterExtension
  final SiteUnderTest.Sites sites = new SiteUnderTest.Sites(memcached);

  /** Before PageCache: the principal from a header a trusted proxy sets, no session. */
  static Filter ssoHeader() {
    return (request, response, chain) -> {
      HttpServletRequest req = (HttpServletRequest) request;
      String user = req.getHeader("X-Sso-User");
      chain.doFilter(user == null ? req : new HttpServletRequestWrapper(req) {
        @Override
        public Principal getUserPrincipal() {
          return () -> user;
        }

        @Override
        public String getRemoteUser() {
          return user;
        }
      }, response);
    };
  }

  @BothStores
  void aVisitorSignedInWithoutASessionIsNeverServedToOthers(Backend backend) {
    SiteUnderTest site = sites.on(backend).before(ssoHeader())
        .handler("home", SiteServlets.of((req, res, call) -> {
          Principal user = req.getUserPrincipal();
          res.setContentType("text/html;charset=UTF-8");
          res.getWriter().print("<p>Welcome, " + (user == null ? "guest" : user.getName()) + "</p>");
        }), "/home")
        .start();

    Response member = site.get("/home", "X-Sso-User", "margaret");
    assertTrue(member.text().contains("Welcome, margaret"), member.text());
    assertEquals("BYPASS", member.xcache(), "a signed-in visitor's page is theirs");

    Response anonymous = site.get("/home");
    assertFalse(anonymous.text().contains("margaret"), anonymous.text());
    assertEquals("MISS", anonymous.xcache(), "nothing was stored by the signed-in visit");
    assertEquals("HIT", site.get("/home").xcache());
    assertEquals("BYPASS", site.get("/home", "X-Sso-User", "margaret").xcache(), "not served the anonymous page either");
  }
}
