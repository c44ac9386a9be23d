package org.pagecache;

import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.pagecache.internal.freshness.RebuildLock;
import org.pagecache.internal.stats.Event;
import org.pagecache.internal.stats.HandlerRecorder;
import org.pagecache.store.Store;
import org.pagecache.store.StoreException;

/**
 * The rebuild lock of one page, held by one request: taken by {@link #tryTake} (dog-pile: one
 * rebuilder via memcached add), given back once by {@link #giveBack}: by {@link Build#run}
 * whatever way the build ended, or by an async build when it ends.
 */
final class Lease {
  private final RebuildLock lock;
  private final RebuildLock.Lease held;
  private final Map<String, byte[]> readAfter;
  /** Given back once, whoever gives it back first: its build, or a background rebuild's end or shutdown. */
  private final AtomicBoolean given = new AtomicBoolean();

  private Lease(RebuildLock lock, RebuildLock.Lease held, Map<String, byte[]> readAfter) {
    this.lock = lock;
    this.held = held;
    this.readAfter = readAfter;
  }

  /**
   * The rebuild lock of the page {@code found} names, at its version, if this request won it, else
   * null (lost, or memcached failed). The keys this request's lookup read are read again with the
   * add, answered after it: the build's second look, in the same round trip where the store can.
   */
  static Lease tryTake(RebuildLock lock, PageRequest p, Found found) {
    try {
      return take(lock, p, found);
    } catch (StoreException e) {
      p.stats().record(Event.ERROR);
      return null;
    }
  }

  /** As {@link #tryTake}, but memcached failing throws: null means lost, to another request. */
  static Lease take(RebuildLock lock, PageRequest p, Found found) {
    RebuildLock.Taken taken = lock.tryAcquireReading(found.key(), version(found), lock.newOwner(),
        p.notes().lookupKeys);
    return taken != null ? new Lease(lock, taken.lease(), taken.readAfter()) : null;
  }

  /** The lock key a build of {@code found} takes: one per version, so a refresh never waits on an older build. */
  static String key(RebuildLock lock, Found found) {
    return lock.key(found.key(), version(found));
  }

  private static long version(Found found) {
    return RebuildLock.version(found.token(), found.tagVersions().values());
  }

  /**
   * What memcached held for the request's lookup keys just after this lock was taken (the second
   * look, {@link Lookup#found}), or null when the lookup did not ask memcached: then look again.
   */
  Map<String, byte[]> readAfter() {
    return readAfter;
  }

  /** Where a build under this lease writes: where its lock was taken (a build finishes where it started). */
  Store placement() {
    return held.placement();
  }

  void giveBack(PageRequest p) {
    giveBack(p.stats());
  }

  /** Gives the lock back without a trace event (a rebuild that was never started). */
  void giveBack() {
    if (given.compareAndSet(false, true)) {
      try {
        lock.release(held);
      } catch (StoreException e) {
        // the lock expires by itself: its lease is no longer renewed
      }
    }
  }

  /** Gives the lock back, once: later calls do nothing. */
  void giveBack(HandlerRecorder stats) {
    if (!given.compareAndSet(false, true)) {
      return;
    }
    try {
      lock.release(held);
      stats.record(Event.UNLOCK);
    } catch (StoreException e) {
      stats.record(Event.ERROR); // the lock expires by itself: its lease is no longer renewed
    }
  }

  /** True once the lock has been given back. */
  boolean given() {
    return given.get();
  }

  /** Milliseconds since this lock was asked for (and won): since then, others serve the page stale. */
  long heldMillis() {
    return (System.nanoTime() - held.takenAtNanos()) / 1_000_000;
  }

  /** The page key this lease's lock belongs to. */
  String pageKey() {
    return held.pageKey();
  }
}
