package org.pagecache.stats;

import java.util.List;

/**
 * Which memcached clusters a refresh, tag invalidation or eviction reached ({@code memcached.remote}).
 * This cluster is {@value #LOCAL} and is always among the delivered: when it cannot be written,
 * the call throws instead.
 *
 * @param delivered clusters that have it now
 * @param pending clusters that did not answer: kept in this cluster's memcached, and delivered by any
 *     frontend of this cluster when they do (an overflowing backlog: covered by emptying that
 *     cluster; see docs/failures.md)
 * @param lost clusters that will not get it: neither this cluster's memcached nor this JVM's
 *     backlog ({@code memcached.remote.backlog}) could keep it; they serve the pages it concerns
 *     until those expire
 */
public record ClusterDelivery(List<String> delivered, List<String> pending, List<String> lost) {
  /** The name this cluster goes by in a delivery. */
  public static final String LOCAL = "local";

  /** With one cluster: delivered here, nothing else to do. */
  public static final ClusterDelivery ONLY_LOCAL = new ClusterDelivery(List.of(LOCAL), List.of(), List.of());

  /** Copies the lists. */
  public ClusterDelivery {
    delivered = List.copyOf(delivered);
    pending = List.copyOf(pending);
    lost = List.copyOf(lost);
  }

  /** True when every cluster has it. */
  public boolean complete() {
    return pending.isEmpty() && lost.isEmpty();
  }
}
