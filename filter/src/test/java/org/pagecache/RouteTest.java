package org.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.pagecache.Route.Way;
import org.pagecache.internal.freshness.Freshness;
import org.pagecache.internal.freshness.HitForMiss;
import org.pagecache.internal.store.StoredPage;
import org.pagecache.internal.store.StoredPage.Header;

/** Every route a request can take after its lookup, from plain values: no memcached, no container. */
class RouteTest {
  private static final long NOW = 1_800_000_000_000L;

  private static StoredPage page(long freshUntil, String cacheControl) {
    List<Header> headers = cacheControl == null ? List.of() : List.of(new Header("Cache-Control", cacheControl));
    return new StoredPage(200, headers, new byte[0], false, null, freshUntil - 60_000, freshUntil, 5, 0, List.of(),
        List.of(), false, List.of(), null);
  }

  private static Route route(StoredPage page, boolean honor, boolean waitedInJvm) {
    return Route.decide(page, Freshness.classify(page, NOW, 0, Map.of(), 0, 1), honor, waitedInJvm, NOW);
  }

  @Test
  void aFreshPageIsServed() {
    Route r = route(page(NOW + 1000, null), false, false);
    assertEquals(Way.SERVE_FRESH, r.way());
    assertNull(r.ifLost());
  }

  @Test
  void nothingStoredWaitsForTheBuilderOrBuildsAtOnceAfterWaitingInTheJvm() {
    assertEquals(Way.WAIT, route(null, false, false).way());
    assertEquals(Way.BUILD_WITHOUT_LOCK, route(null, false, true).way(), "never wait lock.wait twice");
  }

  @Test
  void aStalePageIsRebuiltAndServedStaleWhenTheLockIsLost() {
    Route r = route(page(NOW - 1000, null), false, false);
    assertEquals(Way.REBUILD, r.way());
    assertEquals(Way.SERVE_STALE, r.ifLost());
  }

  @Test
  void pastItsStaleWhileRevalidateALostLockWaitsOrBuilds() {
    StoredPage page = page(NOW - 10_000, "max-age=60, stale-while-revalidate=5");
    assertEquals(Way.WAIT, route(page, true, false).ifLost());
    assertEquals(Way.BUILD_WITHOUT_LOCK, route(page, true, true).ifLost());
    assertEquals(Way.SERVE_STALE, route(page, false, false).ifLost(), "the default mode keeps the policy's grace");
  }

  @Test
  void withinItsStaleWhileRevalidateALostLockServesStale() {
    StoredPage page = page(NOW - 1000, "max-age=60, stale-while-revalidate=5");
    assertEquals(Way.SERVE_STALE, route(page, true, false).ifLost());
  }

  /** Who wins the lock gets the copy too (and the page is rebuilt off its request) only where stale may be served to it. */
  @Test
  void theLockWinnerIsServedTheStaleCopyInTheDefaultModeAndUnderHonorOnlyWithinStaleWhileRevalidate() {
    assertTrue(route(page(NOW - 1000, null), false, false).copyServable(), "the default mode: the policy's grace");
    assertFalse(route(page(NOW - 1000, "max-age=1"), true, false).copyServable(),
        "honor without stale-while-revalidate: the winner revalidates, as RFC 9111 4.2.4 says");
    assertTrue(route(page(NOW - 1000, "max-age=60, stale-while-revalidate=5"), true, false).copyServable(),
        "honor, within the response's stale-while-revalidate");
    assertFalse(route(page(NOW - 10_000, "max-age=60, stale-while-revalidate=5"), true, false).copyServable(),
        "honor, past it");
  }

  @Test
  void aPagePickedForEarlyRefreshIsServedAsAHitWhenTheLockIsLost() {
    StoredPage page = page(NOW + 1000, null);
    Route r = Route.decide(page, new Freshness.Decision(Freshness.State.STALE, "early refresh", true), false, false, NOW);
    assertEquals(Way.REBUILD, r.way());
    assertEquals(Way.SERVE_FRESH, r.ifLost());
  }

  @Test
  void aRefusalMarkerBuildsWithoutTheLockUntilItPasses() {
    StoredPage once = StoredPage.uncacheable("status-400", 1, NOW, NOW + 1000);
    assertEquals(Way.BUILD_AFTER_REFUSAL, route(once, false, false).way());
    StoredPage often = StoredPage.uncacheable("status-400", HitForMiss.PASS_AFTER, NOW, NOW + 1000);
    assertEquals(Way.PASS_AFTER_REFUSAL, route(often, false, false).way());
    assertEquals(Way.PASS_AFTER_REFUSAL, route(StoredPage.uncacheable("too-large", 1, NOW, NOW + 1000), false, false).way());
  }

  @Test
  void anExpiredRefusalMarkerIsAMissingPage() {
    StoredPage expired = StoredPage.uncacheable("too-large", 1, NOW - 2000, NOW - 1000);
    assertEquals(Way.WAIT, route(expired, false, false).way());
  }
}
