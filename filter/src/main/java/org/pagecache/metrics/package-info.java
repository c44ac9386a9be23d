/**
 * Micrometer metrics of the page cache ({@link org.pagecache.metrics.PageCacheMetrics}); needs the
 * optional {@code io.micrometer:micrometer-core} dependency.
 */
package org.pagecache.metrics;
