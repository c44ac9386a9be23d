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
   * @param pending invalidations waiting for it in this JVM
   * @param backlogLimit how many may wait ({@code memcached.remote.backlog})
   * @param oldestPendingMillis how long the oldest one has waited; 0 when none waits
   * @param delivered invalidations delivered to it since start-up
   * @param lost invalidations it will never get: the backlog was full
   * @param reachable false since a delivery failed, until one succeeds
   */
  public record Remote(String name, String servers, int pending, int backlogLimit, long oldestPendingMillis,
      long delivered, long lost, boolean reachable) {}

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
