package org.pagecache.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;
import org.pagecache.PageCache;
import org.pagecache.stats.HandlerStats;

/**
 * Reports a {@link PageCache}'s per-handler counters to Micrometer, so the hit ratio of a whole
 * cluster shows in one dashboard (the admin page shows one JVM). Meters read the cache's own
 * counters when the registry is scraped (as Micrometer's Caffeine binder reads {@code StatsRecorder}):
 * nothing is added to the request path, and a handler's meters appear with its first request.
 *
 * <table>
 *   <caption>meters (every one tagged {@code cache=<handler>}, {@code cache.manager=pagecache})</caption>
 *   <tr><td>{@code cache.gets}, tag {@code result}</td><td>requests by outcome: {@code hit}, {@code stale}
 *       (served stale while one request rebuilds), {@code miss}, {@code bypass}; Micrometer's cache convention</td></tr>
 *   <tr><td>{@code cache.puts}</td><td>pages stored</td></tr>
 *   <tr><td>{@code pagecache.rebuild} (timer)</td><td>runs of the handler to build a page, and their time</td></tr>
 *   <tr><td>{@code pagecache.bypasses}, tag {@code reason}</td><td>bypasses by the reason Cache-Status shows
 *       ({@code session}, {@code authorization}, {@code set-cookie}, {@code too-large}, {@code store-unavailable}...)</td></tr>
 *   <tr><td>{@code pagecache.fragments} (timer), {@code pagecache.fragments.empty}</td><td>fragments filled in
 *       and their renderers' time; those that gave an empty part (docs/fragments.md)</td></tr>
 *   <tr><td>{@code pagecache.signed.in.requests}, {@code pagecache.signed.in.hits}</td><td>signed-in visitors'
 *       requests under a {@code signed-in=} policy, and their hits: their hit ratio apart from the anonymous one</td></tr>
 *   <tr><td>{@code pagecache.store.errors}</td><td>memcached calls that failed or timed out</td></tr>
 *   <tr><td>{@code pagecache.lock.waits}</td><td>requests that waited for another request's build</td></tr>
 *   <tr><td>{@code pagecache.store.down} (gauge, no handler tag)</td><td>1 while memcached is considered down</td></tr>
 *   <tr><td>{@code pagecache.near.entries}, {@code pagecache.near.bytes} (gauges, no handler tag)</td><td>pages this
 *       JVM's near cache holds and their estimated memory</td></tr>
 *   <tr><td>{@code pagecache.near.gets}, tag {@code result} (no handler tag)</td><td>lookups answered from this
 *       JVM's memory ({@code hit}) or that asked memcached ({@code miss})</td></tr>
 *   <tr><td>{@code pagecache.cluster.backlog}, {@code .reachable} (gauges), {@code .delivered}, {@code .lost},
 *       tag {@code cluster} (no handler tag)</td><td>the other memcached clusters ({@code memcached.remote}), see
 *       ClusterMeters</td></tr>
 *   <tr><td>{@code pagecache.warmup.pages}, tag {@code result} (no handler tag)</td><td>misses during the warm-up:
 *       {@code copied}, {@code built}, {@code refused}</td></tr>
 * </table>
 * Hit ratio of the cluster, in PromQL: {@code sum(rate(cache_gets_total{cache_manager="pagecache",result=~"hit|stale"}[5m]))
 * / sum(rate(cache_gets_total{cache_manager="pagecache",result=~"hit|stale|miss"}[5m]))}.
 *
 * <p>Plain Jakarta: put the registry in the ServletContext attribute {@link #REGISTRY_ATTRIBUTE}
 * (from a ServletContextListener, before the filter starts) and the filter binds it; or in code,
 * {@code new PageCacheMetrics(cache).bindTo(registry)}. The Spring Boot starter binds it to the
 * application's registry by itself. Micrometer is an optional dependency of the filter: without it
 * on the class path nothing here is loaded.
 */
public final class PageCacheMetrics implements MeterBinder {
  /** The ServletContext attribute the filter reads a {@code MeterRegistry} from. */
  public static final String REGISTRY_ATTRIBUTE = "io.micrometer.core.instrument.MeterRegistry";

  private final PageCache cache;

  /** The meters of {@code cache}; nothing is registered until {@link #bindTo}. */
  public PageCacheMetrics(PageCache cache) {
    this.cache = cache;
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    Gauge.builder("pagecache.store.down", cache, c -> c.storeDown() ? 1 : 0)
        .tag("cache.manager", "pagecache")
        .description("1 while memcached is considered down and every request bypasses the cache")
        .register(registry);
    bindNear(registry);
    for (var node : cache.nodeStates()) {
      Gauge.builder("pagecache.memcached.node.down", cache, c -> c.nodeStates().stream()
              .anyMatch(n -> n.name().equals(node.name()) && n.pool().equals(node.pool()) && n.down()) ? 1 : 0)
          .tag("cache.manager", "pagecache")
          .tag("node", node.name())
          .tag("pool", node.pool())
          .description("1 while this memcached node is down or hung: its keys go to the gutter or their handlers")
          .register(registry);
    }
    ClusterMeters.bind(registry, cache); // other clusters' backlogs, warm-up
    cache.forEachHandler(handler -> bindHandler(registry, handler));
    cache.forEachBypassReason((handler, reason) -> bindReason(registry, handler, reason));
  }

