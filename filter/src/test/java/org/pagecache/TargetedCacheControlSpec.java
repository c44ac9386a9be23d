package org.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Duration;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.pagecache.SiteUnderTest.Backend;
import org.pagecache.SiteUnderTest.BothStores;
import org.pagecache.SiteUnderTest.Response;
import org.pagecache.testing.MemcachedExtension;
import org.pagecache.testing.MutableClock;

/**
 * Specification, on both stores, with {@code cache-control=honor}: {@code CDN-Cache-Control}
 * (RFC 9213) replaces {@code Cache-Control} for this cache, and {@code PageCache-Control}, the
 * field addressed to PageCache alone, replaces both and never reaches the client.
 */
class TargetedCacheControlSpec {
  @RegisterExtension
  static MemcachedExtension memcached = MemcachedExtension.nodes(1);

  @RegisterExtension
  final SiteUnderTest.Sites sites = new SiteUnderTest.Sites(memcached);

  private final MutableClock clock = new MutableClock();

  private SiteUnderTest site(Backend backend, String... headers) {
    return sites.on(backend).clock(clock).set("policies", "page: cache-control=honor")
        .handler("page", SiteServlets.of((req, res, call) -> {
          for (int i = 0; i + 1 < headers.length; i += 2) {
            res.addHeader(headers[i], headers[i + 1]);
          }
          res.getWriter().print("call " + call);
        }), "/page/*").start();
  }

  @BothStores
  void cdnCacheControlSetsTheLifetimeInsteadOfCacheControl(Backend backend) {
    SiteUnderTest site = site(backend, "Cache-Control", "max-age=1000", "CDN-Cache-Control", "max-age=5");
    Response miss = site.get("/page/a");
    assertEquals("max-age=1000", miss.header("Cache-Control"), "the browsers' field is left alone");
    clock.advance(Duration.ofSeconds(6));
    assertEquals("MISS", site.get("/page/a").xcache());
  }

  @BothStores
  void cdnCacheControlStoresWhatCacheControlKeepsFromBrowsers(Backend backend) {
    SiteUnderTest site = site(backend, "Cache-Control", "no-store", "CDN-Cache-Control", "max-age=60");
    site.get("/page/b");
    assertEquals("HIT", site.get("/page/b").xcache());
  }

  @BothStores
  void pageCacheControlWinsOverBothAndIsNeverSent(Backend backend) {
    SiteUnderTest site = site(backend, "Cache-Control", "max-age=5", "CDN-Cache-Control", "no-store",
        "PageCache-Control", "max-age=300");
    Response miss = site.get("/page/c");
    clock.advance(Duration.ofSeconds(200));
    Response hit = site.get("/page/c");
    assertEquals("HIT", hit.xcache());
    assertNull(miss.header("PageCache-Control"), miss.toString());
    assertNull(hit.header("PageCache-Control"), hit.toString());
    assertEquals("no-store", hit.header("CDN-Cache-Control"), "meant for the caches in front");
  }

  @BothStores
  void pageCacheControlIsNotSentWithAPageThatIsNotStored(Backend backend) {
    SiteUnderTest site = site(backend, "PageCache-Control", "no-store");
    Response refused = site.get("/page/d");
    assertNull(refused.header("PageCache-Control"), refused.toString());
    site.get("/page/d");
    assertEquals(2, site.calls("page"), "not stored");
  }
}
