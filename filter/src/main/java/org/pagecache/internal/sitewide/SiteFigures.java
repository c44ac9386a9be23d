package org.pagecache.internal.sitewide;

/**
 * One handler's figures summed over every frontend that shares the memcached cluster: the last
 * {@link SiteTotals#WINDOW_MINUTES} minutes of hits (fresh and stale), misses, rebuilds and
 * bypasses, and the pages rebuilt since the handler's last refresh (-1 when it was never
 * refreshed). Each frontend sends its figures every {@link SiteTotals#INTERVAL}, so they lag
 * by at most that.
 */
public record SiteFigures(long hits, long misses, long rebuilds, long bypasses, long rebuiltSinceRefresh) {
  /** What is shown when the cluster's figures cannot be read. */
  public static final SiteFigures NONE = new SiteFigures(0, 0, 0, 0, -1);
}