  /** The near cache of this JVM: its size and memory, and how often it answered. */
  private void bindNear(MeterRegistry registry) {
    Gauge.builder("pagecache.near.entries", cache, c -> c.nearStats().entries())
        .tag("cache.manager", "pagecache")
        .description("pages held in this JVM's near cache")
        .register(registry);
    Gauge.builder("pagecache.near.bytes", cache, c -> c.nearStats().bytes())
        .tag("cache.manager", "pagecache")
        .baseUnit("bytes")
        .description("estimated memory of the pages in this JVM's near cache")
        .register(registry);
    FunctionCounter.builder("pagecache.near.gets", cache, c -> c.nearStats().hits())
        .tags("cache.manager", "pagecache", "result", "hit")
        .description("lookups answered from this JVM's near cache")
        .register(registry);
    FunctionCounter.builder("pagecache.near.gets", cache, c -> c.nearStats().misses())
        .tags("cache.manager", "pagecache", "result", "miss")
        .description("lookups that asked memcached")
        .register(registry);
  }

  /**
   * Binds to a registry given as an Object (a ServletContext attribute), so the filter names no
   * Micrometer type and loads none when the attribute is absent.
   *
   * @throws IllegalArgumentException when {@code registry} is not a Micrometer {@code MeterRegistry}
   */
  public static void bind(PageCache cache, Object registry) {
    if (!(registry instanceof MeterRegistry r)) {
      throw new IllegalArgumentException("ServletContext attribute " + REGISTRY_ATTRIBUTE + ": a "
          + registry.getClass().getName() + " is not an io.micrometer.core.instrument.MeterRegistry");
    }
    new PageCacheMetrics(cache).bindTo(r);
  }

  private static Tags tags(String handler) {
    return Tags.of("cache", handler, "cache.manager", "pagecache");
  }

  private void bindHandler(MeterRegistry registry, String handler) {
    Tags tags = tags(handler);
    gets(registry, handler, tags, "hit", HandlerStats::hits);
    gets(registry, handler, tags, "stale", HandlerStats::stale);
    gets(registry, handler, tags, "miss", HandlerStats::misses);
    gets(registry, handler, tags, "bypass", HandlerStats::bypasses);
    counter(registry, "cache.puts", handler, tags, HandlerStats::rebuilds, "Pages stored in memcached");
    counter(registry, "pagecache.store.errors", handler, tags, HandlerStats::storeErrors,
        "memcached calls that failed or timed out; the request went on without the cache");
    counter(registry, "pagecache.lock.waits", handler, tags, HandlerStats::lockWaits,
        "Requests that waited for another request to build the same page");
    counter(registry, "pagecache.rebuild.background", handler, tags, HandlerStats::backgroundRebuilds,
        "Stale pages rebuilt off the visitor's request, the visitor served the stale copy at once");
    counter(registry, "pagecache.rebuild.background.skipped", handler, tags, HandlerStats::backgroundSkipped,
        "Stale pages served without a rebuild: rebuild.background builds were all under way");
    counter(registry, "pagecache.rebuild.background.failures", handler, tags, HandlerStats::backgroundFailures,
        "Background rebuilds that failed: the stale copy stays");
    counter(registry, "pagecache.rebuild.background.notstored", handler, tags, HandlerStats::backgroundNotStored,
        "Background rebuilds whose page memcached did not take: the next request on this JVM builds it");
    FunctionTimer.builder("pagecache.rebuild", cache, c -> c.stats(handler).builds(),
            c -> c.stats(handler).buildNanos(), TimeUnit.NANOSECONDS)
        .tags(tags)
        .description("Runs of the handler to build a page (stored or not), and their time")
        .register(registry);
    // docs/fragments.md: the personal parts and the signed-in visitors
    FunctionTimer.builder("pagecache.fragments", cache, c -> c.stats(handler).fragments(),
            c -> c.stats(handler).fragmentNanos(), TimeUnit.NANOSECONDS)
        .tags(tags)
        .description("Fragments filled in on serves of this handler's pages, and their renderers' time")
        .register(registry);
    counter(registry, "pagecache.fragments.empty", handler, tags, HandlerStats::fragmentFailures,
        "Fragments that gave an empty part: the renderer threw, was too slow or is not registered");
    counter(registry, "pagecache.signed.in.requests", handler, tags, HandlerStats::signedInRequests,
        "Requests of signed-in visitors under a signed-in= policy that serves them from the cache");
    counter(registry, "pagecache.signed.in.hits", handler, tags, HandlerStats::signedInHits,
        "Signed-in visitors' requests answered with a fresh page from the cache");
  }

  private void gets(MeterRegistry registry, String handler, Tags tags, String result,
      ToLongFunction<HandlerStats> count) {
    FunctionCounter.builder("cache.gets", cache, read(handler, count))
        .tags(tags).tag("result", result)
        .description("Page requests by outcome: hit, stale (served while rebuilt), miss, bypass")
        .register(registry);
  }

  private void counter(MeterRegistry registry, String name, String handler, Tags tags,
      ToLongFunction<HandlerStats> count, String description) {
    FunctionCounter.builder(name, cache, read(handler, count)).tags(tags).description(description).register(registry);
  }

  private void bindReason(MeterRegistry registry, String handler, String reason) {
    FunctionCounter.builder("pagecache.bypasses", cache,
            read(handler, h -> h.bypassesByReason().getOrDefault(reason, 0L)))
        .tags(tags(handler)).tag("reason", reason)
        .description("Requests that went past the cache, by reason")
        .register(registry);
  }

  /** One count of the handler's snapshot, read at each scrape. */
  private static ToDoubleFunction<PageCache> read(String handler, ToLongFunction<HandlerStats> count) {
    return c -> count.applyAsLong(c.stats(handler));
  }
}
