package org.pagecache.internal.capture;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.pagecache.internal.store.StoredPage;
import org.pagecache.internal.store.StoredPage.Header;

class StaleWindowsTest {
  private static final long FRESH_UNTIL = 1_000_000;

  private static StoredPage page(String... headers) {
    List<Header> list = new ArrayList<>();
    for (int i = 0; i < headers.length; i += 2) {
      list.add(new Header(headers[i], headers[i + 1]));
    }
    return new StoredPage(200, list, new byte[0], false, "e", 0, FRESH_UNTIL, 5, 0, List.of(), List.of(), false,
        List.of(), null);
  }

  @Test
  void staleWhileRevalidateBoundsServingStaleDuringARebuild() {
    StoredPage p = page("Cache-Control", "max-age=60, stale-while-revalidate=30");
    assertTrue(StaleWindows.whileRevalidating(p, true, FRESH_UNTIL + 30_000));
    assertFalse(StaleWindows.whileRevalidating(p, true, FRESH_UNTIL + 30_001));
  }

  @Test
  void withoutTheDirectiveOrInDefaultModeTheGraceDecides() {
    assertTrue(StaleWindows.whileRevalidating(page("Cache-Control", "max-age=60"), true, FRESH_UNTIL + 3_600_000));
    StoredPage p = page("Cache-Control", "max-age=60, stale-while-revalidate=30, stale-if-error=10");
    assertTrue(StaleWindows.whileRevalidating(p, false, FRESH_UNTIL + 3_600_000));
    assertTrue(StaleWindows.onError(p, 599, false, FRESH_UNTIL + 3_600_000));
  }

  @Test
  void staleIfErrorBoundsServingStaleOnError() {
    StoredPage p = page("Cache-Control", "max-age=60, stale-if-error=10");
    assertTrue(StaleWindows.onError(p, 503, true, FRESH_UNTIL + 10_000));
    assertTrue(StaleWindows.onError(p, null, true, FRESH_UNTIL + 10_000), "the handler threw");
    assertFalse(StaleWindows.onError(p, 503, true, FRESH_UNTIL + 10_001));
    assertTrue(StaleWindows.onError(page("Cache-Control", "max-age=60"), 500, true, FRESH_UNTIL + 3_600_000));
  }

  @Test
  void onlyTheFourErrorStatusesAreHidden() {
    StoredPage p = page("Cache-Control", "max-age=60");
    for (int status : new int[] {500, 502, 503, 504}) {
      assertTrue(StaleWindows.onError(p, status, true, FRESH_UNTIL + 1), "" + status);
    }
    for (int status : new int[] {501, 505, 507, 599}) {
      assertFalse(StaleWindows.onError(p, status, true, FRESH_UNTIL + 1), "" + status);
    }
  }

  @Test
  void anInvalidWindowServesNothingStaleAndTheCdnFieldWins() {
    assertFalse(StaleWindows.onError(page("Cache-Control", "max-age=60, stale-if-error=ten"), 503, true, FRESH_UNTIL + 1));
    StoredPage targeted = page("Cache-Control", "max-age=60, stale-while-revalidate=3600",
        "CDN-Cache-Control", "max-age=60, stale-while-revalidate=5");
    assertFalse(StaleWindows.whileRevalidating(targeted, true, FRESH_UNTIL + 6_000));
  }
}
