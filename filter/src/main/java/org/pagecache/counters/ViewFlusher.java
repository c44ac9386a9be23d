package org.pagecache.counters;

import java.time.Clock;
import java.time.Duration;
import java.util.Collections;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes counted views durable: they are summed per object in this JVM and handed to the
 * {@link CountSink} once per interval, so the database gets one write per object per interval
 * instead of one per view (the article's "accumulate, then update the database periodically").
 * It counts independently of memcached: views counted while memcached is down still arrive.
 *
 * <p>Delivery is at least once, without double counting: a delivery subtracts exactly what it
 * delivered, so views counted during a flush wait for the next one, and a sink that throws gets
 * the same views again next interval, plus the new ones, summed.
 *
 * <p><b>What a JVM that dies loses:</b> the views it counted since its last successful flush (at
 * most one interval's worth, more if the sink was failing). {@link #close()} flushes once more,
 * so a normal shutdown loses nothing unless that last flush fails. Views are never lost to a
 * memcached failure, and never written twice unless the sink throws after committing.
 */
final class ViewFlusher implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ViewFlusher.class);

  private final CountSink sink;
  private final PendingCounts pending = new PendingCounts();
  private final OutageLog outage;
  private final Periodic schedule;

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

  /** Hands everything pending to the sink; true when it was taken (or nothing was pending). */
  synchronized boolean flushNow() {
    if (pending.isEmpty()) {
      return true;
    }
    Map<String, Long> batch = pending.snapshot();
    try {
      sink.flush(Collections.unmodifiableMap(batch));
    } catch (Exception e) {
      outage.failed(batch.size() + " objects' views kept and offered again next interval", e);
      return false;
    }
    pending.subtract(batch);
    outage.succeeded();
    return true;
  }

  /** Views counted and not yet taken by the sink. */
  long pendingViews() {
    return pending.total();
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
