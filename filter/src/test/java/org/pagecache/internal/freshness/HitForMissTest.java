package org.pagecache.internal.freshness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.pagecache.internal.store.StoredPage;

class HitForMissTest {
  private static final long NOW = 1_000_000;

  @Test
  void aFirstRefusalIsAMissNotAPass() {
    assertEquals(1, HitForMiss.refusalsAfter(null, NOW));
    assertFalse(HitForMiss.passes(StoredPage.uncacheable("status-400", 1, NOW, NOW + 30_000)));
    assertFalse(HitForMiss.passes(StoredPage.uncacheable("set-cookie", 2, NOW, NOW + 30_000)));
  }

  @Test
  void refusalsInARowPassOnceTheyReachTheLimit() {
    StoredPage second = StoredPage.uncacheable("set-cookie", 2, NOW, NOW + 30_000);
    assertEquals(3, HitForMiss.refusalsAfter(second, NOW + 1));
    assertTrue(HitForMiss.passes(StoredPage.uncacheable("set-cookie", HitForMiss.PASS_AFTER, NOW, NOW + 30_000)));
  }

  @Test
  void aStoredPageOrAnExpiredMarkerStartsTheCountAgain() {
    StoredPage page = new StoredPage(200, List.of(), new byte[0], false, "e", NOW, NOW + 60_000, 1, 0, List.of(),
        List.of(), false, List.of(), null);
    assertEquals(1, HitForMiss.refusalsAfter(page, NOW));
    StoredPage expired = StoredPage.uncacheable("set-cookie", 2, NOW - 40_000, NOW - 10_000);
    assertEquals(1, HitForMiss.refusalsAfter(expired, NOW));
  }

  @Test
  void whatNoRequestCanChangePassesAtOnce() {
    assertTrue(HitForMiss.passes(StoredPage.uncacheable("too-large", 1, NOW, NOW + 30_000)));
    assertTrue(HitForMiss.passes(StoredPage.uncacheable("async", 1, NOW, NOW + 30_000)));
  }
}
