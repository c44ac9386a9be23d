package org.pagecache.admin;

import java.time.Instant;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.pagecache.CachePolicy;
import org.pagecache.stats.HandlerStats;
import org.pagecache.stats.NearStats;
import org.pagecache.stats.Stats;
import org.pagecache.PageCache;
import org.pagecache.stats.ClusterStatus;
import org.pagecache.stats.SiteStats;
import org.pagecache.store.Store;
import org.pagecache.store.StoreException;

/**
 * Everything the admin page and {@code api/stats} show, read once per request: the HTML and the
 * JSON render the same values, and rendering never touches memcached.
 */
record Snapshot(Instant now, String store, boolean storeDown, List<HandlerRow> handlers, List<ServerRow> servers,
    NearStats near, ClusterStatus clusters, Map<String, SiteStats> site) {

  /**
   * Reads the cache's handlers (configured policies and handlers seen in stats) and asks every
   * memcached server for its stats.
   *
   * @param hidden a handler not to list: the admin servlet's own name (the filter sees it too)
   */
  static Snapshot of(PageCache cache, String hidden) {
    Map<String, HandlerRow> rows = new TreeMap<>();
    Map<String, String> specs = new TreeMap<>();
    Map<String, CachePolicy> policies = new TreeMap<>();
    Set<String> disabled = new HashSet<>();
    for (CachePolicy p : cache.policies()) {
      specs.put(p.handler(), p.spec());
      policies.put(p.handler(), p);
      if (!p.enabled()) {
        disabled.add(p.handler());
      }
    }
    Stats stats = cache.stats();
    for (String handler : stats.handlers().keySet()) {
      specs.putIfAbsent(handler, "");
    }
    specs.remove(hidden);
    Map<String, Long> tokens = storedTokens(cache, specs.keySet());
    for (Map.Entry<String, String> e : specs.entrySet()) {
      String name = e.getKey();
      CachePolicy p = policies.get(name);
      rows.put(name, HandlerRow.of(stats.handler(name), e.getValue(), !disabled.contains(name),
          tokens.getOrDefault(name, 0L), p != null && p.ignoreOriginCacheHeaders(), p != null ? varied(p) : List.of(),
          p != null ? p.harmless() : List.of()));
    }
    Map<String, String> pools = new java.util.HashMap<>();
    cache.nodeStates().forEach(n -> pools.put(n.name(), n.pool()));
    List<ServerRow> servers = cache.store().serverStats().stream()
        .map(st -> ServerRow.of(st, pools.getOrDefault(st.address(), "main"))).toList();
    return new Snapshot(cache.config().clock().instant(), cache.store().describe(), cache.storeDown(),
        List.copyOf(rows.values()), servers, cache.nearStats(), cache.clusterStatus(), site(cache, rows.keySet()));
  }

  /** The whole site's figures of the listed handlers; empty when memcached cannot be read. */
  private static Map<String, SiteStats> site(PageCache cache, Collection<String> handlers) {
    try {
      return cache.siteStats(handlers);
    } catch (StoreException e) {
      return Map.of();
    }
  }

  /** The whole site's figures of a handler, {@link SiteStats#NONE} when they could not be read. */
  SiteStats siteOf(String handler) {
    return site.getOrDefault(handler, SiteStats.NONE);
  }

  /**
   * Every handler's token in memcached (one multi-get): when it was last refreshed, also by
   * another server or before this one started. Empty when memcached cannot be read.
   */
  private static Map<String, Long> storedTokens(PageCache cache, Collection<String> handlers) {
    try {
      return cache.inspect().storedTokens(handlers);
    } catch (StoreException e) {
      return Map.of();
    }
  }

  /** What a policy varies on: its declared classes, then its headers. */
  private static List<String> varied(CachePolicy p) {
    List<String> all = new java.util.ArrayList<>(p.classes());
    all.addAll(p.vary());
    return all;
  }

  /**
   * One handler: its policy (and whether it caches at all), this JVM's counters since start, and
   * its token in memcached ({@code storedToken}, 0 when none: the time of its last refresh, from
   * whichever server). {@code originHeadersIgnored}: its policy says {@code origin-cache-headers=ignore};
   * {@code vary} and {@code harmless}: its policy's lists, from which the line that keys or
   * declares its unkeyed headers is made.
   */
  record HandlerRow(String name, String policy, long hits, long stale, long misses, long rebuilds,
      long lockWaits, long bypasses, long storeErrors, double hitRatio, long lastRefreshMillis,
      String lastRefreshBy, long lastToken, long rebuiltSinceRefresh, String trace, boolean enabled,
      long storedToken, Map<String, Long> bypassReasons, Map<String, long[]> bypassCookies,
      Map<String, Long> unkeyedHeaders, Map<String, Long> sessionBypasses, Map<String, Long> keyedParameters,
      long signedInRequests, long signedInHits, double signedInHitRatio, double anonymousHitRatio,
      long fragments, long fragmentNanos, long fragmentFailures, boolean originHeadersIgnored, List<String> vary,
      List<String> harmless, long backgroundRebuilds, long backgroundSkipped, long backgroundFailures,
      long backgroundNotStored, String keyedOn, long parametersLeftOut) {

    static HandlerRow of(HandlerStats s, String policy, boolean enabled, long storedToken, boolean originHeadersIgnored,
        List<String> vary, List<String> harmless) {
      Map<String, long[]> cookies = new TreeMap<>();
      s.cookieBypasses().forEach((name, c) -> cookies.put(name, new long[] {c.requests(), c.handlerReadCookies()}));
      return new HandlerRow(s.handler(), policy, s.hits(), s.stale(), s.misses(), s.rebuilds(),
          s.lockWaits(), s.bypasses(), s.storeErrors(), s.hitRatio(), s.lastRefreshMillis(),
          s.lastRefreshBy(), s.lastToken(), s.rebuiltSinceRefresh(), s.trace(), enabled, storedToken,
          s.bypassesByReason(), cookies, s.unkeyedHeaders(), s.sessionBypasses(), s.keyedParameters(),
          s.signedInRequests(), s.signedInHits(), s.signedInHitRatio(), s.anonymousHitRatio(), s.fragments(),
          s.fragmentNanos(), s.fragmentFailures(), originHeadersIgnored, List.copyOf(vary), List.copyOf(harmless),
          s.backgroundRebuilds(), s.backgroundSkipped(), s.backgroundFailures(), s.backgroundNotStored(),
          keyedOn(s.keyedOn(), policy), s.parametersLeftOut());
    }

    /**
     * What of the query the handler's keys hold: its record as of its last build here ({@code read: page}
     * or {@code all}), else what its policy says before any build ({@code read: none yet}, {@code all}).
     */
    private static String keyedOn(String recorded, String policy) {
      return !recorded.isEmpty() ? recorded : policy.contains("params=read") ? "read: none yet" : "all";
    }

    /**
     * The policy item that keys the handler's pages on what it read outside the key (what it already
     * varies on kept), by class where one covers the header: {@code User-Agent} (or the mobile hint)
     * offers {@code device}, {@code Accept-Language} (read directly or through {@code getLocale()})
     * {@code language}, {@code Accept} {@code format} (docs/configuration.md#classes-of-visitors),
     * e.g. {@code vary=device|X-Theme}; null when it read nothing.
     */
    String varyFix() {
      if (unkeyedHeaders.isEmpty()) {
        return null;
      }
      java.util.LinkedHashSet<String> names = new java.util.LinkedHashSet<>();
      vary.forEach(n -> names.add(CLASS_OF.containsValue(n) ? n : canonical(n)));
      unkeyedHeaders.keySet().forEach(n -> names.add(CLASS_OF.getOrDefault(n, canonical(n))));
      return "vary=" + String.join("|", names);
    }

    /**
     * The same item by the headers themselves ({@code vary=User-Agent}: one page per value), offered
     * after the class; null when no class covers what it read.
     */
    String varyHeadersFix() {
      if (unkeyedHeaders.isEmpty() || unkeyedHeaders.keySet().stream().noneMatch(CLASS_OF::containsKey)) {
        return null;
      }
      java.util.LinkedHashSet<String> names = new java.util.LinkedHashSet<>();
      vary.forEach(n -> names.add(CLASS_OF.containsValue(n) ? n : canonical(n)));
      unkeyedHeaders.keySet().forEach(n -> names.add(canonical(n)));
      return "vary=" + String.join("|", names);
    }

    /** Headers a declared class is read from, and the class. */
    private static final Map<String, String> CLASS_OF = Map.of("user-agent", "device", "sec-ch-ua-mobile", "device",
        "accept-language", "language", "accept", "format");

    /** The other way out: the item declaring those headers never change its pages, e.g. {@code harmless=User-Agent}. */
    String harmlessFix() {
      return unkeyedHeaders.isEmpty() ? null : "harmless=" + headerList(harmless);
    }

    private String headerList(List<String> already) {
      java.util.LinkedHashSet<String> names = new java.util.LinkedHashSet<>();
      already.forEach(n -> names.add(canonical(n)));
      unkeyedHeaders.keySet().forEach(n -> names.add(canonical(n)));
      return String.join("|", names);
    }

    /** {@code user-agent} as it is usually written: {@code User-Agent}. */
    private static String canonical(String name) {
      StringBuilder b = new StringBuilder(name.length());
      boolean up = true;
      for (char c : name.toCharArray()) {
        b.append(up ? Character.toUpperCase(c) : c);
        up = c == '-';
      }
      return b.toString();
    }

    /** Whether it served signed-in visitors from the cache or filled fragments in (docs/fragments.md). */
    boolean personal() {
      return signedInRequests > 0 || fragments > 0;
    }

    /** Whether there is evidence to show: cookies or sessions that bypassed, or headers read outside the key. */
    boolean hasEvidence() {
      return !bypassCookies.isEmpty() || !unkeyedHeaders.isEmpty() || !sessionBypasses.isEmpty()
          || !keyedParameters.isEmpty();
    }

    boolean refreshed() {
      return lastRefreshMillis > 0;
    }

    /**
     * Never caches: its policy says {@code enabled=false}, so it has nothing to refresh. (Not
     * guessed from counters: a handler only signed-in editors have visited on this server has
     * bypassed every time, yet caches for everyone else and needs its Refresh button.)
     */
    boolean neverCached() {
      return !enabled;
    }

    /**
     * Whether memcached holds a newer token than this server's last refresh: the latest refresh
     * came from another server (or from this one before it restarted).
     */
    boolean refreshedElsewhereSince() {
      return storedToken > (refreshed() ? lastToken : 0);
    }

    /** Whether any request has been decided by the cache (otherwise the hit ratio means nothing). */
    boolean counted() {
      return hits + stale + misses > 0;
    }
  }

  /** One memcached server as {@code stats} and {@code stats slabs} describe it; numbers are null when down or absent. */
  record ServerRow(String address, String pool, boolean up, String version, Long uptimeSeconds, Long currItems, Long bytes,
      Long limitMaxbytes, Long getHits, Long getMisses, Long evictions, Long cmdFlush, List<SlabClass> slabs) {

    /** @param pool the pool the server belongs to: {@code main}, {@code gutter}, or a named pool */
    static ServerRow of(Store.ServerStats s, String pool) {
      Map<String, String> st = s.stats();
      return new ServerRow(s.address(), pool, s.up(), st.get("version"), number(st, "uptime"), number(st, "curr_items"),
          number(st, "bytes"), number(st, "limit_maxbytes"), number(st, "get_hits"), number(st, "get_misses"),
          number(st, "evictions"), number(st, "cmd_flush"), SlabClass.parse(s.slabs()));
    }

    /** get_hits / (get_hits + get_misses), null when unknown or no gets yet. */
    Double getHitRatio() {
      if (getHits == null || getMisses == null || getHits + getMisses == 0) {
        return null;
      }
      return (double) getHits / (getHits + getMisses);
    }
  }

  static Long number(Map<String, String> stats, String name) {
    String v = stats.get(name);
    if (v == null) {
      return null;
    }
    try {
      return Long.parseLong(v.trim());
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
