package org.pagecache.counters;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Views counted here and not yet handed on (to the database or to memcached), per object key.
 * Handing on is "take a snapshot, deliver it, then subtract exactly the snapshot": views counted
 * while a delivery is in flight stay behind for the next one, and a failed delivery subtracts
 * nothing, so it is simply retried with whatever came in meanwhile.
 *
 * <p>Each key's total is updated with the map's atomic {@code merge}, and a key that reaches
 * zero is removed inside {@code computeIfPresent}. A {@code LongAdder} per key would spread a
 * hot key over cells, but it cannot be removed from the map without racing a concurrent
 * increment into the removed adder (a lost view); the per-key lock of {@code merge} is held for
 * nanoseconds, far less than the network round trip this class exists to save.
 */
final class PendingCounts {
  private final ConcurrentHashMap<String, Long> pending = new ConcurrentHashMap<>();

  void add(String objectKey, long views) {
    pending.merge(objectKey, views, Long::sum);
  }

  long get(String objectKey) {
    return pending.getOrDefault(objectKey, 0L);
  }

  /** Each key's total at the moment it was read; keys being incremented meanwhile may be ahead. */
  Map<String, Long> snapshot() {
    return new HashMap<>(pending);
  }

  void subtract(String objectKey, long delivered) {
    pending.computeIfPresent(objectKey, (k, total) -> total == delivered ? null : total - delivered);
  }

  void subtract(Map<String, Long> delivered) {
    delivered.forEach(this::subtract);
  }

  boolean isEmpty() {
    return pending.isEmpty();
  }

  /** The sum of all pending views (for tests and logs). */
  long total() {
    return pending.values().stream().mapToLong(Long::longValue).sum();
  }
}
