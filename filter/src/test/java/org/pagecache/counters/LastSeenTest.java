package org.pagecache.counters;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.pagecache.counters.LastSeen.Seen;

class LastSeenTest {

  @Test
  void aLowerValueRecordedByARacingThreadNeverReplacesAHigherOne() {
    LastSeen lastSeen = new LastSeen();
    lastSeen.record("a", 102, 1_000, 0); // the thread whose incr answered second records first
    lastSeen.record("a", 101, 1_000, 0);

    assertEquals(102, lastSeen.value("a"));
  }

  @Test
  void theLaterObservationSaysWhenAndWhetherTheValueIsTrusted() {
    LastSeen lastSeen = new LastSeen();
    lastSeen.record("a", 500, 1_000, 0);
    lastSeen.record("a", 1, 2_000, 62_000); // restarted from a stand-in 0

    assertEquals(new Seen(500, 2_000, 62_000), lastSeen.get("a"));
    lastSeen.record("a", 700, 1_500, 0); // an older observation, recorded late
    assertEquals(new Seen(700, 2_000, 62_000), lastSeen.get("a"));
  }
}
