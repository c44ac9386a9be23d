package org.pagecache;

import org.pagecache.stats.Eviction;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.pagecache.SiteUnderTest.Backend;
import org.pagecache.SiteUnderTest.BothStores;
import org.pagecache.SiteUnderTest.Response;
import org.pagecache.testing.MemcachedExtension;

/**
 * Specification, on both stores: path parameters ({@code ;jsessionid=...}, which the container adds
 * when it rewrites URLs for a new session, or any {@code ;name=value} it strips when mapping) are
 * treated as the container maps them when pages are evicted: a write redirecting to
 * {@code /owners/1;jsessionid=...} rebuilds {@code /owners/1}, and so does {@code evict(url)}.
 */
class PathParametersSpec {
  @RegisterExtension
  static MemcachedExtension memcached = MemcachedExtension.nodes(1);

  @RegisterExtension
  final SiteUnderTest.Sites sites = new SiteUnderTest.Sites(memcached);

  private final AtomicReference<String> name = new AtomicReference<>("George Franklin");

  /** An owner page and its edit form's POST, which stores the name and redirects as the container rewrites it. */
  private SiteUnderTest site(Backend backend, SiteServlets.Handler.Body write) {
    SiteServlets.Handler owner = SiteServlets.of((req, res, call) -> {
      res.setContentType("text/html;charset=UTF-8");
      res.getWriter().print("<h1>" + name.get() + "</h1>");
    });
    owner.writes.set(write);
    return sites.on(backend).handler("owner", owner, "/owners/*").start();
  }

  @BothStores
  void aWriteRedirectingWithTheSessionInTheUrlRebuildsThePlainPage(Backend backend) {
    SiteUnderTest site = site(backend, (req, res, call) -> {
      name.set(req.getParameter("name"));
      req.getSession(true).setAttribute("message", "Owner Values Updated"); // a flash attribute: a new session
      res.setStatus(302);
      res.setHeader("Location", res.encodeRedirectURL("/owners/1"));
    });
    site.get("/owners/1");
    assertEquals("HIT", site.get("/owners/1").xcache());
    Response write = site.send("POST", "/owners/1/edit?name=Betty", "Content-Length", "0");
    assertEquals(302, write.status());
    assertTrue(write.header("Location").contains("/owners/1;jsessionid="),
        "the container rewrote the redirect for a session it could not have sent a cookie for yet: " + write.header("Location"));
    Response next = site.get("/owners/1");
    assertEquals("MISS", next.xcache(), "a new visitor's next request is rebuilt");
    assertTrue(next.text().contains("Betty"), next.text());
  }

  @BothStores
  void anyPathParameterOfAContentLocationRebuildsThePlainPage(Backend backend) {
    SiteUnderTest site = site(backend, (req, res, call) -> {
      name.set("Betty");
      res.setHeader("Content-Location", "/owners/2;v=3");
      res.setStatus(200);
    });
    site.get("/owners/2");
    assertEquals("HIT", site.get("/owners/2").xcache());
    assertEquals(200, site.send("POST", "/owners/edit", "Content-Length", "0").status());
    assertEquals("MISS", site.get("/owners/2").xcache());
  }

  @BothStores
  void evictingAUrlWithPathParametersRemovesThePlainPageAndTheOneAsSent(Backend backend) {
    SiteUnderTest site = site(backend, (req, res, call) -> res.setStatus(204));
    site.get("/owners/3");
    site.get("/owners/3;jsessionid=ABC");
    assertEquals("HIT", site.get("/owners/3").xcache());
    assertEquals("HIT", site.get("/owners/3;jsessionid=ABC").xcache(), "the URL as sent keys its own page");
    Eviction eviction = site.cache.evict("http://localhost/owners/3;jsessionid=ABC");
    assertTrue(eviction.existed());
    assertEquals("owner", eviction.handler(), "the handler of the path the container maps it to");
    assertEquals("MISS", site.get("/owners/3").xcache());
    assertEquals("MISS", site.get("/owners/3;jsessionid=ABC").xcache());
  }
}
