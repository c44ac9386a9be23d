package org.pagecache;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.pagecache.admin.PageCacheAdminServlet;
import org.pagecache.testing.Http;
import org.pagecache.testing.JettyServer;
import org.pagecache.testing.MemcachedExtension;

/**
 * The handler's own row on the admin page, and its object in {@code api/stats}, say what an
 * operator must act on (issue 39): request headers its builds read outside the key, with the
 * policy items that fix it ({@code vary=}, or {@code harmless=}), and a policy that sets the
 * application's caching headers aside ({@code origin-cache-headers=ignore}). Never a header's value.
 * Real HTTP, embedded Jetty, real memcached.
 */
class AdminHandlerNotesTest {
  @RegisterExtension
  static MemcachedExtension memcached = MemcachedExtension.nodes(1);

  @RegisterExtension
  final CachedSite.Sites sites = new CachedSite.Sites(memcached);

  private static final String BEARER = "Bearer notes-token";

  private CachedSite site() {
    SiteServlets.Handler mobile = SiteServlets.of((req, res, call) -> {
      res.setContentType("text/html");
      String agent = req.getHeader("User-Agent");
      res.getWriter().print(agent != null && agent.contains("Mobile") ? "<p>small</p>" : "<p>large</p>");
    });
    SiteServlets.Handler localised = SiteServlets.of((req, res, call) -> {
      res.setContentType("text/html");
      res.getWriter().print("<p>" + req.getHeader("Accept-Language") + req.getHeader("User-Agent") + "</p>");
    });
    return sites.open().set("admin.token", "notes-token")
        .set("policies", "weblog: origin-cache-headers=ignore; localised: vary=Accept-Language; list: params=read")
        .handler("list", SiteServlets.of((req, res, call) -> res.getWriter().print("page " + req.getParameter("page"))),
            "/list")
        .handler("weblog", SiteServlets.header("Expires", "0"), "/weblog")
        .handler("mobile", mobile, "/mobile")
        .handler("localised", localised, "/localised")
        .handler("plain", SiteServlets.page(), "/plain")
        .with(ctx -> JettyServer.servlet(ctx, "pagecache-admin", new PageCacheAdminServlet(), "/cache-admin/*"))
        .start();
  }

  /** The handler's row of the Handlers table (the first row naming it on the page). */
  private static String row(String html, String handler) {
    int start = html.indexOf("<tr data-h=\"" + handler + "\"");
    assertTrue(start >= 0, handler + " has a row");
    return html.substring(start, html.indexOf("</tr>", start));
  }

  /** The handler's object of api/stats, up to the next handler's. */
  private static String handlerJson(String json, String handler) {
    int start = json.indexOf("{\"name\":\"" + handler + "\"");
    assertTrue(start >= 0, handler + " in " + json);
    int next = json.indexOf("{\"name\":", start + 1);
    return json.substring(start, next < 0 ? json.length() : next);
  }

  @Test
  void aHandlerThatReadsAHeaderOutsideItsKeySaysSoOnItsRowWithThePolicyLineThatFixesIt() {
    CachedSite site = site();
    site.get("/mobile", "User-Agent", "secret-agent Mobile");
    site.get("/localised", "User-Agent", "secret-agent", "Accept-Language", "de");
    site.get("/plain");

    String html = Http.text(site.get("/cache-admin/", "Authorization", BEARER));

    String mobile = row(html, "mobile");
    assertTrue(mobile.contains("data-note=\"unkeyed-headers\""), mobile);
    assertTrue(mobile.contains("<code>user-agent</code>, not in the key"), mobile);
    assertTrue(mobile.contains("add <code>vary=device</code> (one page per class of visitors; <code>vary=User-Agent</code>"
        + " would make one per value)"), "the class is offered before the header: " + mobile);
    assertTrue(mobile.contains("<code>harmless=User-Agent</code>"), mobile);
    String localised = row(html, "localised");
    assertTrue(localised.contains("add <code>vary=Accept-Language|<wbr>device</code>"),
        "the header it already varies on stays in the line: " + localised);
    assertFalse(row(html, "plain").contains("data-note"), "nothing to say about a handler that read no header");
    assertFalse(html.contains("secret-agent"), "never a header's value");

    String json = Http.text(site.get("/cache-admin/api/stats", "Authorization", BEARER));
    assertTrue(handlerJson(json, "mobile").contains(
        "\"unkeyedHeadersFix\":{\"vary\":\"vary=device\",\"varyHeaders\":\"vary=User-Agent\",\"harmless\":"
            + "\"harmless=User-Agent\"}"), json);
    assertTrue(handlerJson(json, "localised").contains("\"vary\":\"vary=Accept-Language|device\",\"varyHeaders\":"
        + "\"vary=Accept-Language|User-Agent\""), json);
    assertTrue(handlerJson(json, "plain").contains("\"unkeyedHeadersFix\":null"), json);
    assertFalse(json.contains("secret-agent"), json);
  }

  /** params=read (issue 47): what of the query its keys hold, and how many requests carried parameters left out. */
  @Test
  void aHandlerKeyedOnTheParametersItReadsShowsThemAndTheRequestsThatCarriedOthers() {
    CachedSite site = site();
    site.get("/list?page=2&_=1733212345678");
    site.get("/list?cb=secret-buster");
    site.get("/list?page=2");
    site.get("/plain?utm_source=secret-campaign");

    String html = Http.text(site.get("/cache-admin/", "Authorization", BEARER));

    String list = row(html, "list");
    assertTrue(list.contains("data-note=\"parameters\">Query keyed on: <code>read: page</code>; requests with"
        + " parameters left out of the key: 2.</p>"), list);
    String plain = row(html, "plain");
    assertTrue(plain.contains("Query keyed on: <code>all</code>; requests with parameters left out of the key: 1."), plain);
    assertFalse(html.contains("secret-buster") || html.contains("secret-campaign"), "never a parameter's value");

    String json = Http.text(site.get("/cache-admin/api/stats", "Authorization", BEARER));
    assertTrue(handlerJson(json, "list").contains("\"parameters\":{\"keyedOn\":\"read: page\",\"leftOut\":2}"), json);
    assertTrue(handlerJson(json, "plain").contains("\"parameters\":{\"keyedOn\":\"all\",\"leftOut\":1}"), json);
  }

  @Test
  void aHandlerWhosePolicyIgnoresTheApplicationsCachingHeadersIsShownAsSuch() {
    CachedSite site = site();
    site.get("/weblog");
    site.get("/plain");

    String html = Http.text(site.get("/cache-admin/", "Authorization", BEARER));

    String weblog = row(html, "weblog");
    assertTrue(weblog.contains("origin-cache-headers=ignore"), "its policy line: " + weblog);
    assertTrue(weblog.contains("data-note=\"origin-cache-headers\""), weblog);
    assertFalse(row(html, "plain").contains("origin-cache-headers"), row(html, "plain"));

    String json = Http.text(site.get("/cache-admin/api/stats", "Authorization", BEARER));
    assertTrue(handlerJson(json, "weblog").contains("\"originCacheHeaders\":\"ignore\""), json);
    assertTrue(handlerJson(json, "plain").contains("\"originCacheHeaders\":\"obey\""), json);
  }
}
