package org.pagecache.counters;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.pagecache.store.Store;
import org.pagecache.store.StoreException;
import org.pagecache.testing.Eventually;

/**
 * The online counter, for every backend. Six buckets over a 10-second window make 2-second
 * buckets; the clock starts on a window boundary and only moves when a test moves it.
 */
abstract class OnlineCounterContract extends CountersFixture {
  private static final Duration BUCKET = Duration.ofSeconds(2);
  private static final CountersSettings SIX_BUCKETS = CountersSettings.builder()
      .window(Duration.ofSeconds(10)).buckets(6).onlineCacheFor(Duration.ZERO).build();

  @Test
  void thirtyVisitorsOnTenPagesEachThroughTwoFrontendsAreThirtyOnline() throws Exception {
    List<Counters> frontends = List.of(frontend(b -> b.settings(SIX_BUCKETS)), frontend(b -> b.settings(SIX_BUCKETS)));
    ExecutorService pool = Executors.newFixedThreadPool(30);
    CountDownLatch start = new CountDownLatch(1);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int v = 0; v < 30; v++) {
        String visitor = "visitor-" + v;
        done.add(pool.submit(() -> {
          start.await();
          for (int page = 0; page < 10; page++) {
            frontends.get(page % 2).visit(visitor); // no sticky sessions: both frontends see everyone
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

    assertEquals(0, frontends.get(0).online(), "the bucket being filled is not shown yet");
    clock.advance(BUCKET);
    assertEquals(30, frontends.get(0).online());
    assertEquals(30, frontends.get(1).online());
  }

  @Test
  void theCountFallsAsTheirBucketLeavesTheWindow() {
    Counters counters = frontend(b -> b.settings(SIX_BUCKETS));
    visitors(counters, "early", 20);
    clock.advance(BUCKET);
    visitors(counters, "later", 10);

    clock.advance(BUCKET);
    assertEquals(30, counters.online());
    clock.advance(BUCKET.multipliedBy(3));
    assertEquals(30, counters.online(), "still inside the 10-second window");
    clock.advance(BUCKET);
    assertEquals(10, counters.online(), "the first bucket left the window");
    clock.advance(BUCKET);
    assertEquals(0, counters.online());
  }

  @Test
  void aVisitorIsCountedOncePerWindowAndAgainAfterIt() {
    Counters counters = frontend(b -> b.settings(SIX_BUCKETS));
    counters.visit("reader");
    clock.advance(BUCKET.multipliedBy(4));
    counters.visit("reader"); // same window: already counted
    clock.advance(BUCKET);
    assertEquals(1, counters.online(), "once, not twice");

    counters.visit("reader"); // a new window: counted again, in the current bucket
    clock.advance(BUCKET);
    assertEquals(1, counters.online(), "still online though the first count left the window");
  }

  @Test
  void aVisitorActiveTheWholeTimeIsNeverCountedTwice() {
    List<Counters> frontends = List.of(frontend(b -> b.settings(SIX_BUCKETS)), frontend(b -> b.settings(SIX_BUCKETS)));
    clock.advance(BUCKET.multipliedBy(2)); // first seen in the middle of a clock-aligned window
    for (int i = 0; i < 16; i++) { // three windows and more, a request in every bucket
      frontends.get(i % 2).visit("reader");
      clock.advance(BUCKET);
      assertEquals(1, frontends.get(0).online(), "one reader, " + (i + 1) + " buckets after they came");
    }
  }

  @Test
  void aVisitorCountedElsewhereCostsThisFrontendOneLookupThenNothing() {
    Store store = store();
    Counters counted = frontend(b -> b.settings(SIX_BUCKETS));
    Counters other = frontend(store, b -> b.settings(SIX_BUCKETS));
    counted.visit("reader");
    long before = store.roundTrips();

    for (int i = 0; i < 10; i++) {
      other.visit("reader");
    }
    assertEquals(2, store.roundTrips() - before, "a failed add and a gets, once");
    clock.advance(BUCKET);
    assertEquals(1, other.online());
  }

  @Test
  void aVisitorWhoseCountFailedAfterTheirMarkIsCountedByTheirNextRequest() {
    AtomicBoolean incrFails = new AtomicBoolean(true);
    OnlineCounter online = new OnlineCounter(failingIncr(store(), incrFails), namespace, SIX_BUCKETS, clock);

    assertThrows(StoreException.class, () -> online.visit("reader"));
    incrFails.set(false);
    online.visit("reader");
    clock.advance(BUCKET);

    assertEquals(1, online.count());
  }

  /** The real store, except that its incr fails while told to: a failure between add and incr. */
  private static Store failingIncr(Store real, AtomicBoolean fails) {
    return (Store) Proxy.newProxyInstance(Store.class.getClassLoader(), new Class<?>[] {Store.class},
        (proxy, method, args) -> {
          if (method.getName().equals("incr") && fails.get()) {
            throw new StoreException("test: incr failed");
          }
          try {
            return method.invoke(real, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
        });
  }

  @Test
  void theTwoBucketVariantShowsThePreviousWholeWindow() {
    Counters counters = frontend(b -> b.settings(CountersSettings.builder()
        .window(Duration.ofSeconds(4)).buckets(2).onlineCacheFor(Duration.ZERO).build()));
    visitors(counters, "a", 3);
    clock.advance(Duration.ofSeconds(3));
    visitors(counters, "a", 4); // one new, three already counted this window
    assertEquals(0, counters.online());

    clock.advance(Duration.ofSeconds(1));
    visitors(counters, "a", 2);
    assertEquals(4, counters.online(), "the whole previous window, in one step");

    clock.advance(Duration.ofSeconds(4));
    assertEquals(2, counters.online());
    clock.advance(Duration.ofSeconds(4));
    assertEquals(0, counters.online());
  }

  @Test
  void theCountIsAskedOfMemcachedOncePerCachePeriod() {
    Store store = store();
    Counters counters = frontend(store, b -> b.settings(CountersSettings.builder()
        .window(Duration.ofSeconds(10)).onlineCacheFor(Duration.ofSeconds(1)).build()));
    visitors(counters, "v", 5);
    clock.advance(BUCKET);
    long before = store.roundTrips();

    for (int i = 0; i < 100; i++) {
      assertEquals(5, counters.online());
    }
    assertEquals(1, store.roundTrips() - before);
    clock.advance(Duration.ofSeconds(1));
    counters.online();
    assertEquals(2, store.roundTrips() - before);
  }

  @Test
  void aRepeatVisitCostsNoRoundTripOnTheFrontendThatCountedIt() {
    Store store = store();
    Counters counters = frontend(store, b -> b.settings(SIX_BUCKETS));
    counters.visit("regular");
    long before = store.roundTrips();

    for (int i = 0; i < 10; i++) {
      counters.visit("regular");
    }
    assertEquals(0, store.roundTrips() - before);
  }

  @Test
  void onTheRealClockTheCountRisesAfterOneBucketAndFallsAfterTheWindow() {
    Counters counters = frontend(b -> b.clock(Clock.systemUTC()).settings(CountersSettings.builder()
        .window(Duration.ofSeconds(1)).buckets(2).onlineCacheFor(Duration.ZERO).build()));
    visitors(counters, "live", 3);

    Eventually.assertWithin(Duration.ofSeconds(5), "3 online", () -> counters.online() == 3);
    Eventually.assertWithin(Duration.ofSeconds(5), "0 online", () -> counters.online() == 0);
  }

  private static void visitors(Counters counters, String prefix, int count) {
    for (int i = 0; i < count; i++) {
      counters.visit(prefix + i);
    }
  }
}
