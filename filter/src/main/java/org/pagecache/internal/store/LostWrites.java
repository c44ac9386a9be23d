package org.pagecache.internal.store;

import java.time.Clock;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pages built but not stored (memcached refused the write, timed out, or is down): counted, and
 * said in the log, so a page that the next request will build again is never lost silently. One
 * line for the first, then at most one line per {@link #LOG_EVERY_MILLIS} with the count since the
 * last line, so a memcached outage under load writes a few lines, not one per request. The line
 * names the handler and the kind of failure, never a key or a value.
 */
public final class LostWrites {
  private static final Logger log = LoggerFactory.getLogger(LostWrites.class);
  static final long LOG_EVERY_MILLIS = 10_000;

  private final Clock clock;
  private final LongAdder lost = new LongAdder();
  private final AtomicLong nextLogAt = new AtomicLong(Long.MIN_VALUE);
  private final AtomicLong sinceLastLine = new AtomicLong();

  public LostWrites(Clock clock) {
    this.clock = clock;
  }

  /** A page of {@code handler} that was not stored, and why ({@code null}: memcached said it did not store it). */
  public void lost(String handler, Exception why) {
    lost.increment();
    long unlogged = sinceLastLine.incrementAndGet();
    long now = clock.millis();
    long at = nextLogAt.get();
    if (now >= at && nextLogAt.compareAndSet(at, now + LOG_EVERY_MILLIS)) {
      sinceLastLine.addAndGet(-unlogged);
      log.warn("pagecache: {} page(s) built but not stored (last: handler '{}', {}); the next request builds them again",
          unlogged, handler, reason(why));
    }
  }

  /** Why, without the store's message: it names the key. */
  private static String reason(Exception why) {
    if (why == null) {
      return "memcached did not store it";
    }
    String message = String.valueOf(why.getMessage());
    return message.contains("timed out") ? "the write timed out"
        : message.contains("down") || message.contains("unavailable") ? "memcached is down or unavailable"
        : why.getClass().getSimpleName();
  }

  /** Pages built but not stored since start. */
  public long count() {
    return lost.sum();
  }
}
