package org.pagecache.internal.cluster;

import org.pagecache.stats.ClusterStatus;
import org.pagecache.stats.ClusterDelivery;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Writes every refresh, tag invalidation and eviction to the other clusters (FB's invalidation
 * broadcast, §5, without its daemon: the JVM that made the change sends it). A cluster that does not
 * answer gets it later: every frontend reads the backlogs this cluster's memcached keeps for the
 * others once per {@code pollMillis} (at most 1 s), and delivers what waits, again after a pause
 * that doubles from 50 ms after each failure (issue 37: whichever frontend took it).
 */
final class Broadcaster implements AutoCloseable {
  private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(Broadcaster.class);
  private final List<RemoteCluster> remotes;
  private final Clock clock;
  private final ScheduledExecutorService polls;
  private final long pollMillis;

  Broadcaster(List<RemoteCluster> remotes, Clock clock, long pollMillis) {
    this.remotes = List.copyOf(remotes);
    this.clock = clock;
    this.pollMillis = pollMillis;
    this.polls = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "pagecache-cluster-backlogs");
      t.setDaemon(true);
      return t;
    });
    this.remotes.forEach(r -> schedule(r, pollMillis));
  }

  /** Sends it to every other cluster; says which have it, which will, and which will not. */
  ClusterDelivery broadcast(Invalidation inv) {
    List<String> delivered = new ArrayList<>(List.of(ClusterDelivery.LOCAL));
    List<String> pending = new ArrayList<>();
    List<String> lost = new ArrayList<>();
    for (RemoteCluster remote : remotes) {
      switch (remote.send(inv, clock.millis())) {
        case DELIVERED -> delivered.add(remote.name);
        case PENDING -> pending.add(remote.name);
        case LOST -> lost.add(remote.name);
      }
    }
    return new ClusterDelivery(delivered, pending, lost);
  }

  /** Each cluster's next reading: once per {@code pollMillis}, sooner while a delivery backs off after a failure. */
  private void schedule(RemoteCluster remote, long delayMillis) {
    try {
      polls.schedule(() -> poll(remote), delayMillis, TimeUnit.MILLISECONDS);
    } catch (java.util.concurrent.RejectedExecutionException e) {
      // closing
    }
  }

  private void poll(RemoteCluster remote) {
    long next = pollMillis;
    try {
      next = Math.min(pollMillis, remote.poll(clock.millis()));
    } catch (RuntimeException e) {
      log.warn("pagecache: reading the backlog of memcached cluster '{}' failed", remote.name, e); // never let the thread die
    }
    schedule(remote, Math.max(1, next));
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

  /** Stops reading; what still waits stays in this cluster's memcached for the other frontends. */
  @Override
  public void close() {
    polls.shutdownNow();
    for (ClusterStatus.Remote r : status()) {
      if (r.pending() > 0) {
        log.info("pagecache: memcached cluster '{}' still has {} refreshes, invalidations or evictions waiting in this"
            + " cluster's memcached: another frontend of this cluster delivers them", r.name(), r.pending());
      }
    }
    remotes.forEach(RemoteCluster::close);
  }
}
