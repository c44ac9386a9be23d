package org.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.pagecache.store.LocalStore;

class PageCacheConfigTest {
  private static PageCacheConfig config(Map<String, String> init, Map<String, String> props, Map<String, String> env) {
    return PageCacheConfig.from(init::get, props::get, env::get, Clock.systemUTC(), new LocalStore());
  }

  @Test
  void systemPropertyBeatsEnvironmentBeatsInitParam() {
    assertEquals("60s", config(Map.of(), Map.of(), Map.of()).value("ttl"));
    assertEquals("10s", config(Map.of("ttl", "10s"), Map.of(), Map.of()).value("ttl"));
    assertEquals("20s", config(Map.of("ttl", "10s"), Map.of(), Map.of("PAGECACHE_TTL", "20s")).value("ttl"));
    assertEquals("30s", config(Map.of("ttl", "10s"), Map.of("pagecache.ttl", "30s"), Map.of("PAGECACHE_TTL", "20s")).value("ttl"));
    assertEquals("h:1", config(Map.of(), Map.of(), Map.of("PAGECACHE_MEMCACHED_SERVERS", "h:1")).servers);
  }

  @Test
  void everyBadValueIsReportedWithItsName() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> config(
        Map.of("ttl", "soon", "memcached.protocol", "udp", "max.entry.size", "5m", "header", "X Cache",
            "policies", "article: ttl=5m, colour=blue"), Map.of(), Map.of()));
    String m = e.getMessage();
    assertTrue(m.contains("ttl: 'soon' is not a duration"), m);
    assertTrue(m.contains("memcached.protocol: 'udp'"), m);
    assertTrue(m.contains("max.entry.size: '5m'"), m);
    assertTrue(m.contains("header: 'X Cache'"), m);
    assertTrue(m.contains("policies[article].colour: unknown key"), m);
  }

  @Test
  void policiesAreParsedWithDefaultsAndPaths() {
    PageCacheConfig c = config(Map.of("policies",
        "default: grace=1m;\n article: ttl=5m, vary=Accept-Language, statuses=200|404, paths=/article/*|/a/*; home: ttl=30s"),
        Map.of(), Map.of());
    CachePolicy article = c.policies.policy("article");
    assertEquals(Duration.ofMinutes(5), article.ttl());
    assertEquals(Duration.ofMinutes(1), article.grace());
    assertEquals(java.util.List.of("accept-language"), article.vary());
    assertTrue(article.statuses().contains(404));
    assertEquals("article", c.policies.handlerForPath("/a/7"));
    assertEquals(Duration.ofSeconds(30), c.policies.policy("home").ttl());
    assertEquals(Duration.ofSeconds(60), c.policies.policy("unknown").ttl());
    assertEquals(Duration.ofMinutes(1), c.policies.policy("unknown").grace());
  }

  @Test
  void unknownParameterNamesAreRefusedInCode() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> PageCacheConfig.builder().set("tll", "5m"));
    assertTrue(e.getMessage().startsWith("'tll' is not a PageCache parameter"));
  }
}
