package org.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.pagecache.internal.vary.DeviceRules;
import org.pagecache.testing.Eventually;
import org.pagecache.testing.KeepAliveClient;
import org.pagecache.testing.MemcachedExtension;

/**
 * A background rebuild builds its class's page (real sockets, real memcached): the request
 * PageCache sends to its own connector carries the class's representative headers, so whichever
 * visitor of a class found the page stale, the page rebuilt is the class's, and it lands under the
 * class's key.
 */
class ClassesRebuildTest {
  @RegisterExtension
  static MemcachedExtension memcached = MemcachedExtension.nodes(1);

  @RegisterExtension
  final CachedSite.Sites sites = new CachedSite.Sites(memcached);

  private static final int ANSWER_TIMEOUT_MILLIS = 10_000;

  /** A visitor of each class, by real strings, and another of the same class who finds the page stale. */
  private static final List<String[]> VISITORS = List.of(
      new String[] {"mobile",
          "Mozilla/5.0 (iPhone; CPU iPhone OS 18_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko)"
              + " Version/26.6.1 Mobile/15E148 Safari/604.1",
          "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/149.0.0.0"
              + " Mobile Safari/537.36"},
      new String[] {"tablet",
          "Mozilla/5.0 (iPad; CPU OS 9_0_2 like Mac OS X) AppleWebKit/601.1.46 (KHTML, like Gecko) Version/9.0"
              + " Mobile/13A452 Safari/601.1",
          "Mozilla/5.0 (Android 13; Tablet; rv:140.0) Gecko/140.0 Firefox/140.0"},
      new String[] {"desktop",
          "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/149.0.0.0"
              + " Safari/537.36",
          "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko)"
              + " Version/26.4 Safari/605.1.15"});

  @Test
  void eachClassIsRebuiltInTheBackgroundForItsClass() throws Exception {
    SiteServlets.Handler h = SiteServlets.of((req, res, call) -> {
      res.setContentType("text/html;charset=UTF-8");
      res.getWriter().print("<p>agent=" + req.getHeader("User-Agent") + " mobile=" + req.getHeader("Sec-CH-UA-Mobile")
          + " locale=" + req.getLocale().toLanguageTag() + " version " + call + "</p>");
    });
    CachedSite site = sites.open().set("policies", "page: vary=device|language, languages=en|de").handler("page", h,
        "/page/*").start();
    try (KeepAliveClient client = new KeepAliveClient(site.jetty.port(), "127.0.0.1:" + site.jetty.port(),
        ANSWER_TIMEOUT_MILLIS)) {
      for (String[] v : VISITORS) {
        assertEquals("MISS", client.get("/page/1", "User-Agent: " + v[1], "Accept-Language: de-CH, en;q=0.5").xCache());
      }
      assertEquals(3, h.calls.get());
      site.cache.refreshHandler("page");
      for (String[] v : VISITORS) { // another visitor of the class, with other headers, finds it stale
        KeepAliveClient.Answer stale = client.get("/page/1", "User-Agent: " + v[2], "Accept-Language: de");
        assertEquals("STALE", stale.xCache(), v[0] + ": " + stale);
      }
      Eventually.assertWithin(Duration.ofSeconds(30), "three background rebuilds stored their pages",
          () -> site.cache.engine.background.inFlight() == 0 && site.cache.stats("page").backgroundRebuilds() == 3
              && h.calls.get() == 6);
      DeviceRules rules = DeviceRules.DEFAULTS;
      for (String[] v : VISITORS) {
        KeepAliveClient.Answer hit = client.get("/page/1", "User-Agent: " + v[1], "Accept-Language: de-AT");
        assertEquals("HIT", hit.xCache(), v[0] + ": " + hit);
        assertTrue(hit.body().contains("agent=" + rules.agentOf(v[0]) + " mobile=" + ("mobile".equals(v[0]) ? "?1" : "?0")
            + " locale=de version "), v[0] + ": " + hit.body());
        assertTrue(hit.body().matches("(?s).*version [456].*"), "rebuilt in the background: " + hit.body());
      }
    }
    assertEquals(0, site.cache.stats("page").backgroundFailures());
    assertEquals(6, h.calls.get(), "three builds, three background rebuilds, none in the foreground");
  }
}
