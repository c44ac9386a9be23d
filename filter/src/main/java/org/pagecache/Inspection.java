package org.pagecache;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.pagecache.internal.freshness.UpdateTokens;
import org.pagecache.internal.near.NearCache;
import org.pagecache.internal.nodes.ClusterStore;
import org.pagecache.stats.ClusterStatus;
import org.pagecache.stats.HandlerStats;
import org.pagecache.stats.NearStats;
import org.pagecache.stats.NodeState;
import org.pagecache.stats.SiteStats;
import org.pagecache.stats.Stats;

/**
 * What a page cache holds and did, read at the call: this JVM's counts, the site's figures, the
 * handlers' tokens, the near cache, the memcached nodes and the other clusters, as the immutable
 * values of {@link org.pagecache.stats} (as Caffeine's {@code Cache.policy()} and {@code stats()}
 * sit beside its actions). {@link PageCache#inspect()} returns it; the admin page, the Micrometer
 * binder and the Actuator endpoint read the cache through it.
 */
public final class Inspection {
  private final Engine engine;

  Inspection(Engine engine) {
    this.engine = engine;
  }

  /**
   * This JVM's per-handler counts (hits, stale, misses, bypasses and their reasons, rebuilds): an
   * immutable snapshot taken now; call again for newer counts.
   */
  public Stats stats() {
    return StatsSnapshots.of(engine.recorder);
  }

  /** One handler's counts now (all zero for a handler this JVM has not seen). */
  public HandlerStats stats(String handler) {
    return engine.recorder.seen(handler) ? StatsSnapshots.of(engine.recorder.handler(handler))
        : HandlerStats.none(handler);
  }

  /**
   * Calls {@code listener} with the name of every handler seen so far and of each one seen later
   * (once per handler, though one seen while the listener is added may be passed twice): reporters
   * such as the Micrometer binder register a handler's meters when it appears.
   */
  public void forEachHandler(Consumer<String> listener) {
    engine.recorder.forEachHandler(h -> listener.accept(h.handler()));
  }

  /**
   * Calls {@code listener} with every (handler, bypass reason) pair so far and each new one later,
   * as {@link #forEachHandler} does for handlers.
   */
  public void forEachBypassReason(BiConsumer<String, String> listener) {
    engine.recorder.forEachBypassReason((h, reason) -> listener.accept(h.handler(), reason));
  }

  /**
   * The handlers' figures summed over every frontend that shares memcached: what the admin page
   * shows editors as the whole site's, whichever server answers.
   *
   * @throws org.pagecache.store.StoreException when memcached cannot be read
   */
  public Map<String, SiteStats> siteStats(Collection<String> handlers) {
    return engine.site.read(handlers);
  }

  /**
   * Each handler's update token in memcached (one multi-get): when it was last refreshed, also by
   * another server or before this one started; a handler never refreshed is left out.
   *
   * @throws org.pagecache.store.StoreException when memcached cannot be read
   */
  public Map<String, Long> storedTokens(Collection<String> handlers) {
    return UpdateTokens.stored(engine.store, engine.namespace, handlers);
  }

  /** Configured policies and those of every handler seen so far. */
  public Collection<CachePolicy> policies() {
    return engine.policies.known();
  }

  /** The near cache of this JVM now: entries, bytes, hit ratio. */
  public NearStats nearStats() {
    NearCache near = engine.near;
    return new NearStats(near.enabled(), near.entries(), near.bytes(), near.maxBytes(), engine.nearSizedBy,
        near.trustMillis(), near.hits(), near.misses());
  }

  /**
   * The other memcached clusters ({@code memcached.remote}) now: invalidations waiting for each, and
   * the warm-up's progress.
   */
  public ClusterStatus clusterStatus() {
    return engine.clusters.status();
  }

  /**
   * Each memcached node's state (main cluster, then gutter); empty for the in-process store or a
   * store given to the configuration.
   */
  public List<NodeState> nodeStates() {
    ClusterStore cluster = engine.store.cluster();
    return cluster == null ? List.of() : cluster.nodeStates();
  }

  /** Whether memcached is currently considered down (circuit open; with a cluster: every node down). */
  public boolean storeDown() {
    return engine.store.isDown();
  }
}
