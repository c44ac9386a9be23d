package org.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.pagecache.metrics.PageCacheMetrics;
import org.pagecache.testing.MemcachedExtension;

/**
 * Micrometer metrics in a plain Jakarta application: the registry is a ServletContext attribute,
 * requests go through real HTTP on Jetty to real memcached, and the meters count them per handler.
 */
class MetricsTest {
  @RegisterExtension
  static MemcachedExtension memcached = MemcachedExtension.nodes(1);

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  @RegisterExtension
  final CachedSite.Sites sites = new CachedSite.Sites(memcached);
  private CachedSite site;

  private CachedSite site() {
    site = sites.open()
        .set("policies", "page: sessions=off")
        .handler("page", SiteServlets.page(), "/page/*")
        .handler("cookie", SiteServlets.cookie(), "/cookie/*")
        .with(ctx -> ctx.setAttribute(PageCacheMetrics.REGISTRY_ATTRIBUTE, registry));
    return site.start();
  }

  private double gets(String handler, String result) {
    return registry.get("cache.gets").tag("cache", handler).tag("result", result).functionCounter().count();
  }

  @Test
  void getsAreCountedPerHandlerByResult() {
    site();
    site.get("/page/a");
    site.get("/page/a");
    site.get("/page/a");
    site.get("/page/b");

    assertEquals(2, gets("page", "hit"));
    assertEquals(2, gets("page", "miss"));
    assertEquals(0, gets("page", "stale"));
    assertEquals(0, gets("page", "bypass"));
    assertEquals(2, registry.get("cache.puts").tag("cache", "page").functionCounter().count());
    assertEquals("pagecache", registry.get("cache.gets").tag("cache", "page").meters().iterator().next().getId().getTag("cache.manager"));
  }

  @Test
  void rebuildsAreTimed() {
    site();
    site.get("/page/a");
    site.get("/page/a");

    FunctionTimer rebuild = registry.get("pagecache.rebuild").tag("cache", "page").functionTimer();
    assertEquals(1, rebuild.count());
    assertEquals(true, rebuild.totalTime(java.util.concurrent.TimeUnit.NANOSECONDS) > 0);
  }

  @Test
  void bypassesAreCountedByReason() {
    site();
    site.get("/cookie/1");                                   // the response sets a cookie: not stored
    site.get("/page/a", "Cookie", "JSESSIONID=abc");         // a visitor with a session: not looked up

    assertEquals(1, registry.get("pagecache.bypasses").tag("cache", "cookie").tag("reason", "set-cookie").functionCounter().count());
    assertEquals(1, registry.get("pagecache.bypasses").tag("cache", "page").tag("reason", "session").functionCounter().count());
    assertEquals(1, gets("page", "bypass"));
  }

  @Test
  void storeStateAndErrorsHaveMeters() {
    site();
    site.get("/page/a");

    assertEquals(0, registry.get("pagecache.store.down").gauge().value());
    assertEquals(0, registry.get("pagecache.store.errors").tag("cache", "page").functionCounter().count());
    assertNotNull(registry.get("pagecache.lock.waits").tag("cache", "page").functionCounter());
  }

  @Test
  void theNearCacheReportsItsPagesMemoryAndHits() {
    site();
    site.get("/page/a"); // built and stored: remembered in this JVM
    site.get("/page/a"); // from this JVM's memory

    assertEquals(1, registry.get("pagecache.near.entries").gauge().value());
    assertTrue(registry.get("pagecache.near.bytes").gauge().value() > 0);
    assertEquals(1, registry.get("pagecache.near.gets").tag("result", "hit").functionCounter().count());
  }
}
