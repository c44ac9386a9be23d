package org.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.servlet.Filter;
import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpSession;
import java.net.http.HttpResponse;
import java.util.Arrays;
import java.util.EnumSet;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.FilterMapping;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.pagecache.testing.Http;
import org.pagecache.testing.MemcachedExtension;

/**
 * Web cache deception through {@code paths=} (issue 35, class 1): a URL belongs to the handler that
 * serves it. A policy's pattern claims a URL only where it is at least as specific as the servlet
 * mapping that serves it (exact, longest prefix, extension, default), or where its policy names that
 * handler in {@code overrides=}; the serving handler's own settings apply otherwise. Real HTTP,
 * embedded Jetty, real memcached.
 */
class UrlBelongsToItsHandlerTest {
  @RegisterExtension
  static MemcachedExtension memcached = MemcachedExtension.nodes(1);

  @RegisterExtension
  final CachedSite.Sites sites = new CachedSite.Sites(memcached);

  private static String xcache(HttpResponse<?> r) {
    return r.headers().firstValue("X-Cache").orElse(null);
  }

  private static String cookie(HttpServletRequest req, String name) {
    Cookie[] cookies = req.getCookies();
    return cookies == null ? null : Arrays.stream(cookies).filter(c -> c.getName().equals(name))
        .map(Cookie::getValue).findFirst().orElse(null);
  }

  /** A personal page: the visitor named by the {@code user} cookie, whatever the URL's last segment looks like. */
  private static SiteServlets.Handler personal() {
    return SiteServlets.of((req, res, call) -> {
      String user = cookie(req, "user");
      res.setContentType("text/html;charset=UTF-8");
      res.getWriter().print("<p>account of " + (user == null ? "nobody" : user) + ", call " + call + "</p>");
    });
  }

  @Test
  void aPrefixServletKeepsItsUrlsFromAnExtensionPattern() {
    CachedSite site = sites.open()
        .set("policies", "assets: ttl=1h, paths=*.css, cookies=ignore")
        .handler("account", personal(), "/account/*")
        .handler("static", SiteServlets.page(), "/")
        .start();
    HttpResponse<byte[]> victim = site.get("/account/x.css", "Cookie", "user=alice");
    assertTrue(Http.text(victim).contains("account of alice"), Http.text(victim));
    assertEquals("BYPASS", xcache(victim), "the account servlet's cookies=bypass applies: /account/* beats *.css");
    HttpResponse<byte[]> attacker = site.get("/account/x.css");
    assertFalse(Http.text(attacker).contains("alice"), "the victim's page never reaches another visitor");
    assertEquals(2, site.calls("account"));
    // where the pattern is the more specific mapping (the default servlet's URLs) it still claims them
    site.get("/site.css", "Cookie", "user=alice");
    assertEquals("HIT", xcache(site.get("/site.css", "Cookie", "user=bob")), "assets: cookies=ignore");
    assertEquals(1, site.calls("static"));
  }

  @Test
  void anExactServletKeepsItsUrlFromAPrefixPattern() {
    CachedSite site = sites.open()
        .set("policies", "profiles: ttl=1h, paths=/profile/*, cookies=ignore")
        .handler("me", personal(), "/profile/me")
        .handler("front", SiteServlets.page(), "/")
        .start();
    site.get("/profile/me", "Cookie", "user=alice");
    HttpResponse<byte[]> attacker = site.get("/profile/me");
    assertTrue(Http.text(attacker).contains("account of nobody"), Http.text(attacker));
    assertEquals(2, site.calls("me"), "the exact mapping beats the prefix pattern: me's cookies=bypass applies");
    site.get("/profile/42", "Cookie", "user=alice");
    assertEquals("HIT", xcache(site.get("/profile/42")), "the pattern claims what the default servlet serves");
  }

  @Test
  void enabledFalseOfTheServingHandlerAppliesUnderAnExtensionPattern() {
    CachedSite site = sites.open()
        .set("policies", "settings: enabled=false; assets: ttl=1h, paths=*.css")
        .handler("settings", SiteServlets.page(), "/settings/*")
        .handler("static", SiteServlets.page(), "/")
        .start();
    assertEquals("BYPASS", xcache(site.get("/settings/x.css")));
    assertEquals("BYPASS", xcache(site.get("/settings/x.css")), "never cached, whatever its URL ends with");
    assertEquals(2, site.calls("settings"));
  }

  /**
   * safety.md's advice for pages that show session data an earlier filter handed over (the build
   * itself never touches the session): {@code sessions=off}. A {@code paths=*.js} pattern must not
   * undo it for {@code /wallet/x.js}.
   */
  @Test
  void sessionsOffOfTheServingHandlerAppliesUnderAnExtensionPattern() {
    SiteServlets.Handler wallet = SiteServlets.of((req, res, call) -> {
      res.setContentType("text/html;charset=UTF-8");
      Object owner = req.getAttribute("owner");
      res.getWriter().print("<p>wallet of " + (owner == null ? "nobody" : owner + ", balance 1200") + "</p>");
    });
    SiteServlets.Handler login = SiteServlets.of((req, res, call) -> {
      req.getSession(true).setAttribute("owner", "alice");
      res.setContentType("text/plain");
      res.getWriter().print("signed in");
    });
    Filter handOver = (request, response, chain) -> {
      HttpSession session = ((HttpServletRequest) request).getSession(false);
      if (session != null) {
        request.setAttribute("owner", session.getAttribute("owner"));
      }
      chain.doFilter(request, response);
    };
    CachedSite site = sites.open()
        .set("policies", "wallet: sessions=off; scripts: ttl=1h, paths=*.js")
        .handler("wallet", wallet, "/wallet/*")
        .handler("login", login, "/login")
        .with(ctx -> {
          FilterHolder holder = new FilterHolder(handOver);
          holder.setName("hand-over");
          ctx.getServletHandler().addFilter(holder);
          FilterMapping mapping = new FilterMapping();
          mapping.setFilterName("hand-over");
          mapping.setPathSpec("/*");
          mapping.setDispatcherTypes(EnumSet.of(jakarta.servlet.DispatcherType.REQUEST));
          ctx.getServletHandler().prependFilterMapping(mapping); // ahead of PageCache, as a security filter is
        })
        .start();
    String sessionCookie = site.get("/login").headers().firstValue("Set-Cookie").orElseThrow().split(";")[0];
    HttpResponse<byte[]> victim = site.get("/wallet/x.js", "Cookie", sessionCookie);
    assertTrue(Http.text(victim).contains("wallet of alice"), Http.text(victim));
    assertEquals("BYPASS", xcache(victim), "wallet: sessions=off applies to the URLs the wallet servlet serves");
    HttpResponse<byte[]> anonymous = site.get("/wallet/x.js");
    assertFalse(Http.text(anonymous).contains("alice"), Http.text(anonymous));
  }

  @Test
  void anExplicitOverrideClaimsTheUrlsOfAMoreSpecificServlet() {
    CachedSite site = sites.open()
        .set("policies", "scripts: ttl=1h, paths=*.js, overrides=front")
        .handler("front", SiteServlets.page(), "/*")
        .start();
    site.get("/app/main.js");
    assertEquals("HIT", xcache(site.get("/app/main.js")), "named in overrides=: the pattern claims front's URLs");
    assertEquals(1, site.calls("front"));
    assertEquals(1, site.cache.stats("scripts").hits(), "filed under scripts");
  }
}
