package org.pagecache.internal.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.pagecache.internal.freshness.Versions;
import org.pagecache.internal.nodes.ClusterStore;
import org.pagecache.stats.ClusterStatus;
import org.pagecache.store.Store;
import org.pagecache.store.StoreException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Another data centre's memcached cluster, as this one writes invalidations to it: delivered at
 * once when it answers, otherwise queued in the {@link SharedBacklog} this cluster's memcached
 * keeps for it (issue 37), which every frontend of this cluster reads and delivers ({@link #poll}),
 * so an invalidation survives the JVM that took it. Only when this cluster's memcached cannot take
 * it either does it wait in this JVM's memory ({@link Backlog}), as before issue 37.
 */
final class RemoteCluster implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(RemoteCluster.class);

  /** What became of one invalidation for this cluster. */
  enum Outcome { DELIVERED, PENDING, LOST }

  final String name;
  private final Store store;
  private final SharedBacklog shared;
  private final Backlog memory;
  private final Backoff backoff;
  private final String emptiedKey;
  private final AtomicLong delivered = new AtomicLong();
  private final AtomicLong lost = new AtomicLong();
  private final AtomicLong overflows = new AtomicLong();
  private final AtomicInteger failures = new AtomicInteger();
  private volatile boolean overflowing;
  private volatile boolean inMemoryOnly;
  private volatile boolean memoryFull;

  RemoteCluster(String name, Store store, SharedBacklog shared, int backlogLimit, Backoff backoff,
      String emptiedKey) {
    this.name = name;
    this.store = store;
    this.shared = shared;
    this.memory = new Backlog(backlogLimit);
    this.backoff = backoff;
    this.emptiedKey = emptiedKey;
  }

  /**
   * Delivers it now, or queues it. A cluster that failed lately is not tried (no editor waits for
   * a cluster known to be unreachable): the backlog has it, and {@link #poll} delivers it.
   */
  Outcome send(Invalidation inv, long nowMillis) {
    if (failures.get() == 0) {
      try {
        inv.applyTo(store);
        delivered.incrementAndGet();
        return Outcome.DELIVERED;
      } catch (StoreException | IllegalStateException e) {
        if (failures.incrementAndGet() == 1) {
          log.warn("pagecache: memcached cluster '{}' unreachable ({}): invalidations for it are kept in this"
              + " cluster's memcached, and any frontend of this cluster delivers them", name, e.getMessage());
        }
      }
    }
    return queue(inv, nowMillis);
  }

  private Outcome queue(Invalidation inv, long nowMillis) {
    try {
      changed(shared.add(inv, nowMillis), inv);
      inMemoryOnly = false;
      return Outcome.PENDING;
    } catch (StoreException | IllegalStateException e) {
      if (!inMemoryOnly) {
        inMemoryOnly = true;
        log.warn("pagecache: memcached cluster '{}': this cluster's memcached could not keep its backlog ({}):"
            + " invalidations for it wait in this JVM only, and are lost if it stops first", name, e.getMessage());
      }
    }
    if (memory.offer(inv, nowMillis)) {
      memoryFull = false;
      return Outcome.PENDING;
    }
    lost.incrementAndGet();
    if (memoryFull) {
      return Outcome.LOST; // logged once, counted each time
    }
    memoryFull = true;
    log.warn("pagecache: memcached cluster '{}': this JVM's backlog is full ({} invalidations, memcached.remote.backlog)"
        + " and this cluster's memcached cannot keep it: {} and later ones are not delivered there; its pages are"
        + " served until their ttl and grace run out", name, memory.limit(), inv.describe());
    return Outcome.LOST;
  }

  /** Counts and logs (once per overflow, until the emptying is delivered) what a change of the backlog found. */
  private void changed(SharedBacklog.Change c, Invalidation cause) {
    if (!c.indexLost() && c.collapsed() == 0) {
      return;
    }
    overflows.incrementAndGet();
    lost.addAndGet(c.collapsed());
    if (c.emptyingAdded() && !overflowing) {
      overflowing = true;
      log.warn("pagecache: memcached cluster '{}': {}; it will be emptied (flush_all) when it answers again, so it"
          + " serves none of the pages they concerned, hard purges and evictions included", name,
          c.indexLost() ? "the backlog kept for it in this cluster's memcached was lost (evicted, or its nodes lost),"
              + " with the invalidations it held"
              : "its backlog overflowed (memcached.remote.backlog) at " + (cause == null ? "an invalidation" : cause.describe()));
    }
  }

  /**
   * One round of every frontend's reading: the shared backlog read (a lost one found), and what
   * waits delivered, oldest first, the emptying first.
   *
   * @return when to read again, in milliseconds: after a failed delivery, the backoff's pause
   */
  long poll(long nowMillis) {
    List<SharedBacklog.Entry> waiting;
    try {
      waiting = shared.read(nowMillis, c -> changed(c, null));
    } catch (StoreException | IllegalStateException e) {
      waiting = List.of(); // this cluster's memcached: its own breaker says so; the memory backlog still goes
    }
    if (waiting.isEmpty() && memory.isEmpty()) {
      return Long.MAX_VALUE;
    }
    List<Invalidation> done = new ArrayList<>();
    try {
      deliver(waiting, done);
      for (Invalidation inv : memory.snapshot()) {
        inv.applyTo(store);
        memory.delivered(inv);
        delivered.incrementAndGet();
      }
      if (failures.getAndSet(0) > 0) {
        log.info("pagecache: memcached cluster '{}' reachable again: {} waiting invalidations delivered", name,
            done.size());
      }
      return Long.MAX_VALUE;
    } catch (StoreException | IllegalStateException e) {
      return backoff.delayMillis(failures.incrementAndGet());
    } finally {
      try {
        shared.remove(done, nowMillis);
      } catch (StoreException | IllegalStateException e) {
        // left in the backlog: delivered again later, which does no more than once
      }
      delivered.addAndGet(done.size()); // counted once out of the backlog, so the figures agree
    }
  }

  private void deliver(List<SharedBacklog.Entry> waiting, List<Invalidation> done) {
    for (SharedBacklog.Entry e : waiting) {
      if (e.inv().kind() == Invalidation.Kind.EMPTY) {
        empty(e.inv());
        waiting.forEach(w -> done.add(w.inv())); // the emptying covers every one queued before it
        return;
      }
    }
    for (SharedBacklog.Entry e : waiting) {
      e.inv().applyTo(store);
      done.add(e.inv());
    }
  }

  /** Empties the cluster once per loss: a second delivery finds it emptied at or after this one's time. */
  private void empty(Invalidation emptying) {
    Store.Versioned at = store.gets(emptiedKey);
    if (at != null && Versions.parse(at.value()) >= emptying.version()) {
      return;
    }
    List<String> proxies = store instanceof ClusterStore c ? c.emptyMain() : List.of("(not a memcached cluster)");
    Versions.atLeast(store, emptiedKey, emptying.version(), 0);
    overflowing = false;
    if (proxies.isEmpty()) {
      log.warn("pagecache: memcached cluster '{}' emptied (flush_all): the invalidations lost for it are covered", name);
    } else {
      lost.incrementAndGet();
      log.warn("pagecache: memcached cluster '{}' could not be emptied: {} are memcached proxies (memcached.proxy);"
          + " the invalidations lost for it are not delivered, and its pages are served until their ttl and grace"
          + " run out", name, proxies);
    }
  }



  ClusterStatus.Remote status(long nowMillis) {
    long oldest = oldest(shared.oldestMillis(), memory.oldestMillis());
    return new ClusterStatus.Remote(name, store.describe(), shared.size() + memory.size(), memory.limit(),
        oldest == 0 ? 0 : Math.max(0, nowMillis - oldest), oldest, delivered.get(), lost.get(), overflows.get(),
        failures.get() == 0);
  }

  private static long oldest(long a, long b) {
    return a == 0 ? b : b == 0 ? a : Math.min(a, b);
  }

  Store store() {
    return store;
  }

  @Override
  public void close() {
    store.close();
  }
}
