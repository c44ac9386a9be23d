package org.pagecache.stats;

/**
 * The near cache of this JVM at one moment, as the admin page and {@code api/stats} show it.
 *
 * @param enabled     false when {@code near.size} or {@code near.trust} is 0
 * @param entries     pages held (Caffeine's estimate)
 * @param bytes       their estimated memory: bodies (stored and inflated), headers, overhead
 * @param maxBytes    the bound ({@code near.size})
 * @param sizedBy     how the bound was chosen: "10 % of a 3.0 GiB heap" (the default, a share of
 *                    the maximum heap), "set by near.size"
 * @param trustMillis {@code near.trust}
 * @param hits        requests answered from this JVM's memory
 * @param misses      cacheable requests that asked memcached
 */
public record NearStats(boolean enabled, long entries, long bytes, long maxBytes, String sizedBy, long trustMillis,
    long hits, long misses) {

  /** Without the reason for the bound (before near.size was sized to the heap). */
  public NearStats(boolean enabled, long entries, long bytes, long maxBytes, long trustMillis, long hits, long misses) {
    this(enabled, entries, bytes, maxBytes, "", trustMillis, hits, misses);
  }

  /** Hits over lookups, or -1 before the first lookup. */
  public double hitRatio() {
    long all = hits + misses;
    return all == 0 ? -1 : (double) hits / all;
  }
}
