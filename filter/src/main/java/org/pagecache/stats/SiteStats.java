package org.pagecache.stats;

/**
 * One handler's figures summed over every frontend that shares memcached: the last
 * {@value #WINDOW_MINUTES} minutes of hits (fresh and stale), misses, rebuilds and bypasses.
 * Each frontend adds its own every {@value #INTERVAL_SECONDS} seconds, so they lag by at most that.
 *
 * @param rebuiltSinceRefresh pages rebuilt by any frontend since the handler's last refresh; -1 when
 *     it was never refreshed
 */
public record SiteStats(long hits, long misses, long rebuilds, long bypasses, long rebuiltSinceRefresh) {
  /** How many minutes the figures cover. */
  public static final int WINDOW_MINUTES = 60;
  /** How often each frontend adds its figures, in seconds. */
  public static final long INTERVAL_SECONDS = 5;
  /** What is shown when the figures cannot be read. */
  public static final SiteStats NONE = new SiteStats(0, 0, 0, 0, -1);
}
