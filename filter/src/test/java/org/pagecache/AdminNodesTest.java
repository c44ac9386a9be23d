package org.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.pagecache.metrics.PageCacheMetrics;
import org.pagecache.store.StoreException;
import org.pagecache.testing.MemcachedExtension;

/**
 * One node of three hung (issue 18), as an editor and an operator see it: Refresh and tag
 * invalidation still answer success (the control data is on the other nodes), and the admin page,
 * {@code api/stats} and the metrics show each node's state and pool, the gutter's included.
 */
class AdminNodesTest {
  @RegisterExtension
  static MemcachedExtension memcached = MemcachedExtension.nodes(4);

  private static final String BEARER = "Bearer " + AdminSite.TOKEN;
  private static final int HUNG = 1;
  private AdminSite site;

  @AfterEach
  void close() {
    memcached.node(HUNG).resume();
    site.close();
  }

  @Test
  void duringAHangRefreshSucceedsAndTheAdminApiAndMetricsShowTheHungNode() {
    String main = memcached.node(0).address() + "," + memcached.node(1).address() + "," + memcached.node(2).address();
    site = AdminSite.on(main).set("memcached.gutter", memcached.node(3).address())
        .set("memcached.op.timeout", "200ms").start();
    // The handler's token lives on every node; make sure node 1 holds one and is then taken out.
    assertEquals(200, api().post(site.admin("/api/handlers/article/refresh"), "Authorization", BEARER).statusCode());
    memcached.node(HUNG).pause();
    for (int i = 0; i < 10 && !site.cache().nodeStates().get(HUNG).down(); i++) {
      try {
        site.cache().store().incr(viewsOnHungNode(), 1, 1, 0);
      } catch (StoreException e) {
        // one timeout more
      }
    }

    HttpResponse<String> refresh = api().post(site.admin("/api/handlers/article/refresh"), "Authorization", BEARER);
    HttpResponse<String> tag = api().post(site.admin("/api/tags/article%3A1/invalidate"), "Authorization", BEARER);
    String stats = api().get(site.admin("/api/stats"), "Authorization", BEARER).body();
    String page = AdminClient.signIn(site, "editor", "editor").get(site.admin("/")).body();
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    new PageCacheMetrics(site.cache()).bindTo(registry);

    assertEquals(200, refresh.statusCode(), refresh.body());
    assertEquals(200, tag.statusCode(), tag.body());
    assertEquals("false", field(stats, "storeDown"), "two nodes of three serve on");
    String hung = stats.substring(stats.indexOf("\"address\":\"" + memcached.node(HUNG).address() + "\""));
    assertEquals("main", field(hung, "pool"));
    assertEquals("false", field(hung, "up"));
    String gutter = stats.substring(stats.indexOf("\"address\":\"" + memcached.node(3).address() + "\""));
    assertEquals("gutter", field(gutter, "pool"));
    assertEquals("true", field(gutter, "up"));
    assertTrue(page.contains("<td>gutter</td>"), "the admin page shows the gutter pool");
    assertEquals(1.0, registry.get("pagecache.memcached.node.down").tag("node", memcached.node(HUNG).address())
        .gauge().value());
    assertEquals(0.0, registry.get("pagecache.memcached.node.down").tag("node", memcached.node(0).address())
        .gauge().value());
  }

  private String viewsOnHungNode() {
    for (int i = 0; ; i++) {
      String key = site.cache().config().namespace().views("object-" + i);
      if (site.cache().engine.store.cluster().nodeOf(key) == HUNG) {
        return key;
      }
    }
  }

  private AdminClient api() {
    return AdminClient.anonymous(site);
  }

  /** The raw value of the first {@code "name":value} in the JSON text. */
  private static String field(String json, String name) {
    int at = json.indexOf("\"" + name + "\":") + name.length() + 3;
    int end = at;
    while (end < json.length() && ",}]".indexOf(json.charAt(end)) < 0) {
      end++;
    }
    return json.substring(at, end).replace("\"", "");
  }
}
