package org.pagecache.internal.cluster;

import java.util.List;

/**
 * Which clusters an invalidation reached: the engine's side of {@code PageCache.ClusterDelivery}.
 * This cluster is {@link #LOCAL} and always among the delivered.
 *
 * @param delivered clusters that have it now
 * @param pending clusters that did not answer: this JVM retries until they do
 * @param lost clusters whose backlog was full: they will not get it
 */
public record Delivery(List<String> delivered, List<String> pending, List<String> lost) {
  /** The name this cluster goes by in a delivery. */
  public static final String LOCAL = "local";

  /** With one cluster: delivered here, nothing else to do. */
  public static final Delivery ONLY_LOCAL = new Delivery(List.of(LOCAL), List.of(), List.of());

  public Delivery {
    delivered = List.copyOf(delivered);
    pending = List.copyOf(pending);
    lost = List.copyOf(lost);
  }
}
