package org.pagecache;

import jakarta.servlet.ServletException;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.pagecache.internal.capture.CacheStatus;
import org.pagecache.internal.freshness.Freshness;
import org.pagecache.internal.freshness.RebuildLock;
import org.pagecache.internal.freshness.WaitingChoice;
import org.pagecache.internal.near.WaitingList;
import org.pagecache.internal.stats.Event;
import org.pagecache.internal.store.StoredPage;
import org.pagecache.store.StoreException;

/**
 * ABSENT: nothing servable is stored. The first request of this JVM takes the lock and builds, or
 * watches memcached while another JVM builds; the other requests of this JVM wait for it in the
 * JVM, not each on memcached. Every wait is bounded by {@code lock.wait}; what to do after each
 * wait is {@link WaitingChoice}'s decision.
 */
final class Waiting {
  private static final long FIRST_POLL_MILLIS = 10;
  private static final long MAX_POLL_MILLIS = 100;

  private final Engine engine;
  private final Responder responder;
  private final Rebuild rebuild;
  private final Lookup lookup;

  Waiting(Engine engine, Lookup lookup, Responder responder, Rebuild rebuild) {
    this.engine = engine;
    this.lookup = lookup;
    this.responder = responder;
    this.rebuild = rebuild;
  }

  void absent(PageRequest p, Found found) throws IOException, ServletException {
    p.stats().record(Event.MISS); // the builder and those who wait for it alike
    if (p.req().getAttribute(Lookup.WAITED_IN_JVM) != null) {
      buildWithoutLock(p, found); // waited lock.wait already: never keep a reader waiting longer
      return;
    }
    try (WaitingList.Ticket ticket = engine.waiting.join(found.key())) {
      if (!ticket.leads()) {
        p.stats().lockWaited();
        WaitingList.Wait w = ticket.await(engine.lockWait);
        StoredPage arrived = w.page();
        switch (WaitingChoice.afterWakeUp(w.timedOut(), arrived, arrived != null && Lookup.varyMatches(arrived, p.req()))) {
          case BUILD_WITHOUT_LOCK -> {
            buildWithoutLock(p, found);
            return;
          }
          case AFTER_REFUSAL -> {
            rebuild.afterRefusal(p, found.withPage(arrived), true);
            return;
          }
          case SERVE -> {
            responder.serve(p, arrived, null, CacheStatus.collapsed(responder.ttlLeft(arrived))); // counted as its miss
            return;
          }
          default -> { } // FIND_OWN_WAY: as every request did before the waiting list
        }
      }
      // A cold cluster first copies the page from the warm one (memcached.warm.from)
      StoredPage copy = engine.clusters.warmCopy(p.handler(), found.key(), page -> Lookup.varyMatches(page, p.req()),
          p.policy().grace());
      if (copy != null) {
        engine.waiting.arrived(found.key(), copy);
        responder.serve(p, copy, null, CacheStatus.warmCopy(responder.ttlLeft(copy)));
        return;
      }
      RebuildLock.Lease lease = rebuild.tryLock(p, found, null);
      if (lease != null) {
        rebuild.buildUnderLock(p, found, null, lease);
      } else {
        waitForBuilder(p, found);
      }
    }
  }

  /** Another JVM holds the lock: polls memcached for its page, with a growing pause, up to lock.wait. */
  private void waitForBuilder(PageRequest p, Found found) throws IOException, ServletException {
    p.stats().lockWaited();
    String lockKey = rebuild.lockKey(found);
    long deadline = System.nanoTime() + engine.lockWait.toNanos();
    long pause = FIRST_POLL_MILLIS;
    try {
      while (System.nanoTime() < deadline) {
        sleep(Math.min(pause, Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()))));
        pause = Math.min(pause * 2, MAX_POLL_MILLIS);
        Map<String, byte[]> got = engine.store.getMulti(List.of(found.key(), lockKey));
        StoredPage page = engine.codec.decode(found.key(), got.get(found.key()));
        if (page != null && page.isVaryRecord()) {
          variantAfterWait(p);
          return;
        }
        boolean variantMatches = page != null && Lookup.varyMatches(page, p.req());
        switch (WaitingChoice.afterPoll(page, found.page(), variantMatches, got.containsKey(lockKey))) {
          case AFTER_REFUSAL -> {
            engine.waiting.arrived(found.key(), page);
            rebuild.afterRefusal(p, found.withPage(page), true);
            return;
          }
          case SERVE -> {
            engine.waiting.arrived(found.key(), page);
            responder.serve(p, page, null, CacheStatus.collapsed(responder.ttlLeft(page))); // counted as its miss
            return;
          }
          case TAKE_OVER -> { // one waiter takes over, the others keep waiting
            RebuildLock.Lease lease = rebuild.tryLock(p, found, null);
            if (lease != null) {
              rebuild.buildUnderLock(p, found, null, lease);
              return;
            }
          }
          default -> { } // KEEP_WAITING
        }
      }
    } catch (StoreException e) {
      p.stats().record(Event.ERROR);
    }
    buildWithoutLock(p, found); // waited lock.wait for nothing: never keep a reader waiting longer
  }

  private void buildWithoutLock(PageRequest p, Found found) throws IOException, ServletException {
    responder.answer(p, rebuild.build(p, found, null));
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * The builder found that the URL's responses vary and stored its own variant: this request's
   * variant is served if someone built it, else built by this request (under its own lock when free).
   */
  private void variantAfterWait(PageRequest p) throws IOException, ServletException {
    Found variant = lookup.find(p, false);
    StoredPage page = variant.page();
    if (page != null && !page.isUncacheableMarker() && variant.decision().state() == Freshness.State.FRESH) {
      responder.serve(p, page, null, CacheStatus.collapsed(responder.ttlLeft(page)));
      return;
    }
    RebuildLock.Lease lease = rebuild.tryLock(p, variant, null);
    if (lease != null) {
      rebuild.buildUnderLock(p, variant, null, lease);
    } else {
      responder.answer(p, rebuild.build(p, variant, null));
    }
  }
}