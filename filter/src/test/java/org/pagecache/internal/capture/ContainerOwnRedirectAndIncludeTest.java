package org.pagecache.internal.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.IOException;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.pagecache.PageCacheConfig;
import org.pagecache.PageCacheFilter;
import org.pagecache.store.LocalStore;
import org.pagecache.testing.Http;
import org.pagecache.testing.JettyServer;

/**
 * Two things Undertow does differently from Tomcat and Jetty (issue 45), through the real filter on
 * embedded Jetty 12, with a filter in front of PageCache standing in for Undertow's side:
 * <ul>
 *   <li>Its {@code sendRedirect} makes a relative Location absolute. A redirect the handler made
 *       during a build went out with the Location as the handler gave it, since the capture replayed
 *       it as a header; now the container's own {@code sendRedirect} makes it, as without PageCache.</li>
 *   <li>Its include wraps neither the request nor the response: it marks its own response "inside
 *       include" and the request's dispatcher type says INCLUDE. An included resource's content type
 *       (a JSP fragment's page directive) became the page's; now the capture holds the page's head
 *       fixed while the request says INCLUDE, as the spec wants (Servlet 6 §9.3).</li>
 * </ul>
 * UndertowClassicIT shows both on the real Undertow.
 */
class ContainerOwnRedirectAndIncludeTest {
  private JettyServer jetty;

  @AfterEach
  void stop() {
    if (jetty != null) {
      jetty.close();
    }
  }

  @Test
  void aRedirectMadeDuringABuildIsMadeByTheContainersOwnSendRedirect() {
    start(new HttpServlet() {
      @Override
      protected void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException {
        res.sendRedirect("/elsewhere");
      }
    });

    HttpResponse<byte[]> r = Http.get(jetty.uri("/page"));

    assertEquals(302, r.statusCode());
    assertEquals("http://container.example/elsewhere", r.headers().firstValue("Location").orElse(null),
        "the Location the container's sendRedirect made");
  }

  @Test
  void whileTheRequestSaysIncludeTheIncludedResourceCannotChangeThePagesHead() {
    start(new HttpServlet() {
      @Override
      protected void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException {
        res.setContentType("text/html;charset=UTF-8");
        res.getWriter().write("<p>page</p>");
        UndertowLikeRequest.including.set(true); // what Undertow's include does to the request, and nothing to the response
        try {
          res.setContentType("text/plain;charset=ISO-8859-1");
          res.setStatus(404);
          res.setHeader("X-From-Include", "yes");
          res.getWriter().write("<p>fragment</p>");
        } finally {
          UndertowLikeRequest.including.set(false);
        }
      }
    });

    HttpResponse<byte[]> first = Http.get(jetty.uri("/page"));
    HttpResponse<byte[]> second = Http.get(jetty.uri("/page"));

    for (HttpResponse<byte[]> r : java.util.List.of(first, second)) {
      assertEquals(200, r.statusCode());
      assertEquals("text/html;charset=utf-8", r.headers().firstValue("Content-Type").orElse("").toLowerCase().replace(" ", ""));
      assertTrue(r.headers().firstValue("X-From-Include").isEmpty(), "a header set inside the include");
      assertEquals("<p>page</p><p>fragment</p>", Http.text(r), "the included body is part of the page");
    }
    assertEquals("HIT", second.headers().firstValue("X-Cache").orElse(null));
  }

  private void start(HttpServlet servlet) {
    PageCacheConfig config = PageCacheConfig.builder().ignoreEnvironment().store(new LocalStore()).build();
    jetty = JettyServer.start(ctx -> {
      JettyServer.filter(ctx, undertowLike());
      JettyServer.filter(ctx, new PageCacheFilter(config));
      JettyServer.servlet(ctx, "page", servlet, "/page");
    });
  }

  /** The request and response PageCache is given, as Undertow's would behave. */
  private static Filter undertowLike() {
    return (req, res, chain) -> chain.doFilter(new UndertowLikeRequest((HttpServletRequest) req),
        new HttpServletResponseWrapper((HttpServletResponse) res) {
          @Override
          public void sendRedirect(String location) throws IOException {
            super.sendRedirect("http://container.example" + location);
          }
        });
  }

  private static final class UndertowLikeRequest extends HttpServletRequestWrapper {
    static final ThreadLocal<Boolean> including = ThreadLocal.withInitial(() -> false);

    UndertowLikeRequest(HttpServletRequest request) {
      super(request);
    }

    @Override
    public DispatcherType getDispatcherType() {
      return including.get() ? DispatcherType.INCLUDE : super.getDispatcherType();
    }
  }
}
