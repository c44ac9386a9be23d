package org.pagecache;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.pagecache.internal.capture.CacheStatus;
import org.pagecache.internal.cluster.Clusters;
import org.pagecache.internal.freshness.Freshness;
import org.pagecache.internal.freshness.RebuildLock;
import org.pagecache.internal.freshness.WaitingChoice;
import org.pagecache.internal.key.VaryRecord;
import org.pagecache.internal.near.WaitingList;
import org.pagecache.internal.stats.Event;
import org.pagecache.internal.stats.PageTrace;
import org.pagecache.internal.store.PageCodec;
import org.pagecache.internal.store.StoredPage;
import org.pagecache.store.Store;
import org.pagecache.store.StoreException;

/**
 * Nothing servable is stored: the first request of this JVM takes the lock, or watches memcached
 * while another JVM builds; the other requests of this JVM wait for it in the JVM, not each on
 * memcached. Every wait is bounded by {@code lock.wait}; what to do after each wait is {@link
 * WaitingChoice}'s decision. Returns what the wait came to ({@link Waited}); sends nothing, builds
 * nothing.
 */
final class Waiting {
  private static final long FIRST_POLL_MILLIS = 10;
  private static final long MAX_POLL_MILLIS = 100;

  /** What a wait came to. */
  sealed interface Waited {
    /** A page to serve: built by the request waited for, copied from the warm cluster, or found by polling. */
    record Page(Outcome.Serve serve) implements Waited {}

    /** The build waited for was refused: its marker, handed on at once (nobody queues on a refused page). */
    record Refused(Found found, Outcome.HandOn handOn) implements Waited {}

    /**
     * This request's turn to build {@code found} (which may be a variant's): with the page's lock it
     * won, or alone ({@code lease} null: waited lock.wait for nothing, or the lock is someone else's).
     */
    record Turn(Found found, Lease lease) implements Waited {}
  }

  private final Lookup lookup;
  private final WaitingList waiting;
  private final Duration lockWait;
  private final Clusters clusters;
  private final RebuildLock lock;
  private final Store store;
  private final PageCodec codec;
  private final Clock clock;

  /** @param lockWait {@code lock.wait}: how long any request waits for another's build */
  Waiting(Lookup lookup, WaitingList waiting, Duration lockWait, Clusters clusters, RebuildLock lock, Store store,
      PageCodec codec, Clock clock) {
    this.lookup = lookup;
    this.waiting = waiting;
    this.lockWait = lockWait;
    this.clusters = clusters;
    this.lock = lock;
    this.store = store;
    this.codec = codec;
    this.clock = clock;
  }

  /**
   * Joins this JVM's waiting list for the page ({@link PageRequest.Notes#ticket}: the request holds its
   * place until its answer is sent), and waits for the page as the list's follower or its leader.
   */
  Waited absent(PageRequest p, Found found) {
    WaitingList.Ticket ticket = waiting.join(found.key());
    p.notes().ticket = ticket;
    if (!ticket.leads()) {
      p.stats().lockWaited();
      p.trace().waited();
      WaitingList.Wait w;
      try (PageTrace.Scope step = p.trace().step(PageTrace.Step.WAIT)) {
        w = ticket.await(lockWait);
      }
      StoredPage arrived = w.page();
      switch (WaitingChoice.afterWakeUp(w.timedOut(), arrived, arrived != null && VaryRecord.matches(arrived, p.req()))) {
        case BUILD_WITHOUT_LOCK -> {
          return new Waited.Turn(found, null);
        }
        case AFTER_REFUSAL -> {
          return new Waited.Refused(found.withPage(arrived), null);
        }
        case SERVE -> {
          return new Waited.Page(Outcome.serving(arrived, CacheStatus.collapsed(ttlLeft(arrived))));
        }
        default -> { } // FIND_OWN_WAY: as every request did before the waiting list
      }
    }
    // A cold cluster first copies the page from the warm one (memcached.warm.from)
    StoredPage copy = clusters.warmCopy(p.handler(), found.key(), page -> VaryRecord.matches(page, p.req()),
        p.policy().grace());
    if (copy != null) {
      return new Waited.Page(Outcome.handingOn(found.key(), copy, CacheStatus.warmCopy(ttlLeft(copy))));
    }
    return lockOrWaitForBuilder(p, found);
  }

  /**
   * The lock, if this request wins it; else another JVM holds it: polls memcached for its page, with
   * a growing pause, up to lock.wait.
   */
  private Waited lockOrWaitForBuilder(PageRequest p, Found found) {
    Lease won = Lease.tryTake(lock, p, found);
    if (won != null) {
      return new Waited.Turn(found, won);
    }
    p.stats().lockWaited();
    p.trace().waited();
    String lockKey = Lease.key(lock, found);
    long deadline = System.nanoTime() + lockWait.toNanos();
    long pause = FIRST_POLL_MILLIS;
    try (PageTrace.Scope step = p.trace().step(PageTrace.Step.WAIT)) {
      while (System.nanoTime() < deadline) {
        sleep(Math.min(pause, Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()))));
        pause = Math.min(pause * 2, MAX_POLL_MILLIS);
        Map<String, byte[]> got = store.getMulti(List.of(found.key(), lockKey));
        StoredPage page = codec.decode(found.key(), got.get(found.key()));
        if (page != null && page.isVaryRecord()) {
          // The builder found that the URL's responses vary and stored its own variant: this request's
          // variant is served if someone built it, else built by this request (under its own lock when free).
          Found variant = lookup.find(p, false);
          StoredPage mine = variant.page();
          if (mine != null && !mine.isUncacheableMarker() && variant.decision().state() == Freshness.State.FRESH) {
            return new Waited.Page(Outcome.serving(mine, CacheStatus.collapsed(ttlLeft(mine))));
          }
          return new Waited.Turn(variant, Lease.tryTake(lock, p, variant));
        }
        boolean variantMatches = page != null && VaryRecord.matches(page, p.req());
        switch (WaitingChoice.afterPoll(page, found.page(), variantMatches, got.containsKey(lockKey))) {
          case AFTER_REFUSAL -> {
            return new Waited.Refused(found.withPage(page), new Outcome.HandOn(found.key(), page));
          }
          case SERVE -> {
            return new Waited.Page(Outcome.handingOn(found.key(), page, CacheStatus.collapsed(ttlLeft(page))));
          }
          case TAKE_OVER -> { // one waiter takes over, the others keep waiting
            Lease lease = Lease.tryTake(lock, p, found);
            if (lease != null) {
              return new Waited.Turn(found, lease);
            }
          }
          default -> { } // KEEP_WAITING
        }
      }
    } catch (StoreException e) {
      p.stats().record(Event.ERROR);
    }
    return new Waited.Turn(found, null); // waited lock.wait for nothing: never keep a reader waiting longer
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private long ttlLeft(StoredPage page) {
    return (page.freshUntilMillis() - clock.millis()) / 1000;
  }
}
