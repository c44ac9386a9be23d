package org.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.http.HttpServletRequest;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.pagecache.SiteUnderTest.Backend;
import org.pagecache.SiteUnderTest.BothStores;
import org.pagecache.SiteUnderTest.Response;
import org.pagecache.testing.MemcachedExtension;

/**
 * Specification, on both stores (issue 35, class 4): in a build for sharing, the container's
 * attributes that carry the visitor's original query string ({@code jakarta.servlet.async.query_string}
 * after an async dispatch, and the forward, include and error ones) show it without the ignored
 * tracking parameters, as {@code getQueryString()} does: a view that prints one does not put the
 * first visitor's {@code utm_term} into the page everyone gets. Parameters that key the page stay.
 */
class QueryStringAttributesSpec {
  @RegisterExtension
  static MemcachedExtension memcached = MemcachedExtension.nodes(1);

  @RegisterExtension
  final SiteUnderTest.Sites sites = new SiteUnderTest.Sites(memcached);

  private static final String ASYNC_QUERY = "jakarta.servlet.async.query_string";

  /** The view: prints the original query, as a "current URL" link or a pager built from it would. */
  private static void view(HttpServletRequest req, jakarta.servlet.ServletResponse res) throws java.io.IOException {
    res.setContentType("text/html;charset=UTF-8");
    res.getWriter().print("<a href=\"/list?" + req.getAttribute(ASYNC_QUERY) + "\">this page</a>");
  }

  private static void assertSharedPageIsClean(SiteUnderTest site, String path) {
    // a build can follow an async dispatch once the filter has seen one (Build.dispatching): show it one
    site.get(path + "?warmup=1");
    Response first = site.get(path + "?page=2&utm_term=%3Cscript%3Eevil%3C%2Fscript%3E&utm_source=mail");
    assertEquals("MISS", first.xcache());
    assertFalse(first.text().contains("utm_"), first.text());
    assertTrue(first.text().contains("page=2"), "a parameter that keys the page is still there: " + first.text());
    Response next = site.get(path + "?page=2&fbclid=other");
    assertEquals("HIT", next.xcache());
    assertFalse(next.text().contains("evil"), next.text());
  }

  @BothStores
  void theAsyncQueryStringAfterADispatchOfTheRequestItselfIsClean(Backend backend) {
    SiteUnderTest site = sites.on(backend).handler("list", SiteServlets.of((req, res, call) -> {
      if (req.getDispatcherType() == DispatcherType.ASYNC) {
        view(req, res);
      } else {
        req.startAsync().dispatch();
      }
    }), "/list").start();
    assertSharedPageIsClean(site, "/list");
  }

  /**
   * Spring MVC's way: the controller's {@code DeferredResult} ends in an async dispatch of the
   * request, which forwards to the view (a JSP): the view reads the attribute through the forward.
   * (With {@code startAsync(req, res)} Jetty takes the attribute from the wrapper it is given, Tomcat
   * from the request under it; the override covers both, and only the latter can fail here.)
   */
  @BothStores
  void theAsyncQueryStringInAViewForwardedToAfterTheDispatchIsClean(Backend backend) {
    SiteUnderTest site = sites.on(backend)
        .handler("list", SiteServlets.of((req, res, call) -> {
          if (req.getDispatcherType() == DispatcherType.ASYNC) {
            req.getRequestDispatcher("/view").forward(req, res);
          } else {
            req.startAsync().dispatch();
          }
        }), "/list")
        .handler("view", SiteServlets.of((req, res, call) -> view(req, res)), "/view").start();
    assertSharedPageIsClean(site, "/list");
  }

  @BothStores
  void theAsyncQueryStringInAViewDispatchedToIsClean(Backend backend) {
    SiteUnderTest site = sites.on(backend)
        .handler("list", SiteServlets.of((req, res, call) -> req.startAsync().dispatch("/view?layout=wide")), "/list")
        .handler("view", SiteServlets.of((req, res, call) -> {
          view(req, res);
          res.getWriter().print(" <p>" + req.getQueryString() + "</p>");
        }), "/view").start();
    assertSharedPageIsClean(site, "/list");
    assertTrue(site.get("/list?page=2").text().contains("layout=wide"), "the dispatch target's own query is its own");
  }
}
