package org.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.pagecache.testing.MemcachedExtension;

/**
 * Pools per kind of page (issue 18; Facebook's memcache paper, §3.2.3): a handler with
 * {@code pool=big} keeps its pages in that pool's servers only, the other handlers' pages never go
 * there, and tokens stay in the main cluster; the pooled pages are hits as usual. Nodes 0 and 1
 * are the main cluster, node 2 the pool {@code big}.
 */
class PoolsTest {
  @RegisterExtension
  static MemcachedExtension memcached = MemcachedExtension.nodes(3);

  @RegisterExtension
  final FaultSite sites = new FaultSite();

  @Test
  void aPooledHandlersPagesLiveInItsPoolAndNowhereElse() {
    SiteServlets.Handler big = SiteServlets.bytes(50_000);
    SiteServlets.Handler small = SiteServlets.page();
    CachedSite site = sites.on(memcached.node(0).address() + "," + memcached.node(1).address())
        .set("memcached.pools", "big=" + memcached.node(2).address())
        .set("policies", "big: pool=big, paths=/big/*; small: paths=/small/*")
        .set("near.trust", "0s")
        .handler("big", big, "/big/*").handler("small", small, "/small/*").start();
    List<String> bigPaths = List.of("/big/1", "/big/2", "/big/3", "/big/4", "/big/5", "/big/6");
    List<String> smallPaths = List.of("/small/1", "/small/2", "/small/3", "/small/4", "/small/5", "/small/6");
    bigPaths.forEach(site::get);
    smallPaths.forEach(site::get);

    for (String path : bigPaths) {
      String key = site.pageKey("big", path, null);
      assertNotNull(memcached.text(2).getBytes(key), path + " in the pool");
      assertNull(memcached.text(0).getBytes(key), path + " not in the main cluster");
      assertNull(memcached.text(1).getBytes(key), path + " not in the main cluster");
      assertEquals("HIT", site.get(path).headers().firstValue("X-Cache").orElse(""), path + " is a hit");
    }
    for (String path : smallPaths) {
      assertNull(memcached.text(2).getBytes(site.pageKey("small", path, null)), path + " never in the pool");
    }
    assertEquals(6, big.calls.get(), "each big page built once");
    String token = site.cache.engine.tokens.key("big");
    assertNull(memcached.text(2).getBytes(token), "the pooled handler's token stays in the main cluster");
    assertTrue(memcached.text(0).getBytes(token) != null && memcached.text(1).getBytes(token) != null,
        "on every main node");
    assertTrue(site.cache.nodeStates().stream().anyMatch(n -> n.pool().equals("big")
        && n.name().equals(memcached.node(2).address())), "the pool's node is listed: " + site.cache.nodeStates());
  }
}
