package org.pagecache.counters;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class CountersSettingsTest {

  @Test
  void defaultsAreTheArticlesFiveMinutesOverSixOneMinuteBuckets() {
    CountersSettings s = CountersSettings.DEFAULTS;

    assertEquals(Duration.ofDays(1), s.ttl());
    assertEquals(Duration.ofMinutes(5), s.window());
    assertEquals(6, s.buckets());
    assertEquals(Duration.ofMinutes(1), s.bucketLength());
    assertFalse(s.localAggregationEnabled());
    assertEquals(Duration.ofMinutes(1), s.flushInterval());
    assertEquals(Duration.ofSeconds(1), s.onlineCacheFor());
  }

  @Test
  void theTwoBucketVariantShowsOneWholeWindow() {
    CountersSettings s = CountersSettings.builder().buckets(2).build();

    assertEquals(Duration.ofMinutes(5), s.bucketLength());
  }

  @Test
  void anInvalidValueIsNamedWithItsSettingAndValue() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> CountersSettings.builder().window(Duration.ZERO).build());

    assertEquals("counters.window: '0s' must be between 1s and 1d", e.getMessage());
  }

  @Test
  void everyMistakeIsReportedAtOnce() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> CountersSettings.builder().ttl(Duration.ofDays(40)).buckets(1)
            .flushInterval(Duration.ofMillis(1)).localAggregation(Duration.ofMinutes(5)).build());

    assertEquals("counters.ttl: '40d' must be between 1s and 30d (memcached reads longer times as dates); "
        + "counters.buckets: '1' must be 6 (five shown one-minute buckets), 2 (the minimal variant) "
        + "or another count from 2 to 60; "
        + "counters.local-aggregation: '5m' must be between 10ms and 1m or 0s (off); "
        + "counters.flush-interval: '1ms' must be between 10ms and 1d", e.getMessage());
  }

  @Test
  void aWindowMustSplitIntoWholeBucketsOfAtLeastOneSecond() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> CountersSettings.builder().window(Duration.ofSeconds(3)).build());

    assertEquals("counters.window: '3s' must split into 5 buckets of whole milliseconds, each at least 1s"
        + " (buckets=6)", e.getMessage());
  }

  @Test
  void theOnlineCountIsCachedForAtMostOneBucket() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> CountersSettings.builder().window(Duration.ofSeconds(10)).onlineCacheFor(Duration.ofSeconds(3)).build());

    assertEquals("counters.online-cache-for: '3s' must be at most one bucket (2s)", e.getMessage());
  }

  @Test
  void aOneLineSpecSetsWhatItNamesAndKeepsTheRest() {
    CountersSettings s = CountersSettings.parse("window=10s, buckets=2, local-aggregation=500ms,flush-interval=30s");

    assertEquals(Duration.ofSeconds(10), s.window());
    assertEquals(2, s.buckets());
    assertTrue(s.localAggregationEnabled());
    assertEquals(Duration.ofMillis(500), s.localAggregation());
    assertEquals(Duration.ofSeconds(30), s.flushInterval());
    assertEquals(Duration.ofDays(1), s.ttl());
    assertFalse(CountersSettings.parse("local-aggregation=off").localAggregationEnabled());
    assertEquals(Duration.ofSeconds(2), CountersSettings.parse("localAggregation=2s, flushInterval=3s, onlineCacheFor=0s")
        .localAggregation(), "the camelCase names of earlier versions are still read");
  }

  @Test
  void aSpecWithWordsInsteadOfDurationsOrUnknownNamesIsRejectedWithBoth() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> CountersSettings.parse("window=5 minutes, bukets=6, buckets=six"));

    assertEquals("counters.window: '5 minutes' is not a duration; use a number with ms, s, m, h or d, e.g. 500ms, 30s, 5m, 1h; "
        + "counters: unknown setting 'bukets'; use ttl, window, buckets, local-aggregation, flush-interval, "
        + "online-cache-for; counters.buckets: 'six' is not a number; use 6 or 2", e.getMessage());
  }
}
