package org.pagecache.counters;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Every view is one memcached {@code incr}: exact across frontends at any moment. A view that
 * memcached does not take stays unsent and goes with the next view of the same object, or at
 * {@link #close()}.
 */
record DirectViews(ViewCounter counter, FailOpen failOpen, ViewLedger ledger) implements ViewMode {

  @Override
  public long viewed(String objectKey) {
    return failOpen.callLong(() -> counter.push(objectKey), () -> offline(counter, objectKey));
  }

  @Override
  public long views(String objectKey) {
    return failOpen.callLong(() -> counter.current(objectKey) + counter.unsent(objectKey),
        () -> offline(counter, objectKey));
  }

  @Override
  public Map<String, Long> views(Collection<String> objectKeys) {
    return failOpen.call(() -> withUnsent(counter, counter.current(objectKeys)),
        () -> offline(counter, objectKeys));
  }

  /** Sends what memcached refused before; true when nothing is left unsent. */
  @Override
  public boolean pushNow() {
    for (String objectKey : ledger.withUnsent()) {
      boolean sent = failOpen.call(() -> {
        counter.push(objectKey);
        return true;
      }, () -> false);
      if (!sent) {
        return false;
      }
    }
    return true;
  }

  /** A normal shutdown leaves nothing unsent unless memcached refuses this last push. */
  @Override
  public void close() {
    pushNow();
  }

  /**
   * What to show while memcached is away: the last count this JVM saw plus its own views since,
   * which the count will have when memcached is back; -1 when it never saw one.
   */
  static long offline(ViewCounter counter, String objectKey) {
    long known = counter.lastKnown(objectKey);
    return known < 0 ? -1 : known + counter.unsent(objectKey);
  }

  static Map<String, Long> offline(ViewCounter counter, Collection<String> objectKeys) {
    Map<String, Long> known = new LinkedHashMap<>();
    for (String objectKey : objectKeys) {
      known.put(objectKey, offline(counter, objectKey));
    }
    return known;
  }

  static Map<String, Long> withUnsent(ViewCounter counter, Map<String, Long> counts) {
    Map<String, Long> shown = new LinkedHashMap<>();
    counts.forEach((objectKey, count) -> shown.put(objectKey, count + counter.unsent(objectKey)));
    return shown;
  }
}
