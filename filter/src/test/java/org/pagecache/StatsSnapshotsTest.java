package org.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.pagecache.stats.CookieBypasses;
import org.pagecache.stats.HandlerStats;
import org.pagecache.stats.Stats;
import org.pagecache.internal.stats.Event;
import org.pagecache.internal.stats.StatsRecorder;

/** What PageCache.stats() hands out: a snapshot that later requests do not change, with totals. */
class StatsSnapshotsTest {
  @Test
  void aSnapshotKeepsItsCountsWhileTheRecorderGoesOn() {
    StatsRecorder recorder = new StatsRecorder();
    recorder.handler("article").record(Event.HIT);
    recorder.handler("article").bypass("session");

    Stats before = StatsSnapshots.of(recorder);
    recorder.handler("article").record(Event.HIT);
    recorder.handler("home").record(Event.MISS);

    assertEquals(1, before.handler("article").hits());
    assertEquals(Map.of("session", 1L), before.handler("article").bypassesByReason());
    assertFalse(before.seen("home"));
    assertEquals(2, StatsSnapshots.of(recorder).handler("article").hits());
    assertThrows(UnsupportedOperationException.class, () -> before.handlers().clear());
    assertThrows(UnsupportedOperationException.class, () -> before.handler("article").bypassesByReason().clear());
  }

  @Test
  void totalsAddEveryHandlerUpAndAnUnseenHandlerIsAllZero() {
    StatsRecorder recorder = new StatsRecorder();
    recorder.handler("article").record(Event.HIT);
    recorder.handler("article").bypass("session");
    recorder.handler("home").record(Event.STALE);
    recorder.handler("home").record(Event.MISS);
    recorder.handler("home").bypass("session");
    recorder.handler("home").cookieBypass(List.of("theme"), true);

    Stats stats = StatsSnapshots.of(recorder);
    HandlerStats total = stats.total();
    assertEquals(1, total.hits());
    assertEquals(1, total.stale());
    assertEquals(1, total.misses());
    assertEquals(2, total.bypasses());
    assertEquals(Map.of("session", 2L), total.bypassesByReason());
    assertEquals(2.0 / 3, total.hitRatio());
    assertEquals(Map.of("theme", new CookieBypasses(1, 1)), stats.handler("home").cookieBypasses());
    assertEquals(0, stats.handler("never").hits());
    assertEquals("", stats.handler("never").trace());
  }
}
