package org.pagecache.stats;

/**
 * What a refresh did. {@code known} is false for a handler this cache has never seen nor configured.
 *
 * @param handler the handler refreshed
 * @param token its new update token: the time of the refresh in epoch milliseconds, raised past
 *     the previous token when clocks disagree
 * @param known false for a handler this cache has never seen nor configured (perhaps misspelt)
 * @param clusters which memcached clusters have the new token, and which will (memcached.remote)
 */
public record Refresh(String handler, long token, boolean known, ClusterDelivery clusters) {
  /** A refresh of this cluster only. */
  public Refresh(String handler, long token, boolean known) {
    this(handler, token, known, ClusterDelivery.ONLY_LOCAL);
  }
}
