package org.pagecache.stats;

import java.util.List;

/**
 * The other memcached clusters ({@code memcached.remote}) and the warm-up of this one, at one
 * moment, as the admin page, {@code api/stats} and the metrics show them.
 *
 * @param remotes each other cluster's delivery state, in the order configured
 * @param warmUp the warm-up's progress; null when {@code memcached.warm.from} is not set
 */
public record ClusterStatus(List<Remote> remotes, WarmUpProgress warmUp) {
  /** With one cluster. */
  public static final ClusterStatus NONE = new ClusterStatus(List.of(), null);

  /** Copies the list. */
  public ClusterStatus {
    remotes = List.copyOf(remotes);
  }

  /**
   * One other cluster.
   *
   * @param name its name in {@code memcached.remote}
   * @param servers its servers
   * @param pending invalidations waiting for it in this cluster's memcached (the same on every
   *     frontend of this cluster, as last read: at most {@code retry.interval} or 1 s old), plus any
   *     this JVM holds in memory because this cluster's memcached could not take them
   * @param backlogLimit how many may wait ({@code memcached.remote.backlog})
   * @param oldestPendingMillis how long the oldest one has waited; 0 when none waits
   * @param pendingSinceMillis when the oldest one was made (epoch milliseconds); 0 when none waits
   * @param delivered invalidations this JVM delivered to it since start-up
   * @param lost invalidations not delivered one by one: an overflowing backlog (made good by
   *     emptying that cluster), or not delivered at all (neither memcached could keep them, or the
   *     cluster could not be emptied: memcached proxies)
   * @param overflows times this JVM found the backlog overflowing or lost, each logged once: that
   *     cluster is emptied ({@code flush_all}) when it answers again
   * @param reachable false since a delivery failed, until one succeeds
   */
  public record Remote(String name, String servers, int pending, int backlogLimit, long oldestPendingMillis,
      long pendingSinceMillis, long delivered, long lost, long overflows, boolean reachable) {
    /** As before issue 37: without the time of the oldest and the overflows. */
    public Remote(String name, String servers, int pending, int backlogLimit, long oldestPendingMillis,
        long delivered, long lost, boolean reachable) {
      this(name, servers, pending, backlogLimit, oldestPendingMillis, 0, delivered, lost, 0, reachable);
    }
  }

  /**
   * The warm-up of this (cold) cluster from a warm one.
   *
   * @param from the warm cluster's name
   * @param active whether misses are still read from it
   * @param millisLeft time left of {@code memcached.warm.for}
   * @param copied pages copied from it and served
   * @param built misses built here instead (not in the warm cluster, or unreadable)
   * @param refused copies refused: stale by this cluster's tokens or tags, or evicted meanwhile
   */
  public record WarmUpProgress(String from, boolean active, long millisLeft, long copied, long built,
      long refused) {}
}
