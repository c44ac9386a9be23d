package org.pagecache.internal.nodes;

import java.time.Clock;
import java.util.concurrent.atomic.AtomicLong;
import org.pagecache.store.StoreException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Failures that are no outage (a bug in the client or in PageCache, e.g. a NullPointerException
 * inside a multi-get): logged with their stack trace, at most once a minute, so a real bug shows
 * without flooding the log. Timeouts and lost connections are the breakers' business, not this.
 */
final class UnexpectedErrors {
  private static final Logger log = LoggerFactory.getLogger(ClusterStore.class);
  static final long INTERVAL_MILLIS = 60_000;

  private final Clock clock;
  private final AtomicLong nextLogAt = new AtomicLong(Long.MIN_VALUE);

  UnexpectedErrors(Clock clock) {
    this.clock = clock;
  }

  /** True for a failure whose cause is a runtime exception: nothing an outage explains. */
  static boolean unexpected(StoreException e) {
    return e.getCause() instanceof RuntimeException;
  }

  void maybeLog(String node, StoreException e) {
    long now = clock.millis();
    long next = nextLogAt.get();
    if (now >= next && nextLogAt.compareAndSet(next, now + INTERVAL_MILLIS)) {
      log.error("pagecache: unexpected failure on memcached {} (logged at most once a minute)", node, e);
    }
  }
}
