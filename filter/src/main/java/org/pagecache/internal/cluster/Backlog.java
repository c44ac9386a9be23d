package org.pagecache.internal.cluster;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The invalidations one cluster has not received yet that this cluster's memcached could not keep
 * ({@link SharedBacklog}), oldest first, held in this JVM's memory and
 * bounded: the latest per key only (a second refresh of a handler replaces the first), and at
 * most {@code limit} keys. When full, a new key is refused (the caller says so): dropping an
 * older one instead would hide which invalidation was lost.
 */
final class Backlog {
  private final int limit;
  private final Map<String, Invalidation> pending = new LinkedHashMap<>();
  private final Map<String, Long> since = new LinkedHashMap<>();

  Backlog(int limit) {
    this.limit = limit;
  }

  /** Queues it (merged with one of the same key); false when full and it was not queued. */
  synchronized boolean offer(Invalidation inv, long nowMillis) {
    Invalidation queued = pending.get(inv.target());
    if (queued != null) {
      pending.put(inv.target(), queued.merge(inv));
      return true;
    }
    if (pending.size() >= limit) {
      return false;
    }
    pending.put(inv.target(), inv);
    since.put(inv.target(), nowMillis);
    return true;
  }

  /** What is waiting, oldest first (a copy). */
  synchronized List<Invalidation> snapshot() {
    return new ArrayList<>(pending.values());
  }

  /** Removes a delivered invalidation, unless a later one of the same key arrived meanwhile. */
  synchronized void delivered(Invalidation inv) {
    if (pending.remove(inv.target(), inv)) {
      since.remove(inv.target());
    }
  }

  synchronized int size() {
    return pending.size();
  }

  synchronized boolean isEmpty() {
    return pending.isEmpty();
  }

  /** When the oldest waiting invalidation was queued; 0 when none waits. */
  synchronized long oldestMillis() {
    return since.isEmpty() ? 0 : since.values().iterator().next();
  }

  int limit() {
    return limit;
  }
}
