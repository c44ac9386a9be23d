package org.pagecache.counters;

import java.time.Clock;
import java.time.Duration;

/**
 * The online count as pages show it: asked of memcached at most once per {@code cacheFor} per JVM
 * (one multi-get a second, not one per request), and the last known count (or -1) while
 * memcached does not answer.
 */
final class OnlineDisplay {
  private record Snapshot(long value, long atMillis) {}

  private final OnlineCounter counter;
  private final FailOpen failOpen;
  private final Clock clock;
  private final long cacheForMillis;
  private volatile Snapshot last;

  OnlineDisplay(OnlineCounter counter, FailOpen failOpen, Clock clock, Duration cacheFor) {
    this.counter = counter;
    this.failOpen = failOpen;
    this.clock = clock;
    this.cacheForMillis = cacheFor.toMillis();
  }

  long get() {
    Snapshot s = last;
    if (fresh(s)) {
      return s.value;
    }
    // One thread asks memcached; the others wait the microseconds that takes and reuse it.
    synchronized (this) {
      s = last;
      if (fresh(s)) {
        return s.value;
      }
      long known = s == null ? -1 : s.value;
      long value = failOpen.callLong(counter::count, () -> known);
      last = new Snapshot(value, clock.millis());
      return value;
    }
  }

  private boolean fresh(Snapshot s) {
    return s != null && clock.millis() - s.atMillis < cacheForMillis;
  }
}
