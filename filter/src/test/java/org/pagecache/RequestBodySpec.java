package org.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.servlet.Filter;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.pagecache.SiteUnderTest.Backend;
import org.pagecache.SiteUnderTest.BothStores;
import org.pagecache.SiteUnderTest.Response;
import org.pagecache.testing.MemcachedExtension;

/**
 * Specification, on both stores (issue 35, class 2: fat GET): a GET or HEAD that carries a body
 * bypasses, whatever frames the body, so the page its sender shaped never reaches anyone else and
 * a stored page is not what answers it; a build that reads a body the lookup did not see is not
 * stored; the bypasses are counted under {@code request-body}. Over real sockets and HTTP/2 in
 * {@link RequestBodyTest}.
 */
class RequestBodySpec {
  @RegisterExtension
  static MemcachedExtension memcached = MemcachedExtension.nodes(1);

  @RegisterExtension
  final SiteUnderTest.Sites sites = new SiteUnderTest.Sites(memcached);

  /** A search API that reads its query from the body of a GET, as {@code @RequestBody} on a {@code @GetMapping} does. */
  static SiteServlets.Handler search() {
    return SiteServlets.of((req, res, call) -> {
      String body = new String(req.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      res.setContentType("text/html;charset=UTF-8");
      res.getWriter().print("<p>results for " + (body.isEmpty() ? "everything" : body) + "</p>");
    });
  }

  private static String fat(String method, String path, String body) {
    return method + " " + path + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: "
        + body.getBytes(StandardCharsets.UTF_8).length + "\r\nConnection: close\r\n\r\n" + body;
  }

  private static String chunked(String path, String body) {
    return "GET " + path + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
        + "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
        + Integer.toHexString(body.length()) + "\r\n" + body + "\r\n0\r\n\r\n";
  }

  private static void bypassedForItsBody(Response r) {
    assertEquals("BYPASS", r.xcache(), r.toString());
    assertTrue(r.header("Cache-Status").contains("detail=request-body"), r.header("Cache-Status"));
  }

  @BothStores
  void aGetWithAContentLengthBodyBypassesAndNeverPoisonsThePage(Backend backend) {
    SiteUnderTest site = sites.on(backend).handler("search", search(), "/search").start();
    Response attack = site.raw(fat("GET", "/search", "{\"q\":\"<script>evil()</script>\"}"));
    bypassedForItsBody(attack);
    assertTrue(attack.text().contains("evil()"), "the sender still gets its own answer");
    Response plain = site.get("/search");
    assertEquals("MISS", plain.xcache(), "the fat GET stored nothing");
    assertFalse(plain.text().contains("evil"));
    assertEquals("HIT", site.get("/search").xcache());
    // the other order: the stored page does not answer a request with a body
    Response second = site.raw(fat("GET", "/search", "{\"q\":\"shoes\"}"));
    bypassedForItsBody(second);
    assertTrue(second.text().contains("shoes"), second.text());
    assertFalse(site.get("/search").text().contains("shoes"));
    assertEquals("HIT", site.raw(fat("GET", "/search", "")).xcache(), "Content-Length: 0 is no body");
    assertEquals(2L, site.cache.stats().handler("search").bypassesByReason().get("request-body"),
        "counted per reason, as the admin page and api/stats show them");
  }

  @BothStores
  void aGetWithAChunkedBodyBypasses(Backend backend) {
    SiteUnderTest site = sites.on(backend).handler("search", search(), "/search").start();
    Response attack = site.raw(chunked("/search?page=1", "{\"q\":\"chunked-evil\"}"));
    bypassedForItsBody(attack);
    assertTrue(attack.text().contains("chunked-evil"), attack.text());
    Response plain = site.get("/search?page=1");
    assertEquals("MISS", plain.xcache());
    assertFalse(plain.text().contains("chunked-evil"));
    bypassedForItsBody(site.raw(chunked("/search?page=1", "{\"q\":\"again\"}")));
    assertEquals("HIT", site.get("/search?page=1").xcache());
  }

  @BothStores
  void aHeadWithABodyBypasses(Backend backend) {
    SiteUnderTest site = sites.on(backend).handler("search", search(), "/search").start();
    Response head = site.raw(fat("HEAD", "/search", "{\"q\":\"head-evil\"}"));
    bypassedForItsBody(head);
    assertEquals("MISS", site.get("/search").xcache(), "the HEAD built no page for others");
    assertFalse(site.get("/search").text().contains("head-evil"));
  }

  /**
   * A body the headers do not announce (HTTP/2 DATA frames that arrive after the lookup), played by
   * a filter before PageCache that hands the request a body: the build reads it, so its page is
   * not stored, and no marker keeps the next visitor from the cache.
   */
  @BothStores
  void aBuildThatReadsABodyTheLookupDidNotSeeIsNotStored(Backend backend) {
    SiteUnderTest site = sites.on(backend).before(lateBody("{\"q\":\"late-evil\"}"))
        .handler("search", search(), "/search").start();
    Response attack = site.get("/search", "X-Test-Late-Body", "1");
    bypassedForItsBody(attack);
    assertTrue(attack.text().contains("late-evil"), attack.text());
    Response plain = site.get("/search");
    assertEquals("MISS", plain.xcache(), "nothing was stored, and no refusal marker made it wait or pass");
    assertFalse(plain.text().contains("late-evil"));
    assertEquals("HIT", site.get("/search").xcache());
  }

  /** A filter that gives requests marked with {@code X-Test-Late-Body} a body without Content-Length. */
  private static Filter lateBody(String body) {
    return (request, response, chain) -> {
      HttpServletRequest req = (HttpServletRequest) request;
      if (req.getHeader("X-Test-Late-Body") == null) {
        chain.doFilter(request, response);
        return;
      }
      ByteArrayInputStream bytes = new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8));
      chain.doFilter(new HttpServletRequestWrapper(req) {
        @Override
        public ServletInputStream getInputStream() {
          return new ServletInputStream() {
            @Override
            public int read() {
              return bytes.read();
            }

            @Override
            public boolean isFinished() {
              return bytes.available() == 0;
            }

            @Override
            public boolean isReady() {
              return true;
            }

            @Override
            public void setReadListener(ReadListener listener) {
              throw new UnsupportedOperationException();
            }
          };
        }
      }, response);
    };
  }
}
