package org.pagecache.counters;

import com.github.benmanes.caffeine.cache.Caffeine;
import java.util.Map;

/**
 * The bucket in which this JVM last saw each visitor counted, so their later requests skip the
 * memcached round trips that would only say "already counted". With sticky sessions most
 * requests of a visitor reach the same JVM. Remembers at most {@link #CAPACITY} visitors, bounded
 * by Caffeine, which keeps the frequent ones (the others just pay the round trips).
 */
final class RecentVisitors {
  static final int CAPACITY = 100_000;

  private final Map<String, Long> countedIn =
      Caffeine.newBuilder().maximumSize(CAPACITY).executor(Runnable::run).<String, Long>build().asMap();

  /** The bucket the visitor was last counted in, as far as this JVM knows; null when unknown. */
  Long countedIn(String visitorId) {
    return countedIn.get(visitorId);
  }

  /** Remembers the bucket a visitor was counted in. */
  void remember(String visitorId, long bucket) {
    countedIn.merge(visitorId, bucket, Math::max);
  }
}
