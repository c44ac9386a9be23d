package org.pagecache.store;

import java.util.Objects;

/**
 * memcached's rules for what is stored under a key (size, expiry, counter arguments), checked the
 * same way by every store implementation, so that a page too big for memcached is refused in
 * development (in-process store) exactly as in production.
 *
 * <p>memcached's item limit (1 MiB by default, {@code -I}) counts the key and the item header
 * too, and xmemcached refuses anything above 1,048,576 bytes before sending. Values up to
 * {@link #MAX_VALUE_BYTES} always fit, whatever the key; callers should cap pages well below.
 */
public final class Values {
  /** 1 MiB minus room for the longest key and memcached's item header (about 60 bytes). */
  public static final int MAX_VALUE_BYTES = 1024 * 1024 - 1024;

  /** memcached reads an expiry above 30 days as an absolute Unix time. */
  private static final long MAX_RELATIVE_EXPIRY_SECONDS = 30L * 24 * 3600;

  private Values() {}

  /**
   * The expiry that keeps a value for {@code millis}: whole seconds rounded up, at least 1, at most
   * 30 days (memcached would read more as an absolute time, already past).
   */
  public static int expirySeconds(long millis) {
    long s = Math.max(1, (millis + 999) / 1000);
    return (int) Math.min(s, MAX_RELATIVE_EXPIRY_SECONDS);
  }

  /**
   * Throws {@link IllegalArgumentException} naming the key and the size when {@code value} is too
   * big to store: that is a caller's mistake (it should not try), not an outage.
   */
  public static byte[] check(String key, byte[] value) {
    Objects.requireNonNull(value, "value");
    if (value.length > MAX_VALUE_BYTES) {
      throw new IllegalArgumentException("value of " + value.length + " bytes for key '" + key
          + "' is over the limit of " + MAX_VALUE_BYTES + " bytes (memcached's 1 MiB item size)");
    }
    return value;
  }

  /**
   * memcached itself treats a negative expiry as "already expired", but xmemcached refuses it:
   * refuse it everywhere, as a caller's mistake (use 0 for "never", or delete the key).
   */
  public static int checkTtl(String key, int ttlSeconds) {
    if (ttlSeconds < 0) {
      throw new IllegalArgumentException("ttl " + ttlSeconds + " for key '" + key
          + "': use 0 (never expires) or a positive number of seconds");
    }
    return ttlSeconds;
  }

  /**
   * memcached counters are unsigned 64-bit numbers and {@code incr}/{@code decr} take an unsigned
   * delta: a negative delta or initial value is a caller's mistake, refused the same way everywhere.
   */
  public static void checkCounter(String key, long delta, long initial) {
    if (delta < 0 || initial < 0) {
      throw new IllegalArgumentException("counter '" + key + "': delta " + delta + " and initial "
          + initial + " must both be 0 or more");
    }
  }
}
