package org.pagecache.internal.cluster;

import org.pagecache.stats.ClusterStatus;
import org.pagecache.stats.ClusterDelivery;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Writes every refresh, tag invalidation and eviction to the other clusters (FB's invalidation
 * broadcast, §5, without its daemon: the JVM that made the change sends it). A cluster that does not
 * answer gets it later: one thread retries each such cluster with a doubling pause capped at
 * {@code retry.interval}, delivering its backlog in order.
 */
final class Broadcaster implements AutoCloseable {
  private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(Broadcaster.class);
  private final List<RemoteCluster> remotes;
  private final Clock clock;
  private final Backoff backoff;
  private final ScheduledExecutorService retries;
  /** Clusters with a retry scheduled: one at a time per cluster. */
  private final Set<String> scheduled = ConcurrentHashMap.newKeySet();

  Broadcaster(List<RemoteCluster> remotes, Clock clock, Backoff backoff) {
    this.remotes = List.copyOf(remotes);
    this.clock = clock;
    this.backoff = backoff;
    this.retries = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "pagecache-cluster-retries");
      t.setDaemon(true);
      return t;
    });
  }

  /** Sends it to every other cluster; says which have it, which will, and which will not. */
  ClusterDelivery broadcast(Invalidation inv) {
    List<String> delivered = new ArrayList<>(List.of(ClusterDelivery.LOCAL));
    List<String> pending = new ArrayList<>();
    List<String> lost = new ArrayList<>();
    for (RemoteCluster remote : remotes) {
      switch (remote.send(inv, clock.millis())) {
        case DELIVERED -> delivered.add(remote.name);
        case PENDING -> {
          pending.add(remote.name);
          schedule(remote);
        }
        case LOST -> lost.add(remote.name);
      }
    }
    return new ClusterDelivery(delivered, pending, lost);
  }

  private void schedule(RemoteCluster remote) {
    if (!scheduled.add(remote.name)) {
      return;
    }
    try {
      retries.schedule(() -> retry(remote), backoff.delayMillis(Math.max(1, remote.failures())), TimeUnit.MILLISECONDS);
    } catch (java.util.concurrent.RejectedExecutionException e) {
      scheduled.remove(remote.name); // closing
    }
  }

  private void retry(RemoteCluster remote) {
    scheduled.remove(remote.name);
    boolean empty;
    try {
      empty = remote.drain();
    } catch (RuntimeException e) {
      empty = false; // never let the retry thread die
    }
    if (!empty) {
      schedule(remote);
    }
  }

  List<ClusterStatus.Remote> status() {
    long now = clock.millis();
    return remotes.stream().map(r -> r.status(now)).toList();
  }

  Map<String, RemoteCluster> byName() {
    Map<String, RemoteCluster> map = new java.util.LinkedHashMap<>();
    remotes.forEach(r -> map.put(r.name, r));
    return map;
  }

  /** Stops retrying; what still waits is lost with this JVM, and the log says so per cluster. */
  @Override
  public void close() {
    retries.shutdownNow();
    for (ClusterStatus.Remote r : status()) {
      if (r.pending() > 0) {
        log.warn("pagecache: memcached cluster '{}' never answered again: {} refreshes, invalidations or evictions"
            + " are not delivered there; its pages they concern are served until their ttl and grace run out",
            r.name(), r.pending());
      }
    }
    remotes.forEach(RemoteCluster::close);
  }
}
