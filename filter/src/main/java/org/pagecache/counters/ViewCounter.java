package org.pagecache.counters;

import org.pagecache.internal.config.Durations;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.pagecache.counters.LastSeen.Seen;
import org.pagecache.counters.StartValues.Origin;
import org.pagecache.counters.StartValues.Start;
import org.pagecache.store.Namespace;
import org.pagecache.store.Store;
import org.pagecache.store.StoreException;

/**
 * Live view counts in memcached, one {@code incr} per view, started from the durable count of a
 * {@link CountSource} (the article's view counter, with its race closed).
 *
 * <h2>Why the start is careful</h2>
 * The article's recipe is "incr; if the key is missing, load V from the database and set V+1",
 * and it notes the race: two frontends that find the key missing at once both set, and one view
 * is lost. It suggests {@code add} instead of {@code set}. Our {@link Store#incr} always carries an
 * initial value (on a missing key it stores that value and returns it without adding the delta,
 * as xmemcached does: NOT_FOUND, then {@code add(initial)}, and if that add loses, {@code incr}
 * again), so there is no "incr that fails on a missing key" to start from. A sentinel initial
 * (create as 0, then add V) would show small numbers to every reader until V arrives. Instead:
 * <ol>
 *   <li>A counter this JVM has not seen within {@link #TRUST_LAST_SEEN} is looked up with one
 *       {@code get} (by one thread per key at a time, see {@link StartValues}; the others share
 *       its answer). If present, we {@code incr} it.
 *   <li>If missing, we load V, {@code add(key, V)} and then {@code incr(key, 1, initial = V + 1)}.
 *       Of two frontends that start together exactly one {@code add} wins and both
 *       {@code incr}s land on the winner's value: V+2, no view lost. The initial V+1 is only a
 *       last resort for a key that vanished between our {@code add} and our {@code incr}; it is
 *       then the right value anyway.
 *   <li>A counter seen within {@link #TRUST_LAST_SEEN} is incremented directly (one round trip)
 *       with {@code initial = lastSeen + delta}. If the key expired or was evicted meanwhile, it
 *       comes back at the count this JVM saw moments ago instead of at a stale database value
 *       (the database lags by the flush interval). Concurrent recreations are still safe: the
 *       store's {@code incr} adds or loses to an existing key, it never overwrites one.
 * </ol>
 * Memcached does not extend a key's expiry on {@code incr}, so a busy counter is recreated by
 * step 3 once per {@code ttl}; views counted by other frontends since this one last looked (under
 * a second ago) are missing from the display then, never from the durable count (which the
 * {@link ViewFlusher} keeps independently of memcached). A counter this JVM sees less than once
 * a second costs a {@code get} and an {@code incr} per view; local aggregation gets all its stale
 * counters in one multi-get per push ({@link #refresh}).
 *
 * <p>When the source fails, the counter starts from 0 with a one-minute expiry, and this JVM
 * does not use that count for step 3 (even when it finds the key present again) until that key
 * has expired; found present after that, it is someone's new start. So the database is asked
 * again a minute later, instead of steady views carrying a wrong count into a key that lives a
 * whole {@code ttl}. Another frontend that reads the stand-in during that minute cannot tell it
 * apart; that is the remaining exposure.
 *
 * <p>Every method may throw {@link StoreException}; {@link FailOpen} turns that into fallbacks.
 */
final class ViewCounter {
  /**
   * How long a value this JVM saw may serve as the starting point of a recreated key: views
   * other frontends count after it are missing from the recreated count until it next expires,
   * so only a value this fresh is good enough; an older one costs a {@code get} instead.
   */
  static final Duration TRUST_LAST_SEEN = Duration.ofSeconds(1);
  /** Expiry of a counter started from a failed load, so the load is retried soon. */
  static final int UNTRUSTED_TTL_SECONDS = 60;
  /** memcached's expiry is precise to about a second. */
  private static final int EXPIRY_SLACK_SECONDS = 2;

  private final Store store;
  private final Namespace namespace;
  private final StartValues starts;
  private final Clock clock;
  private final int ttlSeconds;
  private final LastSeen lastSeen = new LastSeen();

  ViewCounter(Store store, Namespace namespace, CountSource source, Duration ttl, Clock clock) {
    this.store = store;
    this.namespace = namespace;
    this.starts = new StartValues(source, clock);
    this.clock = clock;
    this.ttlSeconds = Durations.ceilSeconds(ttl.toMillis());
  }

  /** Counts one view and returns the new count. */
  long increment(String objectKey) {
    return add(objectKey, 1);
  }

  /** Counts {@code delta} views at once (local aggregation) and returns the new count. */
  long add(String objectKey, long delta) {
    String key = namespace.views(objectKey);
    long now = clock.millis();
    Seen seen = lastSeen.get(objectKey);
    if (usable(seen, now)) {
      long value = store.incr(key, delta, seen.value() + delta, ttlSeconds);
      lastSeen.record(objectKey, value, now, 0);
      return value;
    }
    Start start = start(objectKey, key);
    long value = store.incr(key, delta, start.value() + delta, ttlFor(start));
    lastSeen.record(objectKey, value, now, distrustUntil(start, seen, now));
    return value;
  }

