package org.pagecache.internal.cluster;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.UnaryOperator;
import org.pagecache.store.Store;

/**
 * The invalidations another cluster has not received yet, kept in THIS cluster's memcached (issue
 * 37), so that any frontend of this cluster delivers them, whichever took them and whether or not
 * it still runs. One value per other cluster ({@code ns:b:cluster}): a header (a version that
 * grows with each write, and the index's generation, drawn when it is created) and one line per
 * invalidation, the latest per handler, tag or page, oldest first. It is a control key: written on
 * every node of this cluster like update tokens (the version leads, so replicas merge by taking the
 * largest and a write is compare-and-set on each node), so one lost node loses nothing.
 *
 * <p>Bounded, and never silently lost: when it would hold more than {@code limit} invalidations (or
 * {@link #MAX_BYTES}), or when a frontend finds the index it knew gone (evicted, every node lost)
 * or replaced (another generation), what was or may have been in it becomes one {@link
 * Invalidation.Kind#EMPTY}: the other cluster is emptied once, which covers them all.
 */
final class SharedBacklog {
  /** Under memcached's default item size (1 MB), with room to spare: about 6,000 evictions. */
  static final int MAX_BYTES = 512 * 1024;
  private static final int MAX_ATTEMPTS = 50;

  /** One waiting invalidation and when it was first queued. */
  record Entry(Invalidation inv, long queuedAtMillis) {}

  /** What a change of the index found and did. */
  record Change(boolean indexLost, int collapsed, boolean emptyingAdded) {
    static final Change NONE = new Change(false, 0, false);
  }

  private record Index(long version, long gen, List<Entry> entries) {
    static Index parse(byte[] bytes) {
      String[] lines = new String(bytes, StandardCharsets.US_ASCII).split("\n");
      String[] head = lines[0].trim().split(" ");
      List<Entry> entries = new ArrayList<>();
      for (int i = 1; i < lines.length; i++) {
        if (lines[i].isEmpty()) {
          continue;
        }
        String[] f = lines[i].split(" ", 4);
        entries.add(new Entry(new Invalidation(Invalidation.Kind.of(f[0].charAt(0)), f[3], Long.parseLong(f[1])),
            Long.parseLong(f[2])));
      }
      return new Index(Long.parseLong(head[0]), Long.parseLong(head[1]), entries);
    }

    byte[] encode() {
      StringBuilder b = new StringBuilder().append(version).append(' ').append(gen).append('\n');
      for (Entry e : entries) {
        b.append(e.inv().kind().letter).append(' ').append(e.inv().version()).append(' ').append(e.queuedAtMillis())
            .append(' ').append(e.inv().key()).append('\n');
      }
      return b.toString().getBytes(StandardCharsets.US_ASCII);
    }
  }

  private final Store local;
  private final String key;
  private final int limit;
  /** What this JVM last saw of the index (read or written): a later read that finds less is a loss. */
  private record Known(long gen, boolean nonEmpty) {}

  private volatile Known known = new Known(0, false);
  private volatile List<Entry> lastSeen = List.of();

  SharedBacklog(Store local, String key, int limit) {
    this.local = local;
    this.key = key;
    this.limit = limit;
  }

  /**
   * Queues it (merged with a waiting one of the same target).
   *
   * @throws org.pagecache.store.StoreException when this cluster's memcached cannot be written
   */
  Change add(Invalidation inv, long nowMillis) {
    return update(nowMillis, entries -> {
      List<Entry> next = new ArrayList<>(entries);
      for (int i = 0; i < next.size(); i++) {
        Entry e = next.get(i);
        if (e.inv().sameTarget(inv)) {
          next.set(i, new Entry(e.inv().merge(inv), e.queuedAtMillis()));
          return next;
        }
      }
      next.add(new Entry(inv, nowMillis));
      return next;
    });
  }

  /**
   * Reads what waits, and puts an emptying in the place of an index found lost.
   *
   * @throws org.pagecache.store.StoreException when this cluster's memcached cannot be read
   */
  List<Entry> read(long nowMillis, java.util.function.Consumer<Change> onLoss) {
    Known before = known; // taken before the read: a write of this JVM's that lands meanwhile is no loss
    Store.Versioned current = local.gets(key);
    Index index = current == null ? null : parseOrNull(current.value());
    if (isLost(before, current, index)) {
      onLoss.accept(update(nowMillis, UnaryOperator.identity()));
      return lastSeen;
    }
    remember(index);
    return lastSeen;
  }

