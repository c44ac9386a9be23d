package org.pagecache.internal.nodes;

import java.time.Clock;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The circuit breaker of one memcached node, so that a node that hangs or refuses is judged on its
 * own: after {@value #OPENS_AFTER} failures in a row it is down, calls skip it at once, and every
 * {@code retryMillis} one caller tries to bring it back through {@code rejoin} (which may empty the
 * node first, see {@link ClusterStore}). One line is logged when the node goes, one when it is back.
 */
final class NodeHealth {
  private static final Logger log = LoggerFactory.getLogger(ClusterStore.class);

  /** Failures in a row that take a node down: one timeout is not an outage. */
  static final int OPENS_AFTER = 3;

  private final String name;
  private final Clock clock;
  private final long retryMillis;
  private final BooleanSupplier rejoin;
  private final String whileDown;
  private final AtomicInteger failuresInARow = new AtomicInteger();
  private final AtomicLong downUntil = new AtomicLong();
  /** Flipped by compare-and-set, so each outage and each return is logged once. */
  private final AtomicBoolean down = new AtomicBoolean();
  private final AtomicLong outages = new AtomicLong();

  /**
   * @param rejoin brings the node back into use; false (or a StoreException) keeps it down
   * @param whileDown what happens to the node's keys meanwhile, for the log line
   */
  NodeHealth(String name, Clock clock, long retryMillis, BooleanSupplier rejoin, String whileDown) {
    this.name = name;
    this.clock = clock;
    this.retryMillis = retryMillis;
    this.rejoin = rejoin;
    this.whileDown = whileDown;
  }

  /**
   * True when a call may go to the node: it is up, or it is down, its retry time has come, this
   * caller won the probe and the node rejoined.
   */
  boolean admits() {
    if (!down.get()) {
      return true;
    }
    long until = downUntil.get();
    long now = clock.millis();
    if (now < until || !downUntil.compareAndSet(until, now + retryMillis)) {
      return false;
    }
    boolean back;
    try {
      back = rejoin.getAsBoolean();
    } catch (RuntimeException e) {
      back = false;
    }
    if (!back) {
      downUntil.set(clock.millis() + retryMillis);
      return false;
    }
    failuresInARow.set(0);
    if (down.compareAndSet(true, false)) {
      log.info("pagecache: memcached {} is back; its keys are served by it again", name);
    }
    return true;
  }

  void succeeded() {
    if (failuresInARow.get() != 0) { // read first: no write, so no contention, on the usual path
      failuresInARow.set(0);
    }
  }

  void failed(String cause) {
    if (down.get() || failuresInARow.incrementAndGet() < OPENS_AFTER) {
      return;
    }
    downUntil.set(clock.millis() + retryMillis);
    if (down.compareAndSet(false, true)) { // many threads fail at once; one of them says so
      outages.incrementAndGet();
      log.warn("pagecache: memcached {} is down ({}); {} until it is back", name, cause, whileDown);
    }
  }

  /**
   * Takes the node down at once: it missed a write of control data, so it must be emptied before
   * anyone reads it again.
   */
  void forceDown(String cause) {
    downUntil.set(clock.millis() + retryMillis);
    if (down.compareAndSet(false, true)) {
      outages.incrementAndGet();
      log.warn("pagecache: memcached {} is down ({}); {} until it is back", name, cause, whileDown);
    }
  }

  boolean isDown() {
    return down.get();
  }

  long outages() {
    return outages.get();
  }

  String name() {
    return name;
  }
}
