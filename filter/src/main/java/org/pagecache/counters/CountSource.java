package org.pagecache.counters;

/**
 * Where a view counter starts when memcached does not hold it: the durable count, usually a
 * column in the application's database. memcached keeps the live count for display; losing a key
 * (eviction, restart, expiry) costs one {@code load} per frontend, never the count itself.
 *
 * <pre>{@code
 * CountSource source = objectKey -> jdbc.queryForLong("SELECT views FROM article WHERE id = ?", idOf(objectKey));
 * }</pre>
 *
 * <p>{@code load} may throw (database down, unknown object): the counter then starts from 0 for a
 * short time, logs once, and asks again later. It is called at most once at a time per object key
 * and JVM, so a popular page that loses its key does not stampede the database.
 */
@FunctionalInterface
public interface CountSource {
  /** For applications without a durable count: every counter starts at 0. */
  CountSource ZERO = objectKey -> 0;

  /** The durable count of {@code objectKey}, 0 or more. */
  long load(String objectKey) throws Exception;
}
