package org.pagecache.counters;

import org.pagecache.internal.config.Durations;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.pagecache.store.Namespace;
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
 * A visitor is counted again only once {@code buckets - 1} buckets (the shown span, one window)
 * have passed since the bucket they were last counted in, as the article's "add with the window
 * as TTL" intends: their mark {@code visitor(id)} holds the
 * bucket they were counted in. The first request makes it with {@code add} and increments the
 * current bucket; a later request that finds the mark (add fails) reads it with {@code gets} and,
 * when {@code buckets - 1} buckets have passed since, moves it to the current bucket with
 * {@code cas} (one frontend wins) and counts the visitor again. So someone active the whole time
 * is counted exactly once in any span of shown buckets, never twice, and at least once in every
 * shown span in which they made a request after their previous count ran out. The decision uses
 * the bucket number in the mark, not memcached's expiry (one-second precision, and a test's clock
 * cannot move it); the mark's TTL, a bucket longer than the window, only frees the memory.
 *
 * <p>A per-JVM memory of the bucket each visitor was counted in saves those round trips on their
 * later requests. If the {@code incr} fails after the mark was written, the mark is deleted so
 * that a later request counts them.
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

  /** Counts the visitor unless they were counted in one of the last {@code buckets - 1} buckets. */
  void visit(String visitorId) {
    long now = clock.millis();
    long bucket = Math.floorDiv(now, bucketMillis);
    long stillCounted = bucket - (buckets - 1) + 1; // counted in this bucket or later: not again yet
    Long known = recent.countedIn(visitorId);
    if (known != null && known >= stillCounted) {
      return;
    }
    String mark = namespace.visitor(visitorId);
    byte[] value = ViewCounter.ascii(bucket);
    int markTtl = Durations.ceilSeconds(windowMillis + bucketMillis) + 1;
    // A visitor this JVM counted before has a mark (it outlives their count by a bucket): read it
    // first. A new one most likely has none: add first.
    boolean count = known == null && store.add(mark, value, markTtl);
    if (!count) {
      Store.Versioned seen = store.gets(mark);
      if (seen == null) {
        count = store.add(mark, value, markTtl); // none (any more)
      } else {
        long countedIn = ViewCounter.parse(seen.value());
        if (countedIn >= stillCounted) {
          recent.remember(visitorId, countedIn);
          return;
        }
        count = store.cas(mark, value, seen.casUnique(), markTtl); // one frontend wins the recount
      }
    }
    if (count) {
      // The bucket is shown until the end of bucket (bucket + buckets - 1).
      int bucketTtl = Durations.ceilSeconds((bucket + buckets) * bucketMillis - now) + 1;
      try {
        store.incr(bucketKey(bucket), 1, 1, bucketTtl);
      } catch (RuntimeException e) {
        forget(mark, e);
        throw e;
      }
    }
    recent.remember(visitorId, bucket); // counted now, or by the frontend that won
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