  /** Removes what was delivered: the same target, at most the delivered version (a later one stays). */
  void remove(List<Invalidation> delivered, long nowMillis) {
    if (delivered.isEmpty()) {
      return;
    }
    update(nowMillis, entries -> {
      List<Entry> next = new ArrayList<>(entries);
      next.removeIf(e -> delivered.stream().anyMatch(d -> d.sameTarget(e.inv()) && e.inv().version() <= d.version()));
      return next;
    });
  }

  /** Waiting invalidations as last seen by this JVM. */
  int size() {
    return lastSeen.size();
  }

  /** When the oldest waiting one was queued, as last seen; 0 when none waits. */
  long oldestMillis() {
    return lastSeen.stream().mapToLong(Entry::queuedAtMillis).min().orElse(0);
  }

  /**
   * A change made compare-and-set (on a cluster store: on each node, against the version). An
   * index lost since this JVM last saw it gets an emptying first; an index over its bounds becomes
   * one emptying.
   */
  private Change update(long nowMillis, UnaryOperator<List<Entry>> change) {
    for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      Known knownBefore = known;
      Store.Versioned current = local.gets(key);
      Index before = current == null ? null : parseOrNull(current.value());
      boolean lost = isLost(knownBefore, current, before);
      List<Entry> entries = before == null ? new ArrayList<>() : new ArrayList<>(before.entries());
      boolean hadEmptying = entries.stream().anyMatch(e -> e.inv().kind() == Invalidation.Kind.EMPTY);
      if (lost && !hadEmptying) {
        entries.add(0, new Entry(Invalidation.empty(nowMillis), nowMillis));
      }
      List<Entry> after = change.apply(entries);
      int collapsed = 0;
      long gen = before == null ? ThreadLocalRandom.current().nextLong(1, Long.MAX_VALUE) : before.gen();
      // On a cluster store the cas unique is the version the replicas lead with, so the next must be larger.
      long version = (before != null ? before.version() : current != null ? Math.max(0, current.casUnique()) : 0) + 1;
      Index next = new Index(version, gen, after);
      if (after.size() > limit || next.encode().length > MAX_BYTES) {
        long oldest = after.stream().mapToLong(Entry::queuedAtMillis).min().orElse(nowMillis);
        collapsed = (int) after.stream().filter(e -> e.inv().kind() != Invalidation.Kind.EMPTY).count();
        next = new Index(next.version(), gen, List.of(new Entry(Invalidation.empty(nowMillis), oldest)));
      }
      if (before != null && !lost && next.entries().equals(before.entries())) {
        remember(before);
        return Change.NONE;
      }
      byte[] bytes = next.encode();
      boolean written = current == null ? local.add(key, bytes, 0) : local.cas(key, bytes, current.casUnique(), 0);
      if (written) {
        remember(next);
        boolean emptyingAdded = !hadEmptying && next.entries().stream().anyMatch(e -> e.inv().kind() == Invalidation.Kind.EMPTY);
        return new Change(lost, collapsed, emptyingAdded);
      }
    }
    throw new IllegalStateException("could not update the backlog " + key + " after " + MAX_ATTEMPTS + " attempts");
  }

  /** Gone, replaced or unreadable, while this JVM last saw it holding invalidations. */
  private static boolean isLost(Known known, Store.Versioned current, Index index) {
    return known.nonEmpty() && (current == null || index == null || index.gen() != known.gen());
  }

  private synchronized void remember(Index index) {
    known = new Known(index == null ? 0 : index.gen(), index != null && !index.entries().isEmpty());
    lastSeen = index == null ? List.of() : List.copyOf(index.entries());
  }

  private static Index parseOrNull(byte[] bytes) {
    try {
      return Index.parse(bytes);
    } catch (RuntimeException e) {
      return null; // garbage reads as a lost index: the safe side
    }
  }
}
