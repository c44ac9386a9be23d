package org.pagecache.counters;

import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.pagecache.store.StoreException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs counter calls so that a failing memcached never reaches the page: the caller gets a
 * fallback (the last known value) instead of an exception.
 *
 * <p>It is also a small circuit breaker. After a failure, calls are skipped for
 * {@link #RETRY_AFTER} and then one call probes again: a hung memcached would otherwise cost every
 * request an op timeout per counter (xmemcached drops a connection only after 1000 consecutive
 * timeouts), and a counter is never worth slowing a page down. Operators get one log line when
 * memcached goes away and one when it is back.
 */
final class FailOpen {
  static final Duration RETRY_AFTER = Duration.ofSeconds(1);
  private static final Logger LOG = LoggerFactory.getLogger(FailOpen.class);
  private static final Duration UNEXPECTED_LOG_EVERY = Duration.ofMinutes(1);

  private final OutageLog outage;
  /**
   * {@link System#nanoTime()} before which calls are skipped; 0 while memcached works. Real time,
   * not the application's clock: how long a reconnect takes is a matter of the network.
   */
  private final AtomicLong skipUntil = new AtomicLong();
  private final AtomicLong nextUnexpectedLog = new AtomicLong();

  FailOpen(String storeName, Clock clock) {
    this.outage = new OutageLog(LOG, "memcached for counters (" + storeName + ")", clock);
  }

  long callLong(LongSupplier op, LongSupplier fallback) {
    return call(op::getAsLong, fallback::getAsLong);
  }

  void run(Runnable op) {
    call(() -> {
      op.run();
      return null;
    }, () -> null);
  }

  <T> T call(Supplier<T> op, Supplier<T> fallback) {
    if (!allows()) {
      return fallback.get();
    }
    try {
      T result = op.get();
      succeeded();
      return result;
    } catch (StoreException e) {
      failed(e);
      return fallback.get();
    } catch (RuntimeException e) {
      // Not an outage (e.g. a non-numeric value under a counter key): no breaker, but the page
      // still must not fail because of a counter.
      unexpected(e);
      return fallback.get();
    }
  }

  /** True when a call may go to memcached: it works, or it is time for one probe. */
  boolean allows() {
    long until = skipUntil.get();
    if (until == 0) {
      return true;
    }
    long now = System.nanoTime();
    // Only the caller that moves the deadline probes; the others keep skipping.
    return now - until >= 0 && skipUntil.compareAndSet(until, nonZero(now + RETRY_AFTER.toNanos()));
  }

  void succeeded() {
    if (skipUntil.get() != 0) {
      skipUntil.set(0);
      outage.succeeded();
    }
  }

  void failed(StoreException e) {
    skipUntil.set(nonZero(System.nanoTime() + RETRY_AFTER.toNanos()));
    outage.failed("views and online show last known values until it is back", e);
  }

  void unexpected(RuntimeException e) {
    long now = System.nanoTime();
    long next = nextUnexpectedLog.get();
    if ((next == 0 || now - next >= 0)
        && nextUnexpectedLog.compareAndSet(next, nonZero(now + UNEXPECTED_LOG_EVERY.toNanos()))) {
      LOG.warn("counter call failed; showing the last known value (logged at most once a minute)", e);
    }
  }

  /** nanoTime may be 0 or negative; 0 is reserved for "no deadline". */
  private static long nonZero(long nanos) {
    return nanos == 0 ? 1 : nanos;
  }
}
