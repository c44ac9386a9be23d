package org.pagecache.counters;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.pagecache.store.Store;
import org.pagecache.testing.Eventually;

/** Local aggregation: views summed per JVM, one {@code incr} per object per interval. */
abstract class LocalAggregationContract extends CountersFixture {
  /** So long that only the test pushes. */
  private static final CountersSettings PUSHED_BY_TEST =
      CountersSettings.builder().localAggregation(Duration.ofMinutes(1)).build();

  @Test
  void viewsAreShownAtOnceAndReachMemcachedWithTheNextPush() {
    Counters a = frontend(b -> b.source(key -> 100).settings(PUSHED_BY_TEST));
    Counters b = frontend(x -> x.source(key -> 100).settings(PUSHED_BY_TEST));
    Counters direct = frontend(x -> x.source(key -> 100));

    for (int i = 1; i <= 10; i++) {
      assertEquals(100 + i, a.viewed("article:1"), "each view shows at once on its frontend");
    }
    for (int i = 1; i <= 5; i++) {
      assertEquals(100 + i, b.viewed("article:1"));
    }
    assertEquals(100, direct.views("article:1"), "nothing sent yet");

    a.flushNow();
    assertEquals(110, direct.views("article:1"));
    assertEquals(115, b.views("article:1"), "what memcached has plus what b has not sent");
    b.flushNow();
    assertEquals(115, direct.views("article:1"));

    assertEquals(111, a.viewed("article:1"), "a lags by b's views since a's last push, no more");
    a.flushNow();
    assertEquals(117, a.viewed("article:1"));
    a.flushNow();
    assertEquals(117, direct.views("article:1"));
  }

  @Test
  void theFirstViewAfterAQuietSpellShowsTheCountOfNowNotOneHoursOld() {
    Store store = store();
    Counters aggregating = frontend(store, b -> b.source(key -> 100).settings(PUSHED_BY_TEST));
    Counters direct = frontend(b -> b.source(key -> 100));
    assertEquals(101, aggregating.viewed("article:5"));
    aggregating.flushNow();
    clock.advance(Duration.ofHours(2));
    for (int i = 0; i < 50; i++) {
      direct.viewed("article:5");
    }

    assertEquals(152, aggregating.viewed("article:5"), "read again, not 101 + 1");
    long before = store.roundTrips();
    clock.advance(Duration.ofSeconds(30));
    assertEquals(153, aggregating.viewed("article:5"), "seen within the interval: trusted");
    assertEquals(0, store.roundTrips() - before);
  }

  @Test
  void aPushAfterAQuietSecondCostsOneMultiGetAndAnIncrPerCounter() {
    Store store = store();
    Counters counters = frontend(store, b -> b.source(key -> 100).settings(PUSHED_BY_TEST));
    List<String> objects = List.of("article:1", "article:2", "article:3");
    objects.forEach(counters::viewed);
    counters.flushNow();
    clock.advance(ViewCounter.TRUST_LAST_SEEN.multipliedBy(2));
    objects.forEach(counters::viewed);
    long before = store.roundTrips();

    counters.flushNow();

    assertEquals(1 + objects.size(), store.roundTrips() - before);
    assertEquals(102, frontend(b -> b).views("article:2"));
  }

  @Test
  void aThousandViewsCostAFewRoundTripsAndAllArrive() throws Exception {
    Store store = store();
    Counters aggregating = frontend(store, b -> b.source(key -> 100)
        .settings(CountersSettings.builder().localAggregation(Duration.ofMillis(20)).build()));
    Counters direct = frontend(b -> b.source(key -> 100));
    long before = store.roundTrips();
    ExecutorService pool = Executors.newFixedThreadPool(10);
    CountDownLatch start = new CountDownLatch(1);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < 10; t++) {
        done.add(pool.submit(() -> {
          start.await();
          for (int i = 0; i < 100; i++) {
            aggregating.viewed("article:2");
          }
          return null;
        }));
      }
      start.countDown();
      for (Future<?> f : done) {
        f.get(20, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }

    Eventually.assertWithin(Duration.ofSeconds(5), "1000 views in memcached",
        () -> direct.views("article:2") == 1100);
    long roundTrips = store.roundTrips() - before;
    assertTrue(roundTrips < 100, "round trips for 1000 views: " + roundTrips);
    assertEquals(1100, aggregating.views("article:2"));
  }
}
