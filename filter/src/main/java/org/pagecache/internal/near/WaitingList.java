package org.pagecache.internal.near;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.pagecache.internal.store.StoredPage;

/**
 * Requests of this JVM that want the same page nothing has built yet wait together here, as in
 * Varnish's waiting list: the first one (the leader) takes the rebuild lock in memcached and builds
 * the page, or, when another JVM holds the lock, watches memcached for it; the others wait on an
 * in-JVM future and are handed the page the moment it exists. A cold page wanted by 200 requests
 * of one JVM then costs memcached a handful of calls, not one poll loop per request.
 *
 * <pre>{@code
 * try (WaitingList.Ticket t = waiting.join(key)) {
 *   if (!t.leads()) {
 *     WaitingList.Wait w = t.await(lockWait);   // the page, or gave up / timed out
 *   } else {
 *     ... lock, build (or poll memcached), then waiting.arrived(key, page)
 *   }
 * }                                              // the leader's close releases whoever still waits
 * }</pre>
 */
public final class WaitingList {
  private final ConcurrentHashMap<String, Flight> flights = new ConcurrentHashMap<>();

  /** One page being waited for; {@code leader} is the thread whose request builds or watches. */
  private record Flight(Thread leader, CompletableFuture<StoredPage> page) {}

  /** What a wait ended with: the page (possibly an uncacheable marker), nothing, or the time limit. */
  public record Wait(StoredPage page, boolean timedOut) {
    static final Wait GAVE_UP = new Wait(null, false);
    static final Wait TIMED_OUT = new Wait(null, true);
    static final Wait NOBODY = new Wait(null, false);
  }

  /** Joins the wait for the page: the first request of this JVM leads, the others follow. */
  public Ticket join(String key) {
    Flight mine = new Flight(Thread.currentThread(), new CompletableFuture<>());
    Flight theirs = flights.putIfAbsent(key, mine);
    return theirs == null ? new Ticket(key, mine, true) : new Ticket(key, theirs, false);
  }

  /**
   * When another request of this JVM is already on the page, runs {@code beforeWaiting} and waits
   * for it (up to {@code max}). {@link Wait#page()} null and not timed out: nobody was on it, or
   * the leader gave up.
   */
  public Wait awaitOthers(String key, Duration max, Runnable beforeWaiting) {
    Flight f = flights.get(key);
    if (f == null || f.leader == Thread.currentThread()) {
      return Wait.NOBODY;
    }
    beforeWaiting.run();
    return await(f, max);
  }

  /** Whether a request of this JVM leads a wait for the page (for tests and the stats). */
  public boolean waitingFor(String key) {
    return flights.containsKey(key);
  }

  /** Hands a page that was just built or found to whoever waits for it in this JVM. */
  public void arrived(String key, StoredPage page) {
    Flight f = flights.get(key);
    if (f != null) {
      f.page.complete(page);
    }
  }

  private static Wait await(Flight f, Duration max) {
    try {
      StoredPage page = f.page.get(max.toNanos(), TimeUnit.NANOSECONDS);
      return page == null ? Wait.GAVE_UP : new Wait(page, false);
    } catch (TimeoutException e) {
      return Wait.TIMED_OUT;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Wait.GAVE_UP;
    } catch (ExecutionException e) {
      return Wait.GAVE_UP;
    }
  }

  /** A request's place in the wait for one page; the leader's close ends the wait. */
  public final class Ticket implements AutoCloseable {
    private final String key;
    private final Flight flight;
    private final boolean leads;

    private Ticket(String key, Flight flight, boolean leads) {
      this.key = key;
      this.flight = flight;
      this.leads = leads;
    }

    /** True for the request that builds the page or watches memcached for it. */
    public boolean leads() {
      return leads;
    }

    /** For a follower: the page the leader hands over, or why there is none. */
    public Wait await(Duration max) {
      return WaitingList.await(flight, max);
    }

    /** The leader's end: whoever still waits is released (with nothing) and finds its own way. */
    @Override
    public void close() {
      if (leads) {
        flights.remove(key, flight);
        flight.page.complete(null);
      }
    }
  }
}
