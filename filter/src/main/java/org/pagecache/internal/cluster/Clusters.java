package org.pagecache.internal.cluster;

import org.pagecache.stats.ClusterStatus;
import org.pagecache.stats.ClusterDelivery;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;
import org.pagecache.internal.freshness.TagVersions;
import org.pagecache.internal.freshness.UpdateTokens;
import org.pagecache.internal.store.StoredPage;
import org.pagecache.internal.store.GuardedStore;
import org.pagecache.internal.store.PageCodec;
import org.pagecache.store.Namespace;
import org.pagecache.store.ServerList;
import org.pagecache.store.Store;

/**
 * This frontend's view of the other memcached clusters (issue 19): what the page cache calls when
 * a refresh, tag invalidation or eviction must reach every cluster, and when a miss may be copied
 * from a warm cluster. With one cluster ({@link #single()}) every call is a no-op.
 */
public final class Clusters implements AutoCloseable {
  private final Broadcaster broadcaster;
  private final WarmUp warmUp;
  private final Store local;
  private final Clock clock;

  private Clusters(Broadcaster broadcaster, WarmUp warmUp, Store local, Clock clock) {
    this.broadcaster = broadcaster;
    this.warmUp = warmUp;
    this.local = local;
    this.clock = clock;
  }

  /** One cluster: nothing to broadcast, nothing to warm from. */
  public static Clusters single() {
    return new Clusters(null, null, null, Clock.systemUTC());
  }

  /** The parts a warm-up judges copies with: this cluster's store, tokens, tags and page codec. */
  public record Local(Store store, UpdateTokens tokens, TagVersions tags, PageCodec codec, Namespace namespace,
      Clock clock, Duration retryInterval) {}

  /**
   * Connects to the other clusters of {@code settings}, each with a store made by {@code newStore}.
   */
  public static Clusters start(ClusterSettings settings, Local here, Function<ServerList, Store> newStore) {
    if (!settings.several()) {
      return single();
    }
    List<RemoteCluster> remotes = new ArrayList<>();
    for (Map.Entry<String, ServerList> e : settings.remotes().entrySet()) {
      SharedBacklog shared = new SharedBacklog(here.store(), here.namespace().backlog(e.getKey()), settings.backlogLimit());
      remotes.add(new RemoteCluster(e.getKey(), newStore.apply(e.getValue()), shared, settings.backlogLimit(),
          Backoff.upTo(here.retryInterval().toMillis()), here.namespace().emptiedAt()));
    }
    // Every frontend reads the backlogs at least once a second (one get per node of this cluster each).
    Broadcaster broadcaster = new Broadcaster(remotes, here.clock(), Math.min(1000, here.retryInterval().toMillis()));
    WarmUp warmUp = null;
    if (settings.warmFrom() != null) {
      // Behind a circuit breaker of its own: a warm cluster gone away costs misses nothing.
      Store warm = new GuardedStore(broadcaster.byName().get(settings.warmFrom()).store(), here.clock(),
          here.retryInterval().toMillis());
      warmUp = new WarmUp(settings.warmFrom(), warm, here.store(), here.tokens(), here.tags(), here.codec(),
          here.namespace(), here.clock(), settings.warmFor());
    }
    return new Clusters(broadcaster, warmUp, here.store(), here.clock());
  }

  /** A handler's new token, for every other cluster. */
  public ClusterDelivery refreshed(String tokenKey, long token) {
    return broadcast(Invalidation.token(tokenKey, token));
  }

  /** A tag's new version, for every other cluster. */
  public ClusterDelivery tagInvalidated(String tagKey, long version) {
    return broadcast(Invalidation.tag(tagKey, version));
  }

  /**
   * Called before a page is deleted here: holds off copies of it here while this cluster warms up,
   * and deletes it in every other cluster.
   */
  public ClusterDelivery evicting(String pageKey) {
    if (warmUp != null) {
      local.set(Invalidation.holdOffKey(pageKey), "1".getBytes(StandardCharsets.US_ASCII), Invalidation.HOLD_OFF_SECONDS);
    }
    return broadcast(Invalidation.evict(pageKey, clock.millis())); // its time: a page rebuilt since survives a replay
  }

  private ClusterDelivery broadcast(Invalidation inv) {
    return broadcaster == null ? ClusterDelivery.ONLY_LOCAL : broadcaster.broadcast(inv);
  }

  /**
   * During warm-up, the missing page copied from the warm cluster and stored here; otherwise null
   * (build it).
   */
  public StoredPage warmCopy(String handler, String pageKey, Predicate<StoredPage> variant, Duration grace) {
    return warmUp == null ? null : warmUp.copy(handler, pageKey, variant, grace);
  }

  /** The other clusters' delivery state and the warm-up's progress, now. */
  public ClusterStatus status() {
    if (broadcaster == null) {
      return ClusterStatus.NONE;
    }
    return new ClusterStatus(broadcaster.status(), warmUp == null ? null : warmUp.progress());
  }

  @Override
  public void close() {
    if (broadcaster != null) {
      broadcaster.close();
    }
  }
}
