package org.pagecache.spring;

import org.pagecache.stats.Stats;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.pagecache.CachePolicy;
import org.pagecache.PageCache;
import org.pagecache.stats.HandlerStats;
import org.pagecache.stats.SiteStats;
import org.pagecache.store.StoreException;
import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.lang.Nullable;

/**
 * The {@code pagecache} Actuator endpoint. Expose it with
 * {@code management.endpoints.web.exposure.include=pagecache}. It is read-only unless the
 * application opens its writes with {@code management.endpoint.pagecache.access=unrestricted}
 * (Spring Boot's convention for endpoints that change state); then secure it as the other
 * endpoints, since its writes change what every server serves:
 * <ul>
 *   <li>{@code GET /actuator/pagecache}: this JVM's statistics per handler, with the policies,
 *       and each handler's {@code cluster} figures summed over every frontend sharing memcached;
 *   <li>{@code POST /actuator/pagecache} with {@code {"handler":"article"}}: refresh one handler
 *       (only its pages are rebuilt), and/or {@code {"tag":"article:42"}}: invalidate a tag.
 * </ul>
 */
@Endpoint(id = "pagecache", defaultAccess = Access.READ_ONLY)
public class PageCacheEndpoint {
  private final PageCache cache;
  private final Set<String> handlers;

  /** An endpoint that knows the handlers of the cache's policies. */
  public PageCacheEndpoint(PageCache cache) {
    this(cache, Set.of());
  }

  /** @param handlers handler names known besides the policies' (the controller methods') */
  PageCacheEndpoint(PageCache cache, Collection<String> handlers) {
    this.cache = cache;
    this.handlers = new TreeSet<>(handlers);
  }

  /** Statistics of this JVM since start, per handler, and whether memcached is reachable. */
  @ReadOperation
  public Map<String, Object> stats() {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("store", cache.store().describe());
    out.put("storeDown", cache.storeDown());
    Map<String, Map<String, Object>> handlers = new LinkedHashMap<>();
    List<CachePolicy> policies = new ArrayList<>(cache.policies());
    policies.sort(Comparator.comparing(CachePolicy::handler));
    Stats stats = cache.stats();
    Map<String, SiteStats> site = site(policies.stream().map(CachePolicy::handler).toList());
    for (CachePolicy p : policies) {
      Map<String, Object> h = new LinkedHashMap<>();
      h.put("policy", p.spec());
      HandlerStats s = stats.seen(p.handler()) ? stats.handler(p.handler()) : null;
      if (s != null) {
        h.put("hits", s.hits());
        h.put("stale", s.stale());
        h.put("misses", s.misses());
        h.put("bypasses", s.bypasses());
        h.put("rebuilds", s.rebuilds());
        h.put("storeErrors", s.storeErrors());
        h.put("lockWaits", s.lockWaits());
        h.put("backgroundRebuilds", s.backgroundRebuilds());
        h.put("backgroundSkipped", s.backgroundSkipped());
        h.put("backgroundFailures", s.backgroundFailures());
        h.put("backgroundNotStored", s.backgroundNotStored());
        h.put("hitRatio", s.hitRatio());
        h.put("lastRefreshMillis", s.lastRefreshMillis());
        h.put("lastRefreshBy", s.lastRefreshBy());
      }
      h.put("cluster", siteFields(site.get(p.handler())));
      handlers.put(p.handler(), h);
    }
    out.put("handlers", handlers);
    return out;
  }

  /** Every frontend's figures, as {@code api/stats} has them; empty when memcached cannot be read. */
  private Map<String, SiteStats> site(List<String> handlers) {
    try {
      return cache.siteStats(handlers);
    } catch (StoreException e) {
      return Map.of();
    }
  }

  /** The fields of {@code api/stats}' {@code cluster} object, or null when unknown. */
  private static Map<String, Object> siteFields(@Nullable SiteStats c) {
    if (c == null) {
      return null;
    }
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("windowMinutes", SiteStats.WINDOW_MINUTES);
    fields.put("hits", c.hits());
    fields.put("misses", c.misses());
    fields.put("rebuilds", c.rebuilds());
    fields.put("bypasses", c.bypasses());
    fields.put("rebuiltSinceRefresh", c.rebuiltSinceRefresh() < 0 ? null : c.rebuiltSinceRefresh());
    return fields;
  }

  /**
   * Refreshes a handler and/or invalidates tags: {@code tag} (one), {@code tags} (several, in one
   * string separated by spaces or commas: the endpoint's body is a map of strings), {@code hard=true} to purge them (never served
   * again, not even stale). 400 without a handler or a tag or with an invalid name, 404 for a handler
   * no policy, controller method or served page names (nothing is written: a deploy script with a
   * typo fails), 503 when memcached could not be written (nothing was refreshed).
   */
  @WriteOperation
  public WebEndpointResponse<Map<String, Object>> write(@Nullable String handler, @Nullable String tag,
      @Nullable String tags, @Nullable Boolean hard, SecurityContext security) {
    List<String> named = new ArrayList<>();
    if (tag != null) {
      named.add(tag);
    }
    named.addAll(PageCache.tagList(tags));
    if (handler == null && named.isEmpty()) {
      throw new InvalidEndpointRequestException("give a handler to refresh and/or tags to invalidate",
          "send {\"handler\":\"<name>\"} and/or {\"tag\":\"<tag>\"} or {\"tags\":\"<tag> <tag>\",\"hard\":false}");
    }
    if (handler != null && !knows(handler)) {
      Set<String> known = new TreeSet<>(handlers);
      cache.policies().forEach(p -> known.add(p.handler()));
      return new WebEndpointResponse<>(Map.of("error", "no handler named '" + handler + "'; the handlers are "
          + String.join(", ", known)), WebEndpointResponse.STATUS_NOT_FOUND);
    }
    String by = "actuator" + (security.getPrincipal() != null ? ":" + security.getPrincipal().getName() : "");
    Map<String, Object> out = new LinkedHashMap<>();
    try {
      if (handler != null) {
        out.put("refresh", cache.refreshHandler(handler, by));
      }
      boolean purge = Boolean.TRUE.equals(hard);
      if (tag != null && tags == null && !purge) {
        out.put("invalidation", cache.invalidateTag(tag));
      } else if (!named.isEmpty()) {
        out.put("invalidations", purge ? cache.purgeTags(named) : cache.invalidateTags(named));
      }
    } catch (IllegalArgumentException e) {
      throw new InvalidEndpointRequestException(e.getMessage(), e.getMessage());
    } catch (StoreException e) {
      out.put("error", "memcached could not be written; what is not listed here did not happen: " + e.getMessage());
      return new WebEndpointResponse<>(out, WebEndpointResponse.STATUS_SERVICE_UNAVAILABLE);
    }
    return new WebEndpointResponse<>(out);
  }

  private boolean knows(String handler) {
    try {
      return handlers.contains(handler) || cache.knowsHandler(handler);
    } catch (IllegalArgumentException e) { // not a handler name at all
      throw new InvalidEndpointRequestException(e.getMessage(), e.getMessage());
    }
  }
}
