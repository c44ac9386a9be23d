package org.pagecache.internal.freshness;

import java.time.Clock;
import java.util.concurrent.ThreadLocalRandom;
import org.pagecache.internal.text.StoredNumbers;
import org.pagecache.store.Store;

/**
 * A monotonic version in memcached: a time in milliseconds that only moves forward. Raising it is
 * compare-and-set, not get-then-set, so two editors refreshing at once never cancel each other:
 * each write is at least the previous value plus one.
 */
public final class Versions {
  private static final int MAX_ATTEMPTS = 50;

  private Versions() {}

  /** Moves the version at {@code key} to max(now, previous + 1) and returns the new value. */
  static long raise(Store store, String key, Clock clock, int ttlSeconds) {
    for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      Store.Versioned current = store.gets(key);
      long now = clock.millis();
      if (current == null) {
        if (store.add(key, encode(now), ttlSeconds)) {
          return now;
        }
        continue; // someone created it meanwhile: go round and raise theirs
      }
      long next = Math.max(now, parse(current.value()) + 1);
      if (store.cas(key, encode(next), current.casUnique(), ttlSeconds)) {
        return next;
      }
      backOff(attempt); // another writer won this round; spread the retries so one of us wins the next
    }
    throw new IllegalStateException("could not raise " + key + " after " + MAX_ATTEMPTS + " attempts");
  }

  /**
   * Makes the version at {@code key} at least {@code floor}: re-adds it when memcached lost it,
   * raises it when a node came back holding an older one, leaves a newer one alone.
   */
  public static void atLeast(Store store, String key, long floor, int ttlSeconds) {
    for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      Store.Versioned current = store.gets(key);
      if (current == null) {
        if (store.add(key, encode(floor), ttlSeconds)) {
          return;
        }
        continue;
      }
      if (parse(current.value()) >= floor
          || store.cas(key, encode(floor), current.casUnique(), ttlSeconds)) {
        return;
      }
    }
  }

  /**
   * Moves the version at {@code key} to max(floor, previous + 1): what another cluster's refresh
   * or invalidation writes here (issue 19). Always past the previous value, so every page built
   * here before it arrived is condemned whatever the two clusters' clocks say; never below the
   * originating cluster's value, so a later version there stays later here.
   *
   * @return the value written
   */
  public static long raisePast(Store store, String key, long floor, int ttlSeconds) {
    for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      Store.Versioned current = store.gets(key);
      if (current == null) {
        if (store.add(key, encode(floor), ttlSeconds)) {
          return floor;
        }
        continue;
      }
      long next = Math.max(floor, parse(current.value()) + 1);
      if (store.cas(key, encode(next), current.casUnique(), ttlSeconds)) {
        return next;
      }
      backOff(attempt);
    }
    throw new IllegalStateException("could not raise " + key + " after " + MAX_ATTEMPTS + " attempts");
  }

  /** A jittered pause that grows with the attempts (at most ~10 ms): refreshes are editor actions, not the hot path. */
  private static void backOff(int attempt) {
    try {
      Thread.sleep(ThreadLocalRandom.current().nextInt(1 + Math.min(attempt, 10)));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while raising a version", e);
    }
  }

  public static byte[] encode(long value) {
    return StoredNumbers.encode(value);
  }

  /** A stored version; garbage reads as 0 (the safe side: the JVM's memory still applies). */
  public static long parse(byte[] value) {
    return StoredNumbers.parse(value);
  }
}
