package org.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.pagecache.testing.Eventually;
import org.pagecache.testing.MemcachedExtension;

/**
 * The other clusters as editors and scripts see them (issue 19): the JSON answer of an action says
 * which clusters have it and which are pending, api/stats and the admin page show each cluster's
 * backlog and the warm-up's progress.
 */
class AdminClustersTest {
  @RegisterExtension
  static MemcachedExtension here = MemcachedExtension.nodes(1);
  @RegisterExtension
  static MemcachedExtension remote = MemcachedExtension.nodes(1);

  private static final String BEARER = "Bearer " + AdminSite.TOKEN;

  @Test
  void anActionsAnswerTheStatsAndThePageShowWhatIsPendingWhere() {
    try (AdminSite site = AdminSite.on(here.servers())
        .set("memcached.remote", "dc2=" + remote.servers())
        .set("memcached.warm.from", "dc2")
        .set("memcached.warm.for", "1h")
        .set("memcached.op.timeout", "500ms")
        .start()) {
      AdminClient api = AdminClient.anonymous(site);
      remote.node(0).pause();
      HttpResponse<String> refresh;
      String stats;
      String pagePending;
      try {
        refresh = api.post(site.admin("/api/handlers/article/refresh"), "Authorization", BEARER);
        stats = api.get(site.admin("/api/stats"), "Authorization", BEARER).body();
        pagePending = AdminClient.signIn(site, "editor", "editor").get(site.admin("/")).body();
      } finally {
        remote.node(0).resume();
      }

      assertEquals(200, refresh.statusCode(), refresh.body());
      assertTrue(refresh.body().contains("\"clusters\":{\"delivered\":[\"local\"],\"pending\":[\"dc2\"],\"lost\":[]}"),
          refresh.body());
      assertTrue(stats.contains("\"name\":\"dc2\"") && stats.contains("\"reachable\":false")
          && stats.contains("\"backlog\":1"), stats);
      assertTrue(stats.contains("\"warmUp\":{\"from\":\"dc2\",\"active\":true"), stats);
      assertTrue(stats.contains("\"pendingSinceMillis\":") && !stats.contains("\"pendingSinceMillis\":0,")
          && stats.contains("\"overflows\":0"), stats);
      // Issue 37: the editor sees where the refresh is applied and where it waits, since when.
      assertTrue(pagePending.matches("(?s).*<p id=\"cluster-delivery\">.*local: applied; dc2: <b>pending</b> since"
          + " [0-9-]+ [0-9:]+ UTC, 1 invalidation</p>.*"), pagePending);

      Eventually.assertWithin(java.time.Duration.ofSeconds(20), "delivered after SIGCONT",
          () -> api.get(site.admin("/api/stats"), "Authorization", BEARER).body().contains("\"backlog\":0"));
      String page = AdminClient.signIn(site, "editor", "editor").get(site.admin("/")).body();
      assertTrue(page.contains("<section id=\"clusters\"><h2>Other clusters</h2>"), page);
      assertTrue(page.contains("local: applied; dc2: applied</p>"), "updated once delivered: " + page);
      assertTrue(page.contains("<h3>Warm-up from dc2</h3>") && page.contains("Pages copied"), page);
    }
  }
}
