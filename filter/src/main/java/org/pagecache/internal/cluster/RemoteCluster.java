package org.pagecache.internal.cluster;

import org.pagecache.stats.ClusterStatus;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.pagecache.store.Store;
import org.pagecache.store.StoreException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Another data centre's memcached cluster, as this one writes invalidations to it: delivered at
 * once when it answers, otherwise queued in its {@link Backlog} and delivered in order by
 * {@link #drain()}. While something waits, new invalidations queue behind it without trying
 * (no editor waits for a cluster known to be unreachable, and order is kept).
 */
final class RemoteCluster implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(RemoteCluster.class);

  /** What became of one invalidation for this cluster. */
  enum Outcome { DELIVERED, PENDING, LOST }

  final String name;
  private final Store store;
  private final Backlog backlog;
  private final AtomicLong delivered = new AtomicLong();
  private final AtomicLong lost = new AtomicLong();
  private final AtomicInteger failures = new AtomicInteger();
  private volatile boolean overflowing;

  RemoteCluster(String name, Store store, int backlogLimit) {
    this.name = name;
    this.store = store;
    this.backlog = new Backlog(backlogLimit);
  }

  /** Delivers it now, or queues it; LOST when the backlog is full. */
  Outcome send(Invalidation inv, long nowMillis) {
    if (backlog.isEmpty()) {
      try {
        inv.applyTo(store);
        delivered.incrementAndGet();
        failures.set(0);
        return Outcome.DELIVERED;
      } catch (StoreException | IllegalStateException e) {
        if (failures.getAndIncrement() == 0) {
          log.warn("pagecache: memcached cluster '{}' unreachable ({}): invalidations for it are queued in this"
              + " JVM and retried", name, e.getMessage());
        }
      }
    }
    return queue(inv, nowMillis);
  }

  private Outcome queue(Invalidation inv, long nowMillis) {
    if (backlog.offer(inv, nowMillis)) {
      overflowing = false;
      return Outcome.PENDING;
    }
    lost.incrementAndGet();
    if (!overflowing) {
      overflowing = true;
      log.warn("pagecache: memcached cluster '{}': backlog full ({} invalidations, memcached.remote.backlog); {}"
          + " and later ones are not delivered there: its pages they concern are served until their ttl and grace"
          + " run out", name, backlog.limit(), inv.describe());
    }
    return Outcome.LOST;
  }

  /**
   * Delivers what waits, oldest first, stopping at the first failure.
   *
   * @return true when nothing waits any more
   */
  boolean drain() {
    int count = 0;
    for (Invalidation inv : backlog.snapshot()) {
      try {
        inv.applyTo(store);
      } catch (StoreException | IllegalStateException e) {
        failures.incrementAndGet();
        return false;
      }
      backlog.delivered(inv);
      delivered.incrementAndGet();
      count++;
    }
    if (failures.getAndSet(0) > 0 && count > 0) {
      log.info("pagecache: memcached cluster '{}' reachable again: {} queued invalidations delivered", name, count);
    }
    return backlog.isEmpty();
  }

  /** Failed attempts since the last success. */
  int failures() {
    return failures.get();
  }

  ClusterStatus.Remote status(long nowMillis) {
    long oldest = backlog.oldestMillis();
    return new ClusterStatus.Remote(name, store.describe(), backlog.size(), backlog.limit(),
        oldest == 0 ? 0 : Math.max(0, nowMillis - oldest), delivered.get(), lost.get(), failures.get() == 0);
  }

  Store store() {
    return store;
  }

  @Override
  public void close() {
    store.close();
  }
}
