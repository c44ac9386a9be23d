package org.pagecache.counters;

import org.pagecache.internal.config.Durations;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
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
 * <h2>Exact through outages</h2>
 * Views reach memcached ({@link #push}) and the sink ({@link ViewFlusher}) independently, so after
 * an outage a view may be in the sink's total and still unsent, or sent and not yet flushed. A
 * counter this JVM creates from the {@link CountSource} (read while no flush is in flight) is
 * therefore created as that total plus the views this JVM has not yet flushed, and the views it
 * had not sent are dropped ({@link ViewLedger#rebase}): each of them is already in one of the
 * two. A counter found present (it survived the outage) gets the unsent views as usual. Within a
 * JVM, sending and rebuilding one object's counter take the same {@link KeyLocks} lock. Other
 * frontends cannot know that a counter was rebuilt: views they had flushed and not sent are
 * added again, and views they had sent and not flushed are missing, until the counter expires.
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
  private final ViewLedger ledger;
  private final ViewFlusher flusher;
  private final KeyLocks locks = new KeyLocks();
  /** Counters whose last {@code incr} or {@code add} failed: it may have been applied or not. */
  private final Set<String> inDoubt = ConcurrentHashMap.newKeySet();

  /**
   * @param ledger the views this JVM owes memcached and the sink
   * @param flusher whose {@link ViewFlusher#whileNoFlushInFlight} a rebuild runs in
   */
  ViewCounter(Store store, Namespace namespace, CountSource source, Duration ttl, Clock clock,
      ViewLedger ledger, ViewFlusher flusher) {
    this.store = store;
    this.namespace = namespace;
    this.starts = new StartValues(source, clock);
    this.clock = clock;
    this.ttlSeconds = Durations.ceilSeconds(ttl.toMillis());
    this.ledger = ledger;
    this.flusher = flusher;
  }

  /** Views counted by this JVM that memcached has not been given yet. */
  long unsent(String objectKey) {
    return ledger.unsent(objectKey);
  }

  /**
   * Sends the object's unsent views (one {@code incr}) and returns the count; when another
   * thread sent them first, the last count seen. On a {@link StoreException} they stay unsent,
   * and the counter is in doubt: memcached may have applied the {@code incr} anyway (a timeout
   * while it hung), so with a sink the next push rebuilds it ({@link #rebuildIfInDoubt}) instead
   * of sending them a second time on top.
   */
  long push(String objectKey) {
    ReentrantLock lock = locks.of(objectKey);
    lock.lock();
    try {
      boolean rebuilt = rebuildIfInDoubt(objectKey);
      long views = ledger.takeUnsent(objectKey);
      if (views == 0 && !rebuilt) {
        return lastSeen.value(objectKey);
      }
      try {
        return add(objectKey, views);
      } catch (StoreException e) {
        ledger.unsentBack(objectKey, views);
        doubt(objectKey);
        throw e;
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * Deletes a counter whose last change may or may not have been applied, so that it is created
   * again as the sink's total plus the views not yet flushed: right whatever memcached did.
   */
  private boolean rebuildIfInDoubt(String objectKey) {
    if (!inDoubt.remove(objectKey)) {
      return false;
    }
    try {
      store.delete(namespace.views(objectKey));
    } catch (RuntimeException e) {
      inDoubt.add(objectKey);
      throw e;
    }
    lastSeen.forget(objectKey);
    return true;
  }

  private void doubt(String objectKey) {
    if (ledger.tracksSink()) {
      inDoubt.add(objectKey);
    }
  }

  /** Adds {@code delta} views taken from the ledger and returns the new count. */
  private long add(String objectKey, long delta) {
    String key = namespace.views(objectKey);
    long now = clock.millis();
    Seen seen = lastSeen.get(objectKey);
    if (usable(seen, now)) {
      long value = store.incr(key, delta, seen.value() + delta, ttlSeconds);
      lastSeen.record(objectKey, value, now, 0);
      return value;
    }
    Start start = start(objectKey, key);
    if (start.origin() == Origin.REBASED) {
      // Created with every view this JVM owed: the delta in hand is among them.
      lastSeen.reset(objectKey, start.value(), now);
      return start.value();
    }
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
    long lookedAt = starts.sequence();
    Map<String, byte[]> found = store.getMulti(keys.values());
    long now = clock.millis();
    Map<String, Long> counts = new LinkedHashMap<>();
    for (Map.Entry<String, String> e : keys.entrySet()) {
      String objectKey = e.getKey();
      byte[] value = found.get(e.getValue());
      Start start = value != null
          ? new Start(parse(value), Origin.FOUND)
          : startMissingLocked(objectKey, e.getValue(), lookedAt);
      if (start.origin() == Origin.REBASED) {
        lastSeen.reset(objectKey, start.value(), now);
      } else {
        lastSeen.record(objectKey, start.value(), now, distrustUntil(start, lastSeen.get(objectKey), now));
      }
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
      // add, not set: if another frontend created the key meanwhile, its value (and every view
      // already counted on it) stays; our incr lands on it.
      return create(objectKey, key).start();
    });
  }

  /**
   * {@link #startMissing} under the object's lock. Readers that found the counter missing together
   * queue on that lock; one loads it, and the others, finding it started since they looked
   * ({@code lookedAt}), take the count it started with instead of loading again.
   */
  private Start startMissingLocked(String objectKey, String key, long lookedAt) {
    ReentrantLock lock = locks.of(objectKey);
    lock.lock();
    try {
      Start since = starts.startedSince(objectKey, lookedAt);
      return since != null ? since : startMissing(objectKey, key);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Loads the durable count and creates the counter with {@code add}. With a sink, the load and
   * the add happen while no flush is in flight, and the counter gets the views this JVM has not
   * flushed too ({@link Origin#REBASED}); if the add loses, the unsent views are given back, as
   * the winner's counter has none of them from us.
   */
  private Creation create(String objectKey, String key) {
    if (!ledger.tracksSink()) {
      Start start = starts.load(objectKey);
      return new Creation(start, store.add(key, ascii(start.value()), ttlFor(start)));
    }
    return flusher.whileNoFlushInFlight(() -> {
      Start loaded = starts.load(objectKey);
      if (!loaded.trusted()) {
        return new Creation(loaded, store.add(key, ascii(loaded.value()), ttlFor(loaded)));
      }
      ViewLedger.Rebase rebase = ledger.rebase(objectKey);
      long value = loaded.value() + rebase.unflushed();
      boolean added = false;
      try {
        added = store.add(key, ascii(value), ttlFor(loaded));
      } catch (StoreException e) {
        doubt(objectKey); // the add may still be applied, with the views we now keep unsent
        throw e;
      } finally {
        if (!added) {
          ledger.unsentBack(objectKey, rebase.unsentBefore());
        }
      }
      return added ? new Creation(new Start(value, Origin.REBASED), true) : new Creation(loaded, false);
    });
  }

  /** A start this JVM tried to create; {@code added} false when another one's add won. */
  private record Creation(Start start, boolean added) {}

  /**
   * Starts a counter that a multi-get has just found missing, for a read: no second look before
   * the load. Read-through (the key is created) so the next read of it costs no load. Only when
   * another frontend created it meanwhile is it read again, since no incr follows to land on it.
   */
  private Start startMissing(String objectKey, String key) {
    return starts.obtain(objectKey, () -> {
      Creation creation = create(objectKey, key);
      if (creation.added()) {
        return creation.start();
      }
      byte[] winner = store.get(key);
      return winner == null ? creation.start() : new Start(parse(winner), Origin.FOUND);
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
      case LOADED, REBASED -> 0;
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
