/**
 * Live counters in memcached: view counts per object and the number of visitors online, shared
 * by all frontends without a database write per view. The techniques are those of the
 * "Web, caching and memcached" series (HighLoad++ 2008): {@code incr} for atomic counting,
 * {@code add} for a start that no concurrent frontend can overwrite, a periodic flush of summed
 * views to the database, and rotating minute buckets for "online".
 *
 * <p>API: {@link org.pagecache.counters.Counters} (the facade),
 * {@link org.pagecache.counters.CountersSettings}, and the {@link org.pagecache.counters.CountSource}
 * and {@link org.pagecache.counters.CountSink} SPI. Everything else is package-private, or in
 * {@code org.pagecache.internal.counters} (placeholders, visitor ids, counter names).
 */
package org.pagecache.counters;
