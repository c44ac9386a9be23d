package org.pagecache.counters;

import com.github.benmanes.caffeine.cache.Caffeine;
import java.util.Map;

/**
 * The highest value this JVM saw of each view counter, with when it last saw it. Two uses: the
 * fallback shown while memcached is away, and the starting value if a counter key vanishes between
 * two views (see {@link ViewCounter}). Bounded by Caffeine, which keeps the counters seen most:
 * a forgotten one costs one extra {@code get} on its next view, nothing more.
 */
final class LastSeen {
  static final int CAPACITY = 100_000;

  /**
   * @param distrustUntilMillis 0 for a real count; otherwise the value grew from a failed
   *     {@link CountSource#load} (a stand-in 0) whose key lives until about then, and it must not
   *     restart a vanished counter
   */
  record Seen(long value, long atMillis, long distrustUntilMillis) {
    /** Whether the value may restart a vanished counter at {@code now}. */
    boolean usableAt(long now, long trustForMillis) {
      return distrustUntilMillis == 0 && now - atMillis < trustForMillis;
    }

    /**
     * Two racing threads record their {@code incr} results in any order, so a plain put could go
     * back (and a restart from it would drop views). The true count never falls and every value
     * read from memcached is at most the truth, so the higher value is always the better one;
     * the later observation says when it was seen and whether it is trusted.
     */
    Seen merge(Seen other) {
      boolean otherIsLater = other.atMillis >= atMillis;
      return new Seen(Math.max(value, other.value), Math.max(atMillis, other.atMillis),
          otherIsLater ? other.distrustUntilMillis : distrustUntilMillis);
    }
  }

  private final Map<String, Seen> seen =
      Caffeine.newBuilder().maximumSize(CAPACITY).executor(Runnable::run).<String, Seen>build().asMap();

  void record(String objectKey, long value, long atMillis, long distrustUntilMillis) {
    seen.merge(objectKey, new Seen(value, atMillis, distrustUntilMillis), Seen::merge);
  }

  /**
   * Replaces what was seen: for a counter this JVM has just rebuilt, whose new value is right
   * even when lower than an old one.
   */
  void reset(String objectKey, long value, long atMillis) {
    seen.put(objectKey, new Seen(value, atMillis, 0));
  }

  /** Forgets the counter, so its next use looks it up in memcached. */
  void forget(String objectKey) {
    seen.remove(objectKey);
  }

  /** The entry, or null when this JVM has not seen the counter (or forgot it). */
  Seen get(String objectKey) {
    return seen.get(objectKey);
  }

  /** The last value seen, or -1 when unknown. */
  long value(String objectKey) {
    Seen s = seen.get(objectKey);
    return s == null ? -1 : s.value();
  }
}
