package org.pagecache.counters;

import java.util.Collection;
import java.util.Map;

/**
 * How counted views reach memcached, chosen by one setting
 * ({@link CountersSettings#localAggregation()}): {@link DirectViews}, one {@code incr} per view,
 * or {@link LocalAggregation}, summed per JVM and sent once per object per interval. Both fail
 * open: they answer with the last known count (or -1) when memcached does not.
 */
interface ViewMode extends AutoCloseable {
  /** Counts one view; returns the count to display. */
  long viewed(String objectKey);

  long views(String objectKey);

  Map<String, Long> views(Collection<String> objectKeys);

  /** Sends the views memcached has not been given yet; true when none is left. */
  boolean pushNow();

  @Override
  default void close() {}

  static ViewMode of(CountersSettings settings, ViewCounter counter, FailOpen failOpen, ViewLedger ledger) {
    return settings.localAggregationEnabled()
        ? new LocalAggregation(counter, failOpen, ledger, settings.localAggregation())
        : new DirectViews(counter, failOpen, ledger);
  }
}
