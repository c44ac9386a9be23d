package org.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.pagecache.testing.Http;
import org.pagecache.testing.MemcachedExtension;

/**
 * {@code refreshed-by=} in a plain Jakarta application (issue 39): a blog whose editor posts to
 * {@code /roller-ui/authoring/...}, never to the pages the post changes, as Apache Roller's does. A
 * successful write to a path of the weblog handler's {@code refreshed-by=} refreshes every page of
 * the weblog before the write's answer starts; a failed write, a write elsewhere or a deeper path
 * than the pattern reaches refreshes nothing. Real HTTP, embedded Jetty 12, real memcached.
 */
class RefreshedByTest {
  @RegisterExtension
  static MemcachedExtension memcached = MemcachedExtension.nodes(1);

  @RegisterExtension
  final CachedSite.Sites sites = new CachedSite.Sites(memcached);

  private CachedSite site;

  /** The weblog's pages, and an editor whose writes answer with the status given in ?status= (302 by default). */
  private CachedSite blog(String policies) {
    SiteServlets.Handler editor = SiteServlets.page();
    editor.writes.set((req, res, call) -> {
      String status = req.getParameter("status");
      if (status != null) {
        res.sendError(Integer.parseInt(status));
        return;
      }
      res.sendRedirect(req.getContextPath() + "/roller-ui/authoring/entries");
    });
    site = sites.open().set("policies", policies)
        .handler("weblog", SiteServlets.page(), "/weblog/*")
        .handler("editor", editor, "/roller-ui/*")
        .start();
    return site;
  }

  private static String xcache(HttpResponse<?> r) {
    return r.headers().firstValue("X-Cache").orElse(null);
  }

  private void warm(String path) {
    site.get(path);
    assertEquals("HIT", xcache(site.get(path)), path);
  }

  @Test
  void aSuccessfulWriteToTheEditorRefreshesEveryPageOfTheWeblog() {
    blog("weblog: ttl=5m, refreshed-by=/roller-ui/authoring/*");
    warm("/weblog/front");
    warm("/weblog/entry/hello");

    HttpResponse<byte[]> post = Http.post(site.uri("/roller-ui/authoring/entryAdd.rol"), "title=New");

    assertEquals(302, post.statusCode());
    assertEquals("MISS", xcache(site.get("/weblog/front")), "the front page shows the new entry");
    assertEquals("MISS", xcache(site.get("/weblog/entry/hello")), "every page of the handler is rebuilt");
    assertEquals("HIT", xcache(site.get("/weblog/front")));
    assertEquals("write POST /roller-ui/authoring/entryAdd.rol", site.cache.stats().handler("weblog").lastRefreshBy(),
        "the admin page says which write refreshed it");
  }

  @Test
  void aFailedWriteAWriteElsewhereAndADeeperPathRefreshNothing() {
    blog("weblog: ttl=5m, refreshed-by=/roller-ui/authoring/*");
    warm("/weblog/front");

    assertEquals(403, Http.post(site.uri("/roller-ui/authoring/entryAdd.rol?status=403"), "").statusCode());
    assertEquals(302, Http.post(site.uri("/roller-ui/login.rol"), "").statusCode());
    assertEquals(302, Http.post(site.uri("/roller-ui/authoring/media/upload.rol"), "").statusCode());

    assertEquals("HIT", xcache(site.get("/weblog/front")), "/roller-ui/authoring/* is one segment deep");
    assertEquals(1, site.calls("weblog"));
  }

  @Test
  void doubleStarReachesAnyDepthAndTheWritersInvalidateOffDoesNotStopIt() {
    blog("weblog: ttl=5m, refreshed-by=/roller-ui/authoring/**|/roller-ui/admin/{id}/save; editor: invalidate=off");
    warm("/weblog/front");
    assertEquals(302, Http.post(site.uri("/roller-ui/authoring/media/upload.rol"), "").statusCode());
    assertEquals("MISS", xcache(site.get("/weblog/front")));
    site.get("/weblog/front");
    assertEquals(302, Http.send("DELETE", site.uri("/roller-ui/admin/7/save")).statusCode());
    assertEquals("MISS", xcache(site.get("/weblog/front")), "{id} is any one segment; DELETE is a write");
  }

  @Test
  void aWriteThatSaysItChangesNoPageRefreshesNothing() {
    SiteServlets.Handler editor = SiteServlets.page();
    editor.writes.set((req, res, call) -> {
      req.setAttribute(PageCache.CHANGES_NO_PAGE_ATTRIBUTE, Boolean.TRUE); // a preview
      res.setStatus(200);
    });
    site = sites.open().set("policies", "weblog: refreshed-by=/roller-ui/**")
        .handler("weblog", SiteServlets.page(), "/weblog/*")
        .handler("editor", editor, "/roller-ui/*")
        .start();
    warm("/weblog/front");
    assertEquals(200, Http.post(site.uri("/roller-ui/authoring/preview.rol"), "").statusCode());
    assertEquals("HIT", xcache(site.get("/weblog/front")));
    assertTrue(site.cache.stats().handler("weblog").lastRefreshBy().isEmpty(), "never refreshed");
  }
}
