package org.pagecache.counters;

import java.util.Map;

/**
 * Receives the views counted since the last successful flush, once per flush interval, so the
 * database is written once per interval instead of once per view (the article's "accumulate and
 * update the counter in the database periodically").
 *
 * <pre>{@code
 * CountSink sink = increments -> jdbc.batchUpdate("UPDATE article SET views = views + ? WHERE id = ?", increments);
 * }</pre>
 *
 * <p>Delivery is at least once: when {@code flush} throws, the same increments (plus those counted
 * meanwhile) are offered again next interval. Apply the whole map in one transaction, so a call
 * that throws has written nothing; then nothing is ever counted twice.
 */
@FunctionalInterface
public interface CountSink {
  /** For applications that keep no durable count: increments are dropped. */
  CountSink NONE = increments -> {};

  /** Adds each value (1 or more) to the durable count of its object key. */
  void flush(Map<String, Long> increments) throws Exception;
}
