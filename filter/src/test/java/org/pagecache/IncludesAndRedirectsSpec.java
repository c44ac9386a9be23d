package org.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.pagecache.SiteUnderTest.Backend;
import org.pagecache.SiteUnderTest.BothStores;
import org.pagecache.SiteUnderTest.Response;
import org.pagecache.testing.MemcachedExtension;

/**
 * Specification, on both stores (issue 45): what the container does to an include and to a
 * redirect, it does to a page PageCache captures as well. Containers do both their own way, so this
 * runs on each embedded container the tests have: Jetty 12 (filter) and Jetty 10 (filter-javax),
 * whose include neither wraps the response nor is seen by the wrappers, and whose redirects are
 * absolute by default.
 */
class IncludesAndRedirectsSpec {
  @RegisterExtension
  static MemcachedExtension memcached = MemcachedExtension.nodes(1);

  @RegisterExtension
  final SiteUnderTest.Sites sites = new SiteUnderTest.Sites(memcached);

  /**
   * An included resource changes neither the status nor the headers of the page (Servlet 4 and 6,
   * 9.3): a JSP fragment's page directive sets its own content type, which the page must not get.
   */
  @BothStores
  void anIncludedResourceChangesNeitherTheStatusNorTheHeadersOfThePage(Backend backend) {
    SiteUnderTest site = sites.on(backend)
        .handler("page", SiteServlets.of((req, res, call) -> {
          res.setContentType("text/html;charset=UTF-8");
          res.getWriter().print("<header>top</header>");
          req.getRequestDispatcher("/fragment").include(req, res);
          res.getWriter().print("<footer>bottom</footer>");
        }), "/page")
        .handler("fragment", SiteServlets.of((req, res, call) -> {
          res.setContentType("text/plain;charset=ISO-8859-1");
          res.setStatus(203);
          res.setHeader("X-Fragment", "set by the include");
          res.getWriter().print("<section>fragment</section>");
        }), "/fragment")
        .start();

    Response first = site.get("/page");
    Response second = site.get("/page");

    for (Response r : List.of(first, second)) {
      assertEquals(200, r.status(), r.toString());
      assertEquals("text/html;charset=utf-8", r.header("Content-Type").toLowerCase().replace(" ", ""), r.toString());
      assertNull(r.header("X-Fragment"), r.toString());
      assertEquals("<header>top</header><section>fragment</section><footer>bottom</footer>", r.text());
    }
    assertEquals("HIT", second.xcache());
  }

  /**
   * A redirect's Location is the one the container's sendRedirect makes of the handler's (Jetty 10
   * makes a relative one absolute, as Servlet 4 asks; Jetty 12 and Tomcat keep it relative by
   * default). A POST, which PageCache never captures, shows what the container sends.
   */
  @BothStores
  void aRedirectsLocationIsTheOneTheContainerSends(Backend backend) {
    SiteServlets.Handler moved = SiteServlets.of((req, res, call) -> res.sendRedirect("new"));
    moved.writes.set((req, res, call) -> res.sendRedirect("new"));
    SiteUnderTest site = sites.on(backend).handler("moved", moved, "/old/*").start();

    Response containers = site.send("POST", "/old/page");
    Response captured = site.get("/old/page");

    assertEquals(302, containers.status(), containers.toString());
    assertNotNull(containers.header("Location"), containers.toString());
    assertEquals(302, captured.status(), captured.toString());
    assertEquals(containers.header("Location"), captured.header("Location"), captured.toString());
  }
}
