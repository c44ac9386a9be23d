package org.pagecache.counters;

import java.time.Clock;
import java.time.Duration;
import java.util.Collections;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes counted views durable: they are summed per object in this JVM and handed to the
 * {@link CountSink} once per interval, so the database gets one write per object per interval
 * instead of one per view (the article's "accumulate, then update the database periodically").
 * It counts independently of memcached: views counted while memcached is down still arrive.
 *
 * <p>Delivery is at least once. A flush takes everything pending as a batch with an id of its
 * own; a sink that throws gets that same batch, under the same id, again next interval, and the
 * views counted meanwhile follow as the next batch. Views are counted twice only if the sink
 * wrote something and still threw: partly (no transaction), or wholly with the answer lost (a
 * sink that records batch ids can tell; see {@link CountSink}).
 *
 * <p><b>What a JVM that dies loses:</b> everything not yet taken by the sink: the views counted
 * since its last successful flush, which is at most one interval's worth while the sink works,
 * and everything since the sink began failing while it fails. {@link #close()} flushes once more,
 * so a normal shutdown loses nothing unless that last flush fails. Views are never lost to a
 * memcached failure.
 *
 * <p>What is pending lives in the {@link ViewLedger} it shares with the memcached side: views
 * leave it only when the sink confirms them, and {@link #whileNoFlushInFlight} lets a counter be
 * rebuilt from the sink's total at a moment when that total is certain.
 */
final class ViewFlusher implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ViewFlusher.class);

  /** A batch the sink has not yet taken: offered again, unchanged, until it is. */
  private record Batch(String id, Map<String, Long> increments) {}

  private final CountSink sink;
  private final ViewLedger ledger;
  private final OutageLog outage;
  private final Periodic schedule;
  /** Unique to this flusher, so batch ids never repeat across JVMs or restarts. */
  private final String idPrefix = UUID.randomUUID().toString();
  private long sequence;
  private Batch unconfirmed;

  /** With {@link CountSink#NONE}, nothing is recorded and no thread is started. */
  ViewFlusher(CountSink sink, Duration interval, Clock clock) {
    this(sink, interval, clock, new ViewLedger(sink != CountSink.NONE));
  }

  /** Flushes the views {@code ledger} owes the sink (it tracks them when the sink is not NONE). */
  ViewFlusher(CountSink sink, Duration interval, Clock clock, ViewLedger ledger) {
    this.sink = sink;
    this.ledger = ledger;
    this.outage = new OutageLog(LOG, "the CountSink of view counters", clock);
    this.schedule = sink == CountSink.NONE ? null
        : new Periodic("pagecache-counters-flush", interval, this::flushNow);
  }

  /** Counts views (for tests of the flusher alone; the counters count into the shared ledger). */
  void record(String objectKey, long views) {
    if (schedule != null) {
      ledger.counted(objectKey, views);
    }
  }

  /**
   * Offers the unconfirmed batch again, if any, then everything pending as a new batch; true
   * when the sink took all of it (or nothing was pending).
   */
  synchronized boolean flushNow() {
    if (unconfirmed != null && !offer(unconfirmed)) {
      return false;
    }
    // Nothing is unconfirmed here, so everything the ledger still owes the sink is new.
    Map<String, Long> taken = ledger.unflushed();
    if (taken.isEmpty()) {
      return true;
    }
    unconfirmed = new Batch(idPrefix + "-" + ++sequence, Collections.unmodifiableMap(taken));
    return offer(unconfirmed);
  }

  /**
   * Runs {@code action} while no batch is with the sink, so every view is either in the sink's
   * total or still owed to it, never in doubt: the moment to read the {@link CountSource} for a
   * counter that will also get the views still owed. A flush in progress is waited for.
   */
  synchronized <T> T whileNoFlushInFlight(Supplier<T> action) {
    return action.get();
  }

  private boolean offer(Batch batch) {
    try {
      sink.flush(batch.id(), batch.increments());
    } catch (Exception e) {
      outage.failed(batch.increments().size()
          + " objects' views kept and offered again, as the same batch, next interval", e);
      return false;
    }
    // Exactly what was taken leaves the ledger: views counted since then stay owed.
    ledger.flushed(batch.increments());
    unconfirmed = null;
    outage.succeeded();
    return true;
  }

  /** Views counted and not yet taken by the sink. */
  synchronized long pendingViews() {
    return ledger.totalUnflushed();
  }

  /** Stops the schedule, then flushes once more. */
  @Override
  public void close() {
    if (schedule != null) {
      schedule.close();
      flushNow();
    }
  }
}
