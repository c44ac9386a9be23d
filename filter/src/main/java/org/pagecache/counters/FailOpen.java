package org.pagecache.counters;

import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.pagecache.internal.store.GuardedStore;
import org.pagecache.store.Store;
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
 *
 * <p>Behind a {@link GuardedStore} (the page cache's own store) the breaker and its log are the
 * store's: one breaker, one outage log; this class then only turns failures into fallbacks.
 */
final class FailOpen {
  static final Duration RETRY_AFTER = Duration.ofSeconds(1);
  private static final Logger LOG = LoggerFactory.getLogger(FailOpen.class);
  private static final Duration UNEXPECTED_LOG_EVERY = Duration.ofMinutes(1);

  /**
   * {@link System#nanoTime()} before which calls are skipped; 0 while memcached works. Real time,
   * not the application's clock: how long a reconnect takes is a matter of the network.
   */
  private final AtomicLong skipUntil = new AtomicLong();
  private final AtomicLong nextUnexpectedLog = new AtomicLong();

  /** Null when the store breaks the circuit and logs outages itself. */
  private final OutageLog outageOrNull;

  FailOpen(Store store, Clock clock) {
    this.outageOrNull = store instanceof GuardedStore ? null
        : new OutageLog(LOG, "memcached for counters (" + store.describe() + ")", clock);
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
    if (outageOrNull == null) {
      return true; // the guarded store fails at once while its own circuit is open
    }
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
      outageOrNull.succeeded();
    }
  }

  void failed(StoreException e) {
    if (outageOrNull == null) {
      return;
    }
    skipUntil.set(nonZero(System.nanoTime() + RETRY_AFTER.toNanos()));
    outageOrNull.failed("views and online show last known values until it is back", e);
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
