package org.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.extension.RegisterExtension;
import org.pagecache.SiteUnderTest.Backend;
import org.pagecache.SiteUnderTest.BothStores;
import org.pagecache.SiteUnderTest.Response;
import org.pagecache.testing.MemcachedExtension;

/**
 * Specification, on both stores: the application's own validators stand. Its {@code ETag} and
 * {@code Last-Modified} are sent on the miss and on every hit, and a client holding them gets a
 * 304 ({@code If-None-Match}, else {@code If-Modified-Since}); PageCache's body hash is the ETag
 * only of pages that come without one.
 */
class ValidatorsSpec {
  private static final String MODIFIED = "Tue, 15 Nov 1994 12:45:26 GMT";

  @RegisterExtension
  static MemcachedExtension memcached = MemcachedExtension.nodes(1);

  @RegisterExtension
  final SiteUnderTest.Sites sites = new SiteUnderTest.Sites(memcached);

  private SiteUnderTest site(Backend backend) {
    return sites.on(backend).handler("doc", SiteServlets.of((req, res, call) -> {
      res.setHeader("ETag", "\"v7\"");
      res.setHeader("Last-Modified", MODIFIED);
      res.setContentType("text/plain");
      res.getWriter().print("version 7");
    }), "/doc/*").start();
  }

  @BothStores
  void theApplicationsEtagIsSentOnTheMissAndTheHit(Backend backend) {
    SiteUnderTest site = site(backend);
    Response miss = site.get("/doc/1");
    Response hit = site.get("/doc/1");
    assertEquals("\"v7\"", miss.header("ETag"), miss.toString());
    assertEquals("HIT", hit.xcache());
    assertEquals("\"v7\"", hit.header("ETag"));
    assertEquals(MODIFIED, hit.header("Last-Modified"));
  }

  @BothStores
  void ifNoneMatchWithTheApplicationsEtagGets304(Backend backend) {
    SiteUnderTest site = site(backend);
    site.get("/doc/2");
    Response conditional = site.get("/doc/2", "If-None-Match", "W/\"v6\", \"v7\"");
    assertEquals(304, conditional.status(), conditional.toString());
    assertEquals("\"v7\"", conditional.header("ETag"));
    assertEquals(200, site.get("/doc/2", "If-None-Match", "\"v6\"").status());
    assertEquals(1, site.calls("doc"));
  }

  @BothStores
  void ifModifiedSinceGets304WhenThePageIsNoNewer(Backend backend) {
    SiteUnderTest site = site(backend);
    site.get("/doc/3");
    assertEquals(304, site.get("/doc/3", "If-Modified-Since", MODIFIED).status());
    assertEquals(304, site.get("/doc/3", "If-Modified-Since", "Wed, 16 Nov 1994 00:00:00 GMT").status());
    assertEquals(200, site.get("/doc/3", "If-Modified-Since", "Mon, 14 Nov 1994 00:00:00 GMT").status());
    assertEquals(200, site.get("/doc/3", "If-None-Match", "\"v6\"", "If-Modified-Since", MODIFIED).status(),
        "If-None-Match decides when both are sent");
  }
}
