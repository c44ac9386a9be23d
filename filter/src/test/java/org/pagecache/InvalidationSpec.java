package org.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.extension.RegisterExtension;
import org.pagecache.SiteUnderTest.Backend;
import org.pagecache.SiteUnderTest.BothStores;
import org.pagecache.testing.MemcachedExtension;

/**
 * Specification, on both stores: a successful write to a URL (any unsafe method answered 2xx or
 * 3xx) rebuilds the next GET of it, and of the same-host Location and Content-Location it answered
 * with (RFC 9111 4.4): a comment posted to {@code /article/36} rebuilds {@code /article/36}. A
 * failed write changes nothing; {@code invalidate=off} turns it off, and a handler says a write
 * changed no page with {@link PageCache#CHANGES_NO_PAGE_ATTRIBUTE}.
 */
class InvalidationSpec {
  @RegisterExtension
  static MemcachedExtension memcached = MemcachedExtension.nodes(1);

  @RegisterExtension
  final SiteUnderTest.Sites sites = new SiteUnderTest.Sites(memcached);

  private SiteUnderTest site(Backend backend, String policies, SiteServlets.Handler.Body write) {
    SiteServlets.Handler page = SiteServlets.page();
    page.writes.set(write);
    return sites.on(backend).set("policies", policies).handler("page", page, "/page/*").start();
  }

  @BothStores
  void aPostToAPageRebuildsItsNextGet(Backend backend) {
    SiteUnderTest site = site(backend, "", (req, res, call) -> res.setStatus(204));
    site.get("/page/article?id=36");
    assertEquals("HIT", site.get("/page/article?id=36").xcache());
    assertEquals(204, site.send("POST", "/page/article?id=36").status());
    assertEquals("MISS", site.get("/page/article?id=36").xcache());
    assertEquals(2, site.calls("page"));
  }

  @BothStores
  void putAndDeleteRebuildToo(Backend backend) {
    SiteUnderTest site = site(backend, "", (req, res, call) -> res.setStatus(200));
    site.get("/page/a");
    site.send("PUT", "/page/a");
    assertEquals("MISS", site.get("/page/a").xcache());
    site.send("DELETE", "/page/a");
    assertEquals("MISS", site.get("/page/a").xcache());
    assertEquals(3, site.calls("page"));
  }

  @BothStores
  void theLocationAndContentLocationOfASuccessfulWriteAreRebuilt(Backend backend) {
    SiteUnderTest site = site(backend, "", (req, res, call) -> {
      res.setHeader("Content-Location", "http://localhost/page/created");
      res.sendRedirect("/page/list");
    });
    site.get("/page/list");
    site.get("/page/created");
    site.get("/page/other");
    assertEquals(302, site.send("POST", "/page/form").status());
    assertEquals("MISS", site.get("/page/list").xcache());
    assertEquals("MISS", site.get("/page/created").xcache());
    assertEquals("HIT", site.get("/page/other").xcache());
  }

  @BothStores
  void aFailedWriteChangesNothing(Backend backend) {
    SiteUnderTest site = site(backend, "", (req, res, call) -> res.sendError(409));
    site.get("/page/a");
    assertEquals(409, site.send("POST", "/page/a").status());
    assertEquals("HIT", site.get("/page/a").xcache());
  }

  @BothStores
  void invalidateOffKeepsThePage(Backend backend) {
    SiteUnderTest site = site(backend, "page: invalidate=off", (req, res, call) -> res.setStatus(204));
    site.get("/page/a");
    site.send("POST", "/page/a");
    assertEquals("HIT", site.get("/page/a").xcache());
  }

  @BothStores
  void aWriteThatSaysItChangesNoPageKeepsThePage(Backend backend) {
    SiteUnderTest site = site(backend, "", (req, res, call) -> {
      req.setAttribute(PageCache.CHANGES_NO_PAGE_ATTRIBUTE, Boolean.TRUE);
      res.setStatus(204);
    });
    site.get("/page/a");
    assertEquals(204, site.send("POST", "/page/a").status());
    assertEquals("HIT", site.get("/page/a").xcache());
  }
}
