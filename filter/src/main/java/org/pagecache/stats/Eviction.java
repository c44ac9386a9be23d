package org.pagecache.stats;

/**
 * What an eviction did: the handler the URL belongs to and whether a page was stored.
 *
 * @param url the URL as given
 * @param handler the handler the URL belongs to ({@code default} when none matches)
 * @param existed true when a page was stored under the URL and is now removed (in this cluster)
 * @param clusters which memcached clusters have removed it, and which will (memcached.remote)
 */
public record Eviction(String url, String handler, boolean existed, ClusterDelivery clusters) {
  /** An eviction in this cluster only. */
  public Eviction(String url, String handler, boolean existed) {
    this(url, handler, existed, ClusterDelivery.ONLY_LOCAL);
  }
}
