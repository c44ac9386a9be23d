package org.pagecache.stats;

/**
 * What a tag invalidation did.
 *
 * @param tag the tag invalidated
 * @param version its new version: the time of the invalidation in epoch milliseconds, raised
 *     past the previous version when clocks disagree
 * @param clusters which memcached clusters have the new version, and which will (memcached.remote)
 * @param hard true for a hard purge ({@code PageCache.purgeTags}): the tag's pages are never served again, not even stale
 */
public record TagInvalidation(String tag, long version, ClusterDelivery clusters, boolean hard) {
  /** An invalidation in this cluster only. */
  public TagInvalidation(String tag, long version) {
    this(tag, version, ClusterDelivery.ONLY_LOCAL, false);
  }

  /** A soft invalidation. */
  public TagInvalidation(String tag, long version, ClusterDelivery clusters) {
    this(tag, version, clusters, false);
  }
}