  /** The count without counting: one {@code get}, or the source when memcached lacks it. */
  long current(String objectKey) {
    return current(List.of(objectKey)).get(objectKey);
  }

  /**
   * Counts of several objects in one multi-get, plus a source load and an {@code add} per
   * counter that is missing; the next read of those finds them.
   */
  Map<String, Long> current(Collection<String> objectKeys) {
    Map<String, String> keys = new LinkedHashMap<>();
    for (String objectKey : objectKeys) {
      keys.put(objectKey, namespace.views(objectKey));
    }
    Map<String, byte[]> found = store.getMulti(keys.values());
    long now = clock.millis();
    Map<String, Long> counts = new LinkedHashMap<>();
    for (Map.Entry<String, String> e : keys.entrySet()) {
      String objectKey = e.getKey();
      byte[] value = found.get(e.getValue());
      Start start = value != null
          ? new Start(parse(value), Origin.FOUND)
          : startMissing(objectKey, e.getValue());
      lastSeen.record(objectKey, start.value(), now, distrustUntil(start, lastSeen.get(objectKey), now));
      counts.put(objectKey, start.value());
    }
    return counts;
  }

  /**
   * Looks up, in one multi-get, the counters this JVM has not seen within {@link #TRUST_LAST_SEEN}
   * (starting those that are missing), so that {@link #add} then costs one {@code incr} each.
   */
  void refresh(Collection<String> objectKeys) {
    long now = clock.millis();
    List<String> stale = objectKeys.stream()
        .filter(k -> !usable(lastSeen.get(k), now))
        .toList();
    if (!stale.isEmpty()) {
      current(stale);
    }
  }

  private static boolean usable(Seen seen, long now) {
    return seen != null && seen.usableAt(now, TRUST_LAST_SEEN.toMillis());
  }

  /** The highest count this JVM saw, or -1: what to show while memcached is away. */
  long lastKnown(String objectKey) {
    return lastSeen.value(objectKey);
  }

  /** The highest count this JVM saw within {@code maxAgeMillis}, or -1. */
  long lastKnownWithin(String objectKey, long maxAgeMillis) {
    Seen seen = lastSeen.get(objectKey);
    return seen != null && clock.millis() - seen.atMillis() <= maxAgeMillis ? seen.value() : -1;
  }

  /** Starts a counter before counting on it: it may well exist, so one {@code get} first. */
  private Start start(String objectKey, String key) {
    return starts.obtain(objectKey, () -> {
      // Present (another frontend or thread started it): no load. A thread of this JVM that
      // missed just before another finished starting it also ends up here.
      byte[] present = store.get(key);
      if (present != null) {
        return new Start(parse(present), Origin.FOUND);
      }
      Start start = starts.load(objectKey);
      // add, not set: if another frontend created the key meanwhile, its value (and every view
      // already counted on it) stays; our incr lands on it.
      store.add(key, ascii(start.value()), ttlFor(start));
      return start;
    });
  }

  /**
   * Starts a counter that a multi-get has just found missing, for a read: no second look before
   * the load. Read-through (the key is created) so the next read of it costs no load. Only when
   * another frontend created it meanwhile is it read again, since no incr follows to land on it.
   */
  private Start startMissing(String objectKey, String key) {
    return starts.obtain(objectKey, () -> {
      Start start = starts.load(objectKey);
      if (store.add(key, ascii(start.value()), ttlFor(start))) {
        return start;
      }
      byte[] winner = store.get(key);
      return winner == null ? start : new Start(parse(winner), Origin.FOUND);
    });
  }

  /**
   * A count grown from a stand-in 0 stays distrusted until its short-lived key is gone: found
   * present before then, it is still the stand-in; found present after, someone started it anew.
   * Without this, steady views would recreate the stand-in with the full ttl and the wrong count
   * would outlive the database outage by a day.
   */
  private static long distrustUntil(Start start, Seen before, long now) {
    return switch (start.origin()) {
      case STAND_IN -> now + (UNTRUSTED_TTL_SECONDS + EXPIRY_SLACK_SECONDS) * 1000L;
      case LOADED -> 0;
      case FOUND -> {
        boolean stillTheStandIn = before != null && now < before.distrustUntilMillis();
        yield stillTheStandIn ? before.distrustUntilMillis() : 0;
      }
    };
  }

  private int ttlFor(Start start) {
    return start.trusted() ? ttlSeconds : Math.min(ttlSeconds, UNTRUSTED_TTL_SECONDS);
  }

  /** memcached may pad an incremented value with spaces; anything unreadable counts as 0. */
  static long parse(byte[] value) {
    try {
      return Long.parseLong(new String(value, StandardCharsets.US_ASCII).trim());
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  static byte[] ascii(long value) {
    return Long.toString(value).getBytes(StandardCharsets.US_ASCII);
  }
}
