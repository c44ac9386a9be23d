package org.pagecache.counters;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The bucket in which this JVM last saw each visitor counted, so their later requests skip the
 * memcached round trips that would only say "already counted". With sticky sessions most
 * requests of a visitor reach the same JVM. Stops remembering past {@link #CAPACITY} visitors
 * (the others just pay the round trips), after dropping those whose count has run out.
 */
final class RecentVisitors {
  static final int CAPACITY = 100_000;

  private final Map<String, Long> countedIn = new ConcurrentHashMap<>();
  private volatile long purgedAt = Long.MIN_VALUE;

  /** The bucket the visitor was last counted in, as far as this JVM knows; null when unknown. */
  Long countedIn(String visitorId) {
    return countedIn.get(visitorId);
  }

  /** Remembers the bucket a visitor was counted in; {@code expiredBefore}: older ones can go. */
  void remember(String visitorId, long bucket, long expiredBefore) {
    if (countedIn.size() >= CAPACITY && purgedAt != expiredBefore) {
      purgedAt = expiredBefore; // once per bucket at most: a full map of live visitors stays full
      countedIn.values().removeIf(b -> b < expiredBefore);
    }
    if (countedIn.size() < CAPACITY || countedIn.containsKey(visitorId)) {
      countedIn.merge(visitorId, bucket, Math::max);
    }
  }
}
