package org.pagecache.counters;

import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.pagecache.store.StoreException;

/**
 * The high-traffic mode: views are summed in this JVM and each object gets one
 * {@code incr(key, sum)} per interval, so a page viewed a thousand times a second costs memcached
 * one round trip per interval per frontend instead of a thousand. A view itself costs no round
 * trip at all once this JVM knows the object's count.
 *
 * <p>The count shown is the memcached value this JVM last saw plus its own views not yet sent.
 * It lags the truth by at most the views other frontends counted during the last interval: a
 * value seen longer ago than that (the first view after a quiet spell) is read again first.
 *
 * <p>If memcached refuses a push, the sums stay and go with the next one. A JVM that dies loses
 * the sums of its last interval from the display; the durable count ({@link ViewFlusher}) is
 * kept apart and does not depend on this.
 */
final class LocalAggregation implements ViewMode {
  private final ViewCounter counter;
  private final FailOpen failOpen;
  private final ViewLedger ledger;
  private final Periodic schedule;
  private final long intervalMillis;

  LocalAggregation(ViewCounter counter, FailOpen failOpen, ViewLedger ledger, Duration interval) {
    this.counter = counter;
    this.ledger = ledger;
    this.failOpen = failOpen;
    this.intervalMillis = interval.toMillis();
    this.schedule = new Periodic("pagecache-counters-aggregate", interval, this::pushNow);
  }

  @Override
  public long viewed(String objectKey) {
    long base = counter.lastKnownWithin(objectKey, intervalMillis);
    if (base < 0) {
      // First view here, or the first after a quiet spell: learn its count (one get, or the
      // source); an older value would show a count hours behind until the next push.
      base = failOpen.callLong(() -> counter.current(objectKey), () -> counter.lastKnown(objectKey));
    }
    return shown(base, objectKey);
  }

  @Override
  public long views(String objectKey) {
    long base = failOpen.callLong(() -> counter.current(objectKey), () -> counter.lastKnown(objectKey));
    return shown(base, objectKey);
  }

  @Override
  public Map<String, Long> views(Collection<String> objectKeys) {
    Map<String, Long> base = failOpen.call(() -> counter.current(objectKeys),
        () -> lastKnown(objectKeys));
    Map<String, Long> shown = new LinkedHashMap<>();
    base.forEach((objectKey, count) -> shown.put(objectKey, shown(count, objectKey)));
    return shown;
  }

  /**
   * Sends each object's sum as one {@code incr}; true when everything went. A sum leaves the
   * unsent total before its {@code incr} and comes back if that fails: the count shown may dip
   * by the sum for one round trip, but never shows a view twice. A counter memcached lost is
   * rebuilt by the multi-get's start with the views this JVM owes it ({@link ViewCounter}).
   */
  @Override
  public synchronized boolean pushNow() {
    List<String> objectKeys = ledger.withUnsent();
    if (objectKeys.isEmpty()) {
      return true;
    }
    if (!failOpen.allows()) {
      return false;
    }
    try {
      counter.refresh(objectKeys);
    } catch (StoreException failure) {
      failOpen.failed(failure);
      return false;
    } catch (RuntimeException unexpected) {
      // Only saves round trips: each push below still starts its counter itself.
      failOpen.unexpected(unexpected);
    }
    for (String objectKey : objectKeys) {
      try {
        counter.push(objectKey);
      } catch (StoreException failure) {
        failOpen.failed(failure);
        return false;
      } catch (RuntimeException unexpected) {
        // Not an outage but this key cannot be counted (e.g. a foreign non-numeric value):
        // its display-only sum is dropped rather than retried forever.
        failOpen.unexpected(unexpected);
      }
    }
    failOpen.succeeded();
    return true;
  }

  /** Stops the schedule and pushes what is left. */
  @Override
  public void close() {
    schedule.close();
    pushNow();
  }

  private Map<String, Long> lastKnown(Collection<String> objectKeys) {
    Map<String, Long> known = new LinkedHashMap<>();
    objectKeys.forEach(objectKey -> known.put(objectKey, counter.lastKnown(objectKey)));
    return known;
  }

  private long shown(long base, String objectKey) {
    return base < 0 ? -1 : base + ledger.unsent(objectKey);
  }
}
