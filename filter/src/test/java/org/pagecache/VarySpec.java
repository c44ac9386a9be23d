package org.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.extension.RegisterExtension;
import org.pagecache.SiteUnderTest.Backend;
import org.pagecache.SiteUnderTest.BothStores;
import org.pagecache.SiteUnderTest.Response;
import org.pagecache.testing.MemcachedExtension;

/**
 * Specification, on both stores: a response's {@code Vary} keys that page's variants and nothing
 * else (RFC 9111 4.1). A header named by one page's {@code Vary} never changes another page's key,
 * so pages stored before stay reachable (it used to be learned for the whole handler: a flush).
 */
class VarySpec {
  @RegisterExtension
  static MemcachedExtension memcached = MemcachedExtension.nodes(1);

  @RegisterExtension
  final SiteUnderTest.Sites sites = new SiteUnderTest.Sites(memcached);

  private SiteUnderTest site(Backend backend) {
    return sites.on(backend).set("near.trust", "0s").handler("page", SiteServlets.of((req, res, call) -> {
      if (req.getRequestURI().startsWith("/page/varied")) {
        res.setHeader("Vary", "X-Foo");
      }
      res.setContentType("text/plain");
      res.getWriter().print(req.getRequestURI() + " foo=" + req.getHeader("X-Foo") + " call " + call);
    }), "/page/*").start();
  }

  @BothStores
  void aPageThatVariesDoesNotFlushTheOtherPagesOfItsHandler(Backend backend) {
    SiteUnderTest site = site(backend);
    site.get("/page/a");
    site.get("/page/b");
    Response r = site.get("/page/varied", "X-Foo", "1");
    assertEquals("MISS", r.xcache(), r.toString());
    assertEquals("HIT", site.get("/page/a").xcache());
    assertEquals("HIT", site.get("/page/b", "X-Foo", "2").xcache(), "X-Foo is not part of /page/b's key");
    assertEquals(3, site.calls("page"));
  }

  @BothStores
  void eachVariantIsStoredAndServedOnItsOwn(Backend backend) {
    SiteUnderTest site = site(backend);
    site.get("/page/varied", "X-Foo", "1");
    site.get("/page/varied", "X-Foo", "2");
    Response one = site.get("/page/varied", "X-Foo", "1");
    Response two = site.get("/page/varied", "X-Foo", "2");
    assertEquals("HIT", one.xcache());
    assertEquals("HIT", two.xcache());
    assertEquals("/page/varied foo=1 call 1", one.text());
    assertEquals("/page/varied foo=2 call 2", two.text());
    assertEquals(2, site.calls("page"));
  }

  @BothStores
  void aPageWithoutVaryStillCostsOneRoundTripAfterAnotherPageVaried(Backend backend) {
    SiteUnderTest site = site(backend);
    site.get("/page/plain");
    site.get("/page/varied", "X-Foo", "1");
    long before = site.roundTrips();
    assertEquals("HIT", site.get("/page/plain").xcache());
    assertEquals(1, site.roundTrips() - before);
  }

  @BothStores
  void evictingAUrlRemovesEveryVariant(Backend backend) {
    SiteUnderTest site = site(backend);
    site.get("/page/varied", "X-Foo", "1");
    site.get("/page/varied", "X-Foo", "2");
    site.get("/page/plain");
    site.cache.evict("http://localhost/page/plain");
    assertEquals("MISS", site.get("/page/plain").xcache());
    site.cache.evict("http://localhost/page/varied");
    Response r = site.get("/page/varied", "X-Foo", "1");
    assertEquals("MISS", r.xcache(), r.toString());
    assertEquals("MISS", site.get("/page/varied", "X-Foo", "2").xcache());
    assertEquals(6, site.calls("page"));
  }
}
