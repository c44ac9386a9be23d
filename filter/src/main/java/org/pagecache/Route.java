package org.pagecache;

import org.pagecache.internal.capture.StaleWindows;
import org.pagecache.internal.freshness.Freshness;
import org.pagecache.internal.freshness.HitForMiss;
import org.pagecache.internal.store.StoredPage;

/**
 * Where a request goes after its lookup: a pure decision from what the lookup found, the policy's
 * value and the time, as {@link Freshness} is for a stored page and OkHttp's {@code CacheStrategy}
 * is for its cache. {@link PageFlow#route} carries it out; nothing here does I/O.
 * <pre>
 *   refusal marker in force -> PASS_AFTER_REFUSAL (it passes) or BUILD_AFTER_REFUSAL (hit-for-miss)
 *   FRESH                   -> SERVE_FRESH            X-Cache: HIT
 *   STALE                   -> REBUILD: take the lock and build (in the background when ifLost serves a copy);
 *                              when another request holds it (ifLost):
 *                                early refresh          -> SERVE_FRESH (the hit it is)
 *                                stale-while-revalidate -> SERVE_STALE
 *                                past it                -> WAIT (BUILD_WITHOUT_LOCK when waited already)
 *   ABSENT                  -> WAIT: with this JVM's requests for the one that builds
 *   ABSENT, waited already  -> BUILD_WITHOUT_LOCK: waited lock.wait in the JVM, never wait longer
 * </pre>
 *
 * @param way    where the request goes
 * @param ifLost for {@link Way#REBUILD}, where to go when another request holds the lock: SERVE_FRESH,
 *               SERVE_STALE, WAIT or BUILD_WITHOUT_LOCK; null otherwise
 * @param copyServable for {@link Way#REBUILD}: the copy also answers the request that wins the lock,
 *               and the page is rebuilt off that request (an early refresh's fresh page; a stale copy
 *               in the default mode, or under {@code cache-control=honor} within the response's own
 *               {@code stale-while-revalidate}); false otherwise
 */
record Route(Way way, Way ifLost, boolean copyServable) {

  Route(Way way, Way ifLost) {
    this(way, ifLost, false);
  }

  /** Where the request goes. */
  enum Way {
    /** A fresh page (or, as {@code ifLost}, one picked for early refresh): serve it as the hit it is. */
    SERVE_FRESH,
    /** As {@code ifLost}: serve the stale copy while another request rebuilds it. */
    SERVE_STALE,
    /** The page's last build was refused and passes (a marker in force, {@link HitForMiss}): to the handler uncached. */
    PASS_AFTER_REFUSAL,
    /** The page's last build was refused (hit-for-miss): build at once without the lock, nobody queues. */
    BUILD_AFTER_REFUSAL,
    /** Nothing servable (or, as {@code ifLost}, past its stale-while-revalidate): wait for the request that builds it, or be it. */
    WAIT,
    /** As WAIT, but the lookup waited {@code lock.wait} in this JVM already: build at once without the lock. */
    BUILD_WITHOUT_LOCK,
    /** Stale or picked for early refresh: take the rebuild lock and build; {@code ifLost} when another request holds it. */
    REBUILD
  }

  private static final Route SERVE_FRESH = new Route(Way.SERVE_FRESH, null);
  private static final Route PASS = new Route(Way.PASS_AFTER_REFUSAL, null);
  private static final Route MISS_AFTER_REFUSAL = new Route(Way.BUILD_AFTER_REFUSAL, null);
  private static final Route WAIT = new Route(Way.WAIT, null);
  private static final Route BUILD_WITHOUT_LOCK = new Route(Way.BUILD_WITHOUT_LOCK, null);

  /**
   * @param page        the page the lookup found (a refusal marker too), or null
   * @param decision    its classification ({@link Freshness#classify})
   * @param honor       the policy reads the response's Cache-Control ({@code cache-control=honor})
   * @param waitedInJvm the lookup waited {@code lock.wait} for another request of this JVM already
   * @param nowMillis   the current time
   */
  static Route decide(StoredPage page, Freshness.Decision decision, boolean honor, boolean waitedInJvm,
      long nowMillis) {
    if (page != null && page.isUncacheableMarker() && nowMillis < page.freshUntilMillis()) {
      return afterRefusal(page);
    }
    return switch (decision.state()) {
      case FRESH -> SERVE_FRESH;
      case STALE -> stale(page, decision.early(), honor, waitedInJvm, nowMillis);
      case ABSENT -> waitedInJvm ? BUILD_WITHOUT_LOCK : WAIT;
    };
  }

  /**
   * A stale page (or one picked for early refresh): rebuild it. The copy also answers the request that
   * wins the lock ({@link #copyServable}, the page then rebuilt in the background) for an early
   * refresh, and for a stale copy where {@link StaleWindows#revalidatesInBackground} allows it.
   */
  private static Route stale(StoredPage page, boolean early, boolean honor, boolean waitedInJvm, long nowMillis) {
    if (early) {
      return new Route(Way.REBUILD, Way.SERVE_FRESH, true);
    }
    if (StaleWindows.whileRevalidating(page, honor, nowMillis)) {
      return new Route(Way.REBUILD, Way.SERVE_STALE, StaleWindows.revalidatesInBackground(page, honor, nowMillis));
    }
    return new Route(Way.REBUILD, waitedInJvm ? Way.BUILD_WITHOUT_LOCK : Way.WAIT, false);
  }

  /** A refusal marker (found, or handed on by the build another request waited for): pass or build without the lock. */
  static Route afterRefusal(StoredPage marker) {
    return HitForMiss.passes(marker) ? PASS : MISS_AFTER_REFUSAL;
  }
}
