package org.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.IntStream;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.pagecache.testing.NutcrackerExtension;

/**
 * PageCache behind a real twemproxy (nutcracker) with three memcached servers behind it, the
 * proxy the only server PageCache is given ({@code memcached.servers}) and the default
 * {@code memcached.proxy=auto} (issue 31): pages are cached, Refresh works, the admin API's stats
 * do not break the proxy's connection, and a memcached server dying behind the proxy costs its
 * share of the pages once.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ProxyTest {
  @RegisterExtension
  static NutcrackerExtension proxy = NutcrackerExtension.inFrontOf(3);

  private static final int PAGES = 60;
  private static final String BEARER = "Bearer " + AdminSite.TOKEN;

  @Test
  @Order(1)
  void pagesAreCachedAndRefreshAppliesBehindTwemproxy() {
    try (AdminSite site = AdminSite.on(proxy.server()).start()) {
      List<String> paths = IntStream.range(0, PAGES).mapToObj(i -> "/article/" + i).toList();
      assertEquals(Map.of("MISS", (long) PAGES), round(site.site, paths), "the first round builds every page");
      assertEquals(Map.of("HIT", (long) PAGES), round(site.site, paths), "the second round is all hits");
      assertFalse(site.cache().nodeStates().get(0).down(), "the proxy is up: " + site.cache().nodeStates());
      assertTrue(site.cache().store().serverStats().get(0).up(), "and reported up");

      HttpResponse<String> stats = AdminClient.anonymous(site).get(site.admin("/api/stats"), "Authorization", BEARER);
      assertEquals(200, stats.statusCode(), stats.body());
      assertEquals(Map.of("HIT", (long) PAGES), round(site.site, paths),
          "still all hits after the admin API read the servers' stats (twemproxy closes a connection that asks)");

      HttpResponse<String> refresh = AdminClient.anonymous(site)
          .post(site.admin("/api/handlers/article/refresh"), "Authorization", BEARER);
      assertEquals(200, refresh.statusCode(), refresh.body());
      int calls = site.site.calls("article");
      assertEquals(Map.of("MISS", (long) PAGES), round(site.site, paths), "the refresh applies to every page");
      assertEquals(calls + PAGES, site.site.calls("article"), "each page rebuilt once");
      assertEquals(Map.of("HIT", (long) PAGES), round(site.site, paths), "and cached again");
    }
  }

  @Test
  @Order(2) // last: the proxy keeps the killed server ejected for its retry timeout
  void aServerDyingBehindTheProxyCostsItsShareOfThePagesOnce() {
    CachedSite site = new CachedSite(proxy.server()).set("near.trust", "0s")
        .handler("page", SiteServlets.page(), "/page/*");
    try (site) {
      site.start();
      List<String> paths = FaultSite.pages(PAGES);
      assertEquals(Map.of("MISS", (long) PAGES), round(site, paths));
      assertEquals(Map.of("HIT", (long) PAGES), round(site, paths));
      long onKilled = paths.stream()
          .filter(p -> proxy.memcached().text(1).getBytes(site.pageKey("page", p, null)) != null).count();
      assertTrue(onKilled > 0 && onKilled < PAGES, "the proxy spread the pages: " + onKilled + " on server 1");

      proxy.memcached().node(1).stop();
      List<Map<String, Long>> rounds = new ArrayList<>();
      for (int i = 0; i < 10 && (rounds.isEmpty() || !rounds.get(rounds.size() - 1).equals(Map.of("HIT", (long) PAGES))); i++) {
        rounds.add(round(site, paths));
      }
      long rebuilt = rounds.stream().mapToLong(r -> r.getOrDefault("MISS", 0L)).sum();
      System.out.printf("ProxyTest: server 1 of 3 behind twemproxy held %d of %d pages; rounds after it died: %s%n",
          onKilled, PAGES, rounds);
      assertEquals(Map.of("HIT", (long) PAGES), rounds.get(rounds.size() - 1), "a round of all hits again: " + rounds);
      assertTrue(rebuilt >= onKilled && rebuilt <= onKilled + 3,
          "its " + onKilled + " pages rebuilt once each (on the other servers), no others; rebuilt " + rebuilt);
      assertFalse(site.cache.nodeStates().get(0).down(), "the proxy itself never taken out: " + site.cache.nodeStates());
    }
  }

  /** One request per page, in order: how many of each X-Cache; fails on any answer but 200. */
  private static Map<String, Long> round(CachedSite site, List<String> paths) {
    Map<String, Long> labels = new TreeMap<>();
    for (String path : paths) {
      HttpResponse<byte[]> r = site.get(path);
      assertEquals(200, r.statusCode(), path + " answered " + r.statusCode());
      labels.merge(r.headers().firstValue("X-Cache").orElse("none"), 1L, Long::sum);
    }
    return labels;
  }
}
