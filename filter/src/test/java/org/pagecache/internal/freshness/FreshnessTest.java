package org.pagecache.internal.freshness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.pagecache.internal.freshness.Freshness.State;
import org.pagecache.internal.store.StoredPage;
import org.pagecache.internal.store.StoredPage.TagVersion;

class FreshnessTest {
  private static final long BUILT = 1_000_000;
  private static final long FRESH_UNTIL = BUILT + 60_000;

  private static StoredPage page(long token, List<TagVersion> tags) {
    return new StoredPage(200, List.of(), new byte[0], false, "e", BUILT, FRESH_UNTIL, 50, token, tags,
        List.of(), false, List.of(), null);
  }

  private static State state(StoredPage p, long now, long token, Map<String, Long> tags) {
    return Freshness.classify(p, now, token, tags, 0, 0.5).state();
  }

  @Test
  void nothingStoredIsAbsent() {
    assertEquals(State.ABSENT, state(null, BUILT, 0, Map.of()));
  }

  @Test
  void anUncacheableMarkerIsAbsent() {
    assertEquals(State.ABSENT, state(StoredPage.uncacheable("set-cookie", BUILT, FRESH_UNTIL), BUILT, 0, Map.of()));
  }

  @Test
  void aPageThatMustRevalidateIsAbsentOnceNoLongerFreshNeverStale() {
    StoredPage strict = new StoredPage(200, List.of(), new byte[0], false, "e", BUILT, FRESH_UNTIL, 50, 5,
        List.of(new TagVersion("a", 1)), List.of(), false, List.of(), null, true, 0);
    assertEquals(State.FRESH, state(strict, FRESH_UNTIL - 1, 5, Map.of()));
    assertEquals(State.ABSENT, state(strict, FRESH_UNTIL, 5, Map.of()), "expired");
    assertEquals(State.ABSENT, state(strict, BUILT, 6, Map.of()), "refreshed");
    assertEquals(State.ABSENT, state(strict, BUILT, 5, Map.of("a", 2L)), "tag invalidated");
  }

  @Test
  void beforeFreshUntilWithCurrentTokenIsFresh() {
    assertEquals(State.FRESH, state(page(5, List.of()), FRESH_UNTIL - 1, 5, Map.of()));
  }

  @Test
  void atFreshUntilItIsStale() {
    assertEquals(State.STALE, state(page(5, List.of()), FRESH_UNTIL, 5, Map.of()));
  }

  @Test
  void aNewerHandlerTokenMakesItStale() {
    assertEquals(State.STALE, state(page(5, List.of()), BUILT, 6, Map.of()));
    assertEquals(State.FRESH, state(page(7, List.of()), BUILT, 6, Map.of()), "built after the refresh");
  }

  @Test
  void noTokenAnywhereMeansJudgedByTimeAlone() {
    assertEquals(State.FRESH, state(page(0, List.of()), BUILT, 0, Map.of()));
  }

  @Test
  void aRaisedTagVersionMakesItStale() {
    StoredPage p = page(0, List.of(new TagVersion("article:1", 100), new TagVersion("section:a", 100)));
    assertEquals(State.FRESH, state(p, BUILT, 0, Map.of("article:1", 100L, "section:a", 100L)));
    assertEquals(State.STALE, state(p, BUILT, 0, Map.of("article:1", 100L, "section:a", 101L)));
    assertEquals(State.FRESH, state(p, BUILT, 0, Map.of("article:1", 99L)), "an older version read elsewhere is no reason");
  }

  @Test
  void earlyRefreshIsOffByDefaultAndLikelierNearExpiry() {
    StoredPage p = page(0, List.of());
    assertEquals(State.FRESH, Freshness.classify(p, FRESH_UNTIL - 10, 0, Map.of(), 0, 1e-9).state());
    // with beta 1 and a 50 ms build, a tiny random number reaches far: refresh early
    Freshness.Decision near = Freshness.classify(p, FRESH_UNTIL - 10, 0, Map.of(), 1.0, 0.01);
    assertEquals(State.STALE, near.state());
    assertTrue(near.early());
    // far from expiry, an ordinary random number does not
    assertFalse(Freshness.shouldRefreshEarly(p, BUILT, 1.0, 0.5));
  }
}
