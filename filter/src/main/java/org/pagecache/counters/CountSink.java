package org.pagecache.counters;

import java.util.Map;
import java.util.Objects;
import java.util.UUID;

/**
 * Receives the views counted since the last successful flush, once per flush interval, so the
 * database is written once per interval instead of once per view (the article's "accumulate and
 * update the counter in the database periodically").
 *
 * <pre>{@code
 * CountSink sink = increments -> jdbc.batchUpdate("UPDATE article SET views = views + ? WHERE id = ?", increments);
 * }</pre>
 *
 * <p><b>Delivery is at least once.</b> When {@code flush} throws, the same batch (same
 * increments, same id) is offered again next interval, before any views counted meanwhile, which
 * follow as a new batch. Nothing is counted twice only if a call that throws has written nothing:
 * apply the whole map in one transaction. The one case that transaction cannot cover is a commit
 * that succeeded while the call still failed (the connection broke before the answer): the retry
 * then adds the batch a second time. To rule that out too, take the batch id with
 * {@link #withBatchIds} and record it in the same transaction:
 *
 * <pre>{@code
 * CountSink sink = CountSink.withBatchIds((batchId, increments) -> db.inTransaction(tx -> {
 *   if (tx.update("INSERT INTO applied_view_batch (id) VALUES (?) ON CONFLICT DO NOTHING", batchId) == 0) {
 *     return; // applied before: only the answer was lost
 *   }
 *   tx.batchUpdate("UPDATE article SET views = views + ? WHERE id = ?", increments);
 * }));
 * }</pre>
 */
@FunctionalInterface
public interface CountSink {
  /** For applications that keep no durable count: increments are dropped. */
  CountSink NONE = increments -> {};

  /**
   * Adds each value (1 or more) to the durable count of its object key.
   *
   * @throws Exception when the increments could not be applied: the same batch is offered again
   *     next interval, so apply all of it or nothing
   */
  void flush(Map<String, Long> increments) throws Exception;

  /**
   * What the counters call. {@code batchId} (at most 64 ASCII characters) names these increments:
   * a retry offers them again under the same id, and no other batch, from any JVM, has it. This
   * default ignores the id.
   */
  default void flush(String batchId, Map<String, Long> increments) throws Exception {
    flush(increments);
  }

  /** A sink that is told each batch's id, so it can recognise a batch it already applied. */
  static CountSink withBatchIds(Batches sink) {
    Objects.requireNonNull(sink, "sink");
    return new CountSink() {
      @Override
      public void flush(Map<String, Long> increments) throws Exception {
        sink.flush(UUID.randomUUID().toString(), increments); // called directly: a one-off batch
      }

      @Override
      public void flush(String batchId, Map<String, Long> increments) throws Exception {
        sink.flush(batchId, increments);
      }
    };
  }

  /** The shape of a sink that uses batch ids; see {@link #withBatchIds}. */
  @FunctionalInterface
  interface Batches {
    /**
     * Adds each value (1 or more) to the durable count of its object key, as
     * {@link CountSink#flush(Map)} does. {@code batchId} is the same when these increments are
     * offered again after a failure, so a batch already applied can be skipped.
     *
     * @throws Exception when the increments could not be applied: the same batch is offered again
     *     next interval
     */
    void flush(String batchId, Map<String, Long> increments) throws Exception;
  }
}
