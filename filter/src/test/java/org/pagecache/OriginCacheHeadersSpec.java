package org.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.pagecache.SiteUnderTest.Backend;
import org.pagecache.SiteUnderTest.BothStores;
import org.pagecache.SiteUnderTest.Response;
import org.pagecache.testing.MemcachedExtension;

/**
 * Specification, on both stores: {@code origin-cache-headers=ignore} (issue 39), the operator's
 * override of a handler's browser caching headers. {@code Expires: 0} (Apache Roller sends it on
 * every page), {@code Cache-Control: no-cache, must-revalidate} and {@code Pragma: no-cache} no
 * longer refuse the page: it is stored for the policy's TTL and served as a HIT, with the headers
 * the application sent. {@code Set-Cookie}, {@code private} and {@code no-store} still refuse it.
 * Without the override every one of them is refused, as before.
 */
class OriginCacheHeadersSpec {
  @RegisterExtension
  static MemcachedExtension memcached = MemcachedExtension.nodes(1);

  @RegisterExtension
  final SiteUnderTest.Sites sites = new SiteUnderTest.Sites(memcached);

  /** Handlers sending the headers browsers are told not to reuse the page by; each handler one way. */
  private SiteUnderTest site(Backend backend, String policies) {
    SiteUnderTest site = sites.on(backend);
    if (policies != null) {
      site.set("policies", policies);
    }
    return site
        .handler("expires", SiteServlets.header("Expires", "0"), "/expires")
        .handler("nocache", SiteServlets.header("Cache-Control", "no-cache, must-revalidate"), "/nocache")
        .handler("pragma", SiteServlets.header("Pragma", "no-cache"), "/pragma")
        .handler("maxage0", SiteServlets.header("Cache-Control", "max-age=0"), "/maxage0")
        .start();
  }

  private static final List<String> BROWSER_ONLY = List.of("expires", "nocache", "pragma", "maxage0");

  private static String ignoring(List<String> handlers) {
    return String.join("; ", handlers.stream().map(h -> h + ": origin-cache-headers=ignore").toList());
  }

  @BothStores
  void withTheOverrideBrowserOnlyHeadersNoLongerRefuseThePage(Backend backend) {
    SiteUnderTest site = site(backend, ignoring(BROWSER_ONLY));
    for (String h : BROWSER_ONLY) {
      assertEquals("MISS", site.get("/" + h).xcache(), h);
      Response hit = site.get("/" + h);
      assertEquals("HIT", hit.xcache(), h + ": " + hit);
      assertEquals("call 1", hit.text(), h);
      assertEquals(1, site.calls(h), h + " was built once");
    }
  }

  @BothStores
  void aHitSendsTheApplicationsOwnCachingHeadersAsStored(Backend backend) {
    SiteUnderTest site = site(backend, ignoring(BROWSER_ONLY));
    site.get("/expires");
    site.get("/nocache");
    site.get("/pragma");
    assertEquals("0", site.get("/expires").header("Expires"), "the browser still gets Expires: 0");
    assertEquals("no-cache, must-revalidate", site.get("/nocache").header("Cache-Control"));
    assertEquals("no-cache", site.get("/pragma").header("Pragma"));
  }

  @BothStores
  void withoutTheOverrideTheyAreRefusedAsBefore(Backend backend) {
    SiteUnderTest site = site(backend, "other: origin-cache-headers=ignore");
    for (String h : BROWSER_ONLY) {
      site.get("/" + h);
      Response again = site.get("/" + h);
      assertEquals("BYPASS", again.xcache(), h + ": " + again);
      assertEquals(2, site.calls(h), h);
    }
  }

  @BothStores
  void setCookiePrivateAndNoStoreStillRefuseThePage(Backend backend) {
    SiteUnderTest site = sites.on(backend)
        .set("policies", ignoring(List.of("cookie", "private", "nostore", "own", "cdn")))
        .handler("cookie", SiteServlets.cookie(), "/cookie")
        .handler("private", SiteServlets.header("Cache-Control", "private, max-age=60"), "/private")
        .handler("nostore", SiteServlets.header("Cache-Control", "no-store"), "/nostore")
        .handler("own", SiteServlets.header("PageCache-Control", "no-store"), "/own")
        .handler("cdn", SiteServlets.header("CDN-Cache-Control", "private"), "/cdn")
        .start();
    Response alice = site.get("/cookie");
    Response bob = site.get("/cookie");
    assertEquals("BYPASS", bob.xcache());
    assertFalse(bob.text().contains("user 1"), "Bob never gets Alice's page: " + alice.text() + " / " + bob.text());
    for (String h : List.of("private", "nostore", "own", "cdn")) {
      site.get("/" + h);
      Response again = site.get("/" + h);
      assertEquals("BYPASS", again.xcache(), h + ": " + again);
      assertEquals(2, site.calls(h), h);
    }
  }

  @BothStores
  void thePolicysTtlDecidesNotTheHeaders(Backend backend) {
    SiteUnderTest site = site(backend, "expires: ttl=7m, origin-cache-headers=ignore");
    site.get("/expires");
    CachePolicy p = site.cache.policies().stream().filter(c -> c.handler().equals("expires")).findFirst().orElseThrow();
    assertEquals(Duration.ofMinutes(7), p.ttl());
    assertTrue(p.spec().contains("origin-cache-headers=ignore"), p.spec());
    assertEquals("HIT", site.get("/expires").xcache());
  }

  @Test
  void aBadValueOrTheCombinationWithHonorFailsStartUpNamingWhatIsAccepted() {
    CachePolicy base = CachePolicy.defaults("roller", Duration.ofMinutes(1), Duration.ofMinutes(10));
    IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
        () -> base.with("origin-cache-headers=skip"));
    assertTrue(bad.getMessage().startsWith("policies[roller].origin-cache-headers: 'skip' is not accepted; use obey"
        + " (the default"), bad.getMessage());
    assertTrue(bad.getMessage().contains("or ignore"), bad.getMessage());
    IllegalArgumentException both = assertThrows(IllegalArgumentException.class,
        () -> base.with("cache-control=honor, origin-cache-headers=ignore"));
    assertTrue(both.getMessage().contains("origin-cache-headers=ignore and cache-control=honor contradict"),
        both.getMessage());
    assertThrows(IllegalArgumentException.class, () -> PageCacheConfig.builder().ignoreEnvironment()
        .store(new org.pagecache.store.LocalStore()).set("policies", "weblog: origin-cache-headers=yes").build());
    assertFalse(base.with("origin-cache-headers=obey").ignoreOriginCacheHeaders());
    assertTrue(base.with("origin-cache-headers=IGNORE").ignoreOriginCacheHeaders());
  }
}
