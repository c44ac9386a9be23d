package org.pagecache.counters;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.pagecache.key.Namespace;
import org.pagecache.store.Store;

/**
 * "Online" visitors: how many distinct visitors came in the last window (5 minutes by default),
 * counted in memcached across all frontends with the article's rotating bucket keys.
 *
 * <h2>Buckets</h2>
 * The window is split into {@code buckets - 1} buckets of equal length; one more bucket is the
 * one being filled. With the default six buckets and a 5-minute window each bucket is one minute:
 * a new visitor increments the bucket of the current minute, and the count shown is the sum of
 * the five whole minutes before it (one multi-get). Every minute the oldest bucket leaves the sum
 * and the one just filled joins it, so the count moves smoothly.
 *
 * <p>The minimal variant has two buckets: the bucket length is the whole window; one bucket fills
 * while the other, the previous whole window, is shown. The count is then exactly "distinct
 * visitors during the previous window" and changes once per window, in one step.
 *
 * <h2>Distinct</h2>
 * A visitor is counted once per window: {@code add(visitor(id @ window number), ttl = rest of the
 * window)} succeeds for the first request only, and only then is the bucket incremented. Windows
 * are aligned to the clock and to bucket boundaries, so someone active the whole time is counted
 * exactly once in any span of shown buckets; someone whose visits straddle a window boundary
 * inside the shown span counts twice until that span moves on. A per-JVM memory of who was
 * already counted this window saves the {@code add} round trip on their later requests. If the
 * {@code incr} fails after the {@code add} succeeded, the visitor's mark is deleted so that a
 * later request counts them.
 *
 * <h2>Keys and expiry</h2>
 * Unlike the article's six keys reused in a ring, a bucket's key is its number since the epoch
 * (modulo {@link #KEY_CYCLE}), so a key is never reused while it could still be alive. With a
 * reused ring, a bucket created late in its minute, with a 6-minute expiry, would still hold its
 * old count when its turn comes again; memcached's one-second expiry precision makes that worse
 * for short buckets. Each bucket expires when it has been shown for its last time, plus a second.
 */
final class OnlineCounter {
  /** Bucket keys repeat after this many buckets: about 1.9 years of minutes, 11 days of seconds. */
  static final int KEY_CYCLE = 1_000_000;
  private static final byte[] ONE = "1".getBytes(StandardCharsets.US_ASCII);

  private final Store store;
  private final Namespace namespace;
  private final Clock clock;
  private final int buckets;
  private final long bucketMillis;
  private final long windowMillis;
  private final RecentVisitors recent = new RecentVisitors();

  OnlineCounter(Store store, Namespace namespace, CountersSettings settings, Clock clock) {
    this.store = store;
    this.namespace = namespace;
    this.clock = clock;
    this.buckets = settings.buckets();
    this.bucketMillis = settings.bucketLength().toMillis();
    this.windowMillis = settings.window().toMillis();
  }

  /** Counts the visitor if this is their first request in the current window. */
  void visit(String visitorId) {
    long now = clock.millis();
    long window = Math.floorDiv(now, windowMillis);
    if (recent.contains(window, visitorId)) {
      return;
    }
    int seenTtl = Durations.ceilSeconds((window + 1) * windowMillis - now) + 1;
    String seen = namespace.visitor(visitorId + "@" + window);
    if (store.add(seen, ONE, seenTtl)) {
      long bucket = Math.floorDiv(now, bucketMillis);
      // The bucket is shown until the end of bucket (bucket + buckets - 1).
      int bucketTtl = Durations.ceilSeconds((bucket + buckets) * bucketMillis - now) + 1;
      try {
        store.incr(bucketKey(bucket), 1, 1, bucketTtl);
      } catch (RuntimeException e) {
        forget(seen, e);
        throw e;
      }
    }
    recent.remember(window, visitorId);
  }

  /**
   * Undoes the "already counted" mark of a visitor whose count failed, so their next request
   * counts them; otherwise they would be missing for the rest of the window. Best effort: with
   * memcached gone the delete fails too and they stay uncounted for this window. If the incr
   * failed only in our eyes (a timeout after memcached applied it), they are counted twice.
   */
  private void forget(String seen, RuntimeException failure) {
    try {
      store.delete(seen);
    } catch (RuntimeException e) {
      failure.addSuppressed(e);
    }
  }

  /** The sum of the shown buckets (all but the current one), in one multi-get. */
  long count() {
    long current = Math.floorDiv(clock.millis(), bucketMillis);
    List<String> keys = new ArrayList<>(buckets - 1);
    for (long b = current - 1; b > current - buckets; b--) {
      keys.add(bucketKey(b));
    }
    long sum = 0;
    for (byte[] value : store.getMulti(keys).values()) {
      sum += ViewCounter.parse(value);
    }
    return sum;
  }

  private String bucketKey(long bucket) {
    return namespace.onlineBucket((int) Math.floorMod(bucket, (long) KEY_CYCLE));
  }
}
