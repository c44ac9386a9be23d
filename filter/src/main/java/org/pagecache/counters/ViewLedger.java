package org.pagecache.counters;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What this JVM still owes for each object's views, to each of the two places a view must reach
 * exactly once: memcached's live count ({@code unsent}) and the {@link CountSink}'s durable count
 * ({@code unflushed}). Keeping both in one entry per object, updated atomically, is what lets a
 * counter that memcached lost be rebuilt exactly: the sink's total (the {@link CountSource}
 * reads it) plus only the views that never reached the sink ({@link #rebase}).
 *
 * <p>A view is {@link #counted} into both at once. Sending to memcached takes the unsent views
 * and gives them back if the {@code incr} fails; the sink's part leaves only when the sink
 * confirms a batch ({@link #flushed}), so a batch in flight or refused is still owed.
 *
 * <p>Without a sink ({@code tracksSink} false) there is no durable count to rebuild from: only
 * the unsent part is kept and {@link #rebase} is never used.
 */
final class ViewLedger {
  /** One object's debts; an entry owing nothing is removed. */
  record Owed(long unsent, long unflushed) {
    boolean settled() {
      return unsent == 0 && unflushed == 0;
    }
  }

  /** What {@link #rebase} found: views the sink has not taken, and the unsent views it cleared. */
  record Rebase(long unflushed, long unsentBefore) {}

  private final ConcurrentHashMap<String, Owed> owed = new ConcurrentHashMap<>();
  private final boolean tracksSink;

  ViewLedger(boolean tracksSink) {
    this.tracksSink = tracksSink;
  }

  boolean tracksSink() {
    return tracksSink;
  }

  /** Views counted here: owed to memcached and, with a sink, to the sink. */
  void counted(String objectKey, long views) {
    change(objectKey, views, tracksSink ? views : 0);
  }

  /** Views counted here that memcached has not been given yet. */
  long unsent(String objectKey) {
    Owed o = owed.get(objectKey);
    return o == null ? 0 : o.unsent();
  }

  /** Objects with views memcached has not been given. */
  List<String> withUnsent() {
    return owed.entrySet().stream().filter(e -> e.getValue().unsent() > 0).map(Map.Entry::getKey).toList();
  }

  /** Takes every unsent view of the object, to send it; {@link #unsentBack} if sending fails. */
  long takeUnsent(String objectKey) {
    long[] taken = new long[1];
    owed.computeIfPresent(objectKey, (k, o) -> {
      taken[0] = o.unsent();
      return settledOrNull(new Owed(0, o.unflushed()));
    });
    return taken[0];
  }

  void unsentBack(String objectKey, long views) {
    change(objectKey, views, 0);
  }

  /**
   * The counter of this object is being created from the sink's total: it must also hold every
   * view the sink has not taken, and nothing more of ours. Clears the unsent views (they are in
   * the sink's total or among the unflushed) and says how many views the sink has not taken.
   * Call it while no flush is in flight, so "taken by the sink" is not in doubt.
   */
  Rebase rebase(String objectKey) {
    Rebase[] result = {new Rebase(0, 0)};
    owed.computeIfPresent(objectKey, (k, o) -> {
      result[0] = new Rebase(o.unflushed(), o.unsent());
      return settledOrNull(new Owed(0, o.unflushed()));
    });
    return result[0];
  }

  /** Every view the sink has not taken, per object. */
  Map<String, Long> unflushed() {
    Map<String, Long> snapshot = new HashMap<>();
    owed.forEach((k, o) -> {
      if (o.unflushed() > 0) {
        snapshot.put(k, o.unflushed());
      }
    });
    return snapshot;
  }

  /** The sink took (committed) exactly these views. */
  void flushed(Map<String, Long> taken) {
    taken.forEach((k, views) -> change(k, 0, -views));
  }

  long totalUnflushed() {
    return owed.values().stream().mapToLong(Owed::unflushed).sum();
  }

  long totalUnsent() {
    return owed.values().stream().mapToLong(Owed::unsent).sum();
  }

  private void change(String objectKey, long unsent, long unflushed) {
    owed.compute(objectKey, (k, o) -> o == null
        ? settledOrNull(new Owed(unsent, unflushed))
        : settledOrNull(new Owed(o.unsent() + unsent, o.unflushed() + unflushed)));
  }

  private static Owed settledOrNull(Owed o) {
    return o.settled() ? null : o;
  }
}
