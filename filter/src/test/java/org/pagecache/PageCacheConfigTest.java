package org.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.ServletException;
import java.time.Clock;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.junit.jupiter.api.Test;
import org.pagecache.internal.near.NearSize;
import org.pagecache.store.LocalStore;
import org.pagecache.testing.JettyServer;

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
  void everyBadValueIsReportedWithItsNameAndWhatIsAccepted() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> config(
        Map.of("ttl", "soon", "memcached.protocol", "udp", "max.entry.size", "5m", "header", "X Cache",
            "policies", "article: ttl=5m, colour=blue"), Map.of(), Map.of()));
    // One line per bad value: its name, the value, what is wrong and what is accepted instead.
    Map<String, String> lines = new TreeMap<>();
    e.getMessage().lines().skip(1).map(String::trim).forEach(l -> lines.put(l.substring(0, l.indexOf(": ")), l));
    assertEquals(Set.of("ttl", "memcached.protocol", "max.entry.size", "header", "policies[article].colour"),
        lines.keySet(), e.getMessage());
    assertEquals("ttl: 'soon' is not a duration; use a number with ms, s, m, h or d, e.g. 500ms, 30s, 5m, 1h",
        lines.get("ttl"));
    assertEquals("memcached.protocol: 'udp' is not a protocol; use text or binary", lines.get("memcached.protocol"));
    assertEquals("max.entry.size: '5m' must be from 1k to 1047552 bytes (memcached's item limit is 1 MiB including the key)",
        lines.get("max.entry.size"));
    assertEquals("header: 'X Cache' is not a header name; use e.g. X-Cache, or none to turn it off", lines.get("header"));
    assertEquals("policies[article].colour: unknown key 'colour'; keys: ttl, grace, vary, languages, formats, statuses, paths,"
        + " cache-control, ttl-max, authorized, sessions, early-refresh, enabled, cookies, headers, harmless, pool, invalidate, signed-in,"
        + " origin-cache-headers, refreshed-by, overrides", lines.get("policies[article].colour"));
  }

  @Test
  void theNearCacheIsOnByDefaultAndItsSettingsAreChecked() {
    PageCacheConfig defaults = config(Map.of(), Map.of(), Map.of());
    assertEquals(NearSize.forHeap(Runtime.getRuntime().maxMemory()).bytes(), defaults.nearSize, "a share of this JVM's heap");
    assertEquals(Duration.ofSeconds(1), defaults.nearTrust);
    assertEquals(Duration.ofSeconds(1), defaults.counters.localAggregation(), "views aggregated in the JVM by default");
    assertEquals(Duration.ofMinutes(10), config(Map.of("counters", "window=10m"), Map.of(), Map.of()).counters.window());
    assertEquals(Duration.ofSeconds(1), config(Map.of("counters", "window=10m"), Map.of(), Map.of())
        .counters.localAggregation(), "a spec that does not name it keeps the default aggregation");
    assertEquals(Duration.ZERO, config(Map.of("counters", "local-aggregation=0s"), Map.of(), Map.of())
        .counters.localAggregation());
    assertEquals(0, config(Map.of("near.size", "0"), Map.of(), Map.of()).nearSize);
    assertEquals(Duration.ZERO, config(Map.of("near.trust", "0s"), Map.of(), Map.of()).nearTrust);

    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> config(
        Map.of("near.size", "lots", "near.trust", "2m"), Map.of(), Map.of()));
    String m = e.getMessage();
    assertTrue(m.contains("near.size: 'lots' is not a size; use auto (a share of the heap), a percentage of the heap"
        + " (e.g. 10%), bytes with an optional k, m or g (e.g. 64m, 1g), or 0 to turn it off"), m);
    assertTrue(m.contains("near.trust: '2m' must be at most 1m: it is how long another server's refresh may go"
        + " unseen here"), m);
    assertTrue(assertThrows(IllegalArgumentException.class, () -> config(Map.of("near.trust", "soon"), Map.of(), Map.of()))
        .getMessage().contains("near.trust: 'soon' is not a duration; use a number with ms, s, m, h or d, e.g. 500ms, 30s, 5m, 1h"));
  }

  @Test
  void nearSizeIsAShareOfTheHeapUnlessSetAndAnExplicitSizeWins() {
    long heap = Runtime.getRuntime().maxMemory();
    PageCacheConfig defaults = config(Map.of(), Map.of(), Map.of());
    assertEquals(NearSize.forHeap(heap).why(), defaults.nearSizeWhy);
    assertEquals(defaults.nearSize, config(Map.of("near.size", "auto"), Map.of(), Map.of()).nearSize);

    PageCacheConfig set = config(Map.of("near.size", "64m"), Map.of(), Map.of());
    assertEquals(64L << 20, set.nearSize);
    assertEquals("set by near.size", set.nearSizeWhy);
    assertEquals(2L << 30, config(Map.of("near.size", "2g"), Map.of(), Map.of()).nearSize, "a size past 2 GiB");
    assertEquals(heap * 20 / 100, config(Map.of(), Map.of(), Map.of("PAGECACHE_NEAR_SIZE", "20%")).nearSize, "the environment's share");
    assertEquals("off: near.size=0", config(Map.of("near.size", "0"), Map.of(), Map.of()).nearSizeWhy);

    assertEquals(NearSize.forHeap(3L << 30), PageCacheConfig.nearSize("auto", 3L << 30));
    assertEquals(NearSize.share(15, 3L << 30), PageCacheConfig.nearSize(" 15% ", 3L << 30));
    for (String bad : new String[] {"0%", "51%", "ten%", "1.5%"}) {
      String m = assertThrows(IllegalArgumentException.class, () -> config(Map.of("near.size", bad), Map.of(), Map.of()))
          .getMessage();
      assertTrue(m.contains("near.size: '" + bad + "' is not a share of the heap; use a whole percentage from 1% to 50%,"
          + " e.g. 10%"), m);
    }
  }

  @Test
  void identityCopiesAreOnByDefaultAndOnOrOff() {
    assertTrue(config(Map.of(), Map.of(), Map.of()).identityCopies);
    assertFalse(config(Map.of("identity.copies", "OFF"), Map.of(), Map.of()).identityCopies);
    String m = assertThrows(IllegalArgumentException.class,
        () -> config(Map.of("identity.copies", "sometimes"), Map.of(), Map.of())).getMessage();
    assertTrue(m.contains("identity.copies: 'sometimes' must be on"), m);
  }

  @Test
  void backgroundRebuildsAreOnByDefaultBoundedAndChecked() {
    assertEquals(32, config(Map.of(), Map.of(), Map.of()).backgroundRebuilds);
    assertEquals(0, config(Map.of("rebuild.background", "0"), Map.of(), Map.of()).backgroundRebuilds, "0 turns them off");
    for (String bad : new String[] {"-1", "257", "lots", ""}) {
      String m = assertThrows(IllegalArgumentException.class,
          () -> config(Map.of("rebuild.background", bad), Map.of(), Map.of())).getMessage();
      assertTrue(m.contains("rebuild.background: '" + bad + "' is not a whole number from 0 to 256"), m);
    }
  }

  @Test
  void memcachedProxyIsAutoOnOrOffAndOnNeedsTheTextProtocol() {
    assertEquals(org.pagecache.internal.nodes.ClusterStore.ProxyMode.AUTO, config(Map.of(), Map.of(), Map.of()).proxy);
    assertEquals(org.pagecache.internal.nodes.ClusterStore.ProxyMode.ON,
        config(Map.of("memcached.proxy", " ON "), Map.of(), Map.of()).proxy);
    assertEquals("PageCache configuration is invalid:\n  memcached.proxy: 'twemproxy' is not auto, on or off"
        + " (on: every server is a memcached proxy such as twemproxy or mcrouter)",
        assertThrows(IllegalArgumentException.class,
            () -> config(Map.of("memcached.proxy", "twemproxy"), Map.of(), Map.of())).getMessage());
    assertEquals("PageCache configuration is invalid:\n  memcached.proxy: 'on' needs memcached.protocol=text:"
        + " memcached proxies (twemproxy, mcrouter) speak the text protocol only",
        assertThrows(IllegalArgumentException.class, () -> config(
            Map.of("memcached.proxy", "on", "memcached.protocol", "binary"), Map.of(), Map.of())).getMessage());
  }

  @Test
  void valuesThatWouldBreakResponsesOrMemcachedAreRefusedAtStart() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> config(
        Map.of("header", "Content-Length", "memcached.servers", "localhost", "lock.ttl", "31d",
            "uncacheable.ttl", "40d", "max.entry.size", "1048000"), Map.of(), Map.of()));
    String m = e.getMessage();
    assertTrue(m.contains("header: 'Content-Length' is a standard HTTP header"), m);
    assertTrue(m.contains("memcached.servers"), m);
    assertTrue(m.contains("'localhost'"), m);
    assertTrue(m.contains("lock.ttl: '31d' must be at most 30d"), m);
    assertTrue(m.contains("uncacheable.ttl: '40d' must be at most 30d"), m);
    assertTrue(m.contains("max.entry.size: '1048000' must be from 1k to 1047552 bytes"), m);
  }

  @Test
  void aBadServerListFailsTheFilterAtStartNamingTheParameter() {
    RuntimeException e = assertThrows(RuntimeException.class, () -> JettyServer.start(ctx -> {
      FilterHolder holder = new FilterHolder(new PageCacheFilter());
      holder.setInitParameter("memcached.servers", "localhost:notaport");
      ctx.addFilter(holder, "/*", EnumSet.of(DispatcherType.REQUEST));
    }).close(), "Jetty must not start with a filter that failed init");
    Throwable cause = e;
    while (cause != null && !(cause instanceof ServletException)) {
      cause = cause.getCause();
    }
    assertTrue(cause != null && cause.getMessage().contains("memcached.servers: 'localhost:notaport'"),
        "a ServletException naming the parameter and value, got: " + e);
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
    assertEquals("article", c.policies.claim("/a/7", "front", Policies.DEFAULT));
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
