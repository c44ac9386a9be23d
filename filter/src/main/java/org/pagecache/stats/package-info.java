/**
 * What the page cache reports, as immutable values taken at the call (as Caffeine's {@code
 * CacheStats}): this JVM's counts per handler ({@link org.pagecache.stats.Stats}), the site's over
 * every frontend ({@link org.pagecache.stats.SiteStats}), the near cache, the memcached nodes, the
 * other clusters, and which clusters an invalidation reached. The engine fills them in directly;
 * they import nothing else of the library. Read through {@code PageCache}'s inspection methods.
 */
package org.pagecache.stats;
