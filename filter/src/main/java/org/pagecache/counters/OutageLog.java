package org.pagecache.counters;

import java.time.Clock;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;

/**
 * Logs for operators: one line when a dependency goes away and one when it comes back, however
 * many requests fail in between (never a stack trace per request).
 */
final class OutageLog {
  private final Logger log;
  private final String what;
  private final Clock clock;
  /** Start of the current outage in epoch millis, 0 while the dependency works. */
  private final AtomicLong downSince = new AtomicLong();

  OutageLog(Logger log, String what, Clock clock) {
    this.log = log;
    this.what = what;
    this.clock = clock;
  }

  void failed(String consequence, Throwable cause) {
    long now = Math.max(1, clock.millis());
    if (downSince.compareAndSet(0, now)) {
      log.warn("{} unavailable ({}); {}", what, describe(cause), consequence);
    }
  }

  void succeeded() {
    long since = downSince.get();
    if (since != 0 && downSince.compareAndSet(since, 0)) {
      log.info("{} is back after {} ms", what, Math.max(0, clock.millis() - since));
    }
  }

  private static String describe(Throwable cause) {
    String message = cause.getMessage();
    return cause.getClass().getSimpleName() + (message == null ? "" : ": " + message);
  }
}
