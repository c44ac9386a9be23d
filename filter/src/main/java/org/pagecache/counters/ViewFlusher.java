package org.pagecache.counters;

import java.time.Clock;
import java.time.Duration;
import java.util.Collections;
import java.util.Map;
import java.util.UUID;
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
 */
final class ViewFlusher implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ViewFlusher.class);

  /** A batch the sink has not yet taken: offered again, unchanged, until it is. */
  private record Batch(String id, Map<String, Long> increments) {}

  private final CountSink sink;
  private final PendingCounts pending = new PendingCounts();
  private final OutageLog outage;
  private final Periodic schedule;
  /** Unique to this flusher, so batch ids never repeat across JVMs or restarts. */
  private final String idPrefix = UUID.randomUUID().toString();
  private long sequence;
  private Batch unconfirmed;

  /** With {@link CountSink#NONE}, nothing is recorded and no thread is started. */
  ViewFlusher(CountSink sink, Duration interval, Clock clock) {
    this.sink = sink;
    this.outage = new OutageLog(LOG, "the CountSink of view counters", clock);
    this.schedule = sink == CountSink.NONE ? null
        : new Periodic("pagecache-counters-flush", interval, this::flushNow);
  }

  void record(String objectKey, long views) {
    if (schedule != null) {
      pending.add(objectKey, views);
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
    if (pending.isEmpty()) {
      return true;
    }
    Map<String, Long> taken = pending.snapshot();
    unconfirmed = new Batch(idPrefix + "-" + ++sequence, Collections.unmodifiableMap(taken));
    // Exactly what was taken: views counted since the snapshot stay pending.
    pending.subtract(taken);
    return offer(unconfirmed);
  }

  private boolean offer(Batch batch) {
    try {
      sink.flush(batch.id(), batch.increments());
    } catch (Exception e) {
      outage.failed(batch.increments().size()
          + " objects' views kept and offered again, as the same batch, next interval", e);
      return false;
    }
    unconfirmed = null;
    outage.succeeded();
    return true;
  }

  /** Views counted and not yet taken by the sink. */
  synchronized long pendingViews() {
    long inBatch = unconfirmed == null ? 0
        : unconfirmed.increments().values().stream().mapToLong(Long::longValue).sum();
    return pending.total() + inBatch;
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
