package org.pagecache.counters;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.pagecache.testing.Eventually;

/**
 * Memcached going away never reaches the caller: counting degrades to last known values and
 * recovers by itself. Subclasses make "down" real (a stopped memcached) or simulated.
 */
abstract class FailOpenContract extends CountersFixture {
  private static final CountersSettings SHORT_WINDOW = CountersSettings.builder()
      .window(Duration.ofSeconds(10)).onlineCacheFor(Duration.ZERO).build();
  /** Time for a reconnecting client and for the breaker to let a probe through. */
  static final Duration RECOVERY = Duration.ofSeconds(30);

  @Test
  void whileMemcachedIsDownCountsShowTheLastKnownValuesPlusThisFrontendsViewsSince() {
    Counters counters = frontend(b -> b.source(key -> 40).settings(SHORT_WINDOW));
    counters.viewed("article:1");
    counters.viewed("article:1");
    counters.visit("reader");
    clock.advance(Duration.ofSeconds(2));
    assertEquals(1, counters.online());

    backend().down();

    assertEquals(43, counters.viewed("article:1"), "42 seen, and this view, which memcached will get");
    assertEquals(43, counters.views("article:1"));
    assertEquals(-1, counters.viewed("article:never-seen"));
    Map<String, Long> expected = new LinkedHashMap<>();
    expected.put("article:1", 43L);
    expected.put("article:2", -1L);
    assertEquals(expected, counters.views(List.of("article:1", "article:2")));
    counters.visit("another reader");
    clock.advance(Duration.ofSeconds(1));
    assertEquals(1, counters.online(), "the last known online count");
  }

  @Test
  void withNothingKnownEveryCountIsMinusOneAndNothingThrows() {
    Counters counters = frontend(b -> b.source(key -> 40));
    backend().down();

    assertEquals(-1, counters.viewed("article:1"));
    assertEquals(-1, counters.views("article:1"));
    assertEquals(Map.of("article:1", -1L), counters.views(List.of("article:1")));
    counters.visit("reader");
    assertEquals(-1, counters.online());
  }

  @Test
  void countingResumesWhenMemcachedIsBack() {
    Counters counters = frontend(b -> b.source(key -> 40).settings(SHORT_WINDOW));
    counters.viewed("article:1");
    backend().down();
    assertEquals(42, counters.viewed("article:1"), "41 seen, and this view");

    backend().up();

    Eventually.assertWithin(RECOVERY, "the kept view sent", counters::pushNow);
    assertEquals(43, counters.viewed("article:1"), "counting again, the outage's view included");
    counters.visit("reader");
    clock.advance(Duration.ofSeconds(2));
    assertEquals(1, counters.online());
  }

  @Test
  void viewsCountedWhileMemcachedIsDownStillReachTheSink() {
    ViewFlusherTest.RecordingSink sink = new ViewFlusherTest.RecordingSink();
    Counters counters = frontend(b -> b.sink(sink));
    counters.viewed("article:1");
    backend().down();
    for (int i = 0; i < 4; i++) {
      counters.viewed("article:1");
    }

    counters.close();

    assertEquals(Map.of("article:1", 5L), sink.total());
  }

  @Test
  void aggregatedViewsWaitForMemcachedAndArriveWhenItIsBack() {
    Counters counters = frontend(b -> b.source(key -> 10)
        .settings(CountersSettings.builder().localAggregation(Duration.ofMinutes(1)).build()));
    counters.viewed("article:1");
    counters.flushNow();
    backend().down();
    for (int i = 0; i < 4; i++) {
      counters.viewed("article:1");
    }
    assertEquals(16, counters.viewed("article:1"), "last known plus the views kept here");
    counters.flushNow(); // refused: the sums stay

    backend().up();

    Eventually.assertWithin(RECOVERY, "the kept views sent", counters::flushNow);
    Counters direct = frontend(b -> b.source(key -> 10));
    assertEquals(16, direct.views("article:1"));
  }
}
