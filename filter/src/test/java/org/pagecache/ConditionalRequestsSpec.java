package org.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.extension.RegisterExtension;
import org.pagecache.SiteUnderTest.Backend;
import org.pagecache.SiteUnderTest.BothStores;
import org.pagecache.SiteUnderTest.Response;
import org.pagecache.testing.MemcachedExtension;

/**
 * Specification, on both stores (fast tier, {@link SiteUnderTest}): a cached page carries a strong
 * ETag, and a client that already has it gets a 304 without a body, with the validators and
 * caching headers a 200 would have carried.
 */
class ConditionalRequestsSpec {
  @RegisterExtension
  static MemcachedExtension memcached = MemcachedExtension.nodes(1);

  @RegisterExtension
  final SiteUnderTest.Sites sites = new SiteUnderTest.Sites(memcached);

  @BothStores
  void ifNoneMatchGives304WithoutBody(Backend backend) {
    SiteUnderTest site = sites.on(backend).handler("page", SiteServlets.page(), "/page/*").start();
    Response first = site.get("/page/etag");
    String etag = first.header("ETag");
    assertNotNull(etag, first.toString());
    assertTrue(etag.startsWith("\"") && etag.endsWith("\""), "strong ETag: " + etag);
    Response conditional = site.get("/page/etag", "If-None-Match", etag);
    assertEquals(304, conditional.status());
    assertEquals(0, conditional.body().length);
    assertEquals(etag, conditional.header("ETag"));
    assertEquals(200, site.get("/page/etag", "If-None-Match", "\"other\"").status());
    assertEquals(1, site.calls("page"));
  }

  @BothStores
  void aNotModifiedCarriesTheValidatorsAndCachingHeaders(Backend backend) {
    SiteUnderTest site = sites.on(backend).handler("cc", SiteServlets.of((req, res, call) -> {
      res.setHeader("Cache-Control", "public, max-age=30");
      res.setContentType("text/html");
      res.getWriter().print(SiteServlets.filler(20));
    }), "/cc").start();
    String etag = site.get("/cc").header("ETag");
    assertNotNull(etag);
    Response notModified = site.get("/cc", "If-None-Match", etag, "Accept-Encoding", "gzip");
    assertEquals(304, notModified.status());
    assertEquals("public, max-age=30", notModified.header("Cache-Control"));
    assertTrue(String.valueOf(notModified.header("Vary")).contains("Accept-Encoding"), notModified.toString());
    assertNotNull(notModified.header("ETag"));
    assertNull(notModified.header("Content-Encoding"));
  }
}
