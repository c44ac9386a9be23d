package org.pagecache.counters;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.pagecache.store.Store;
import org.pagecache.testing.Concurrently;

/** The view counter's behaviour, for every backend. */
abstract class ViewCounterContract extends CountersFixture {
  private static final Duration LIMIT = Duration.ofSeconds(20);

  @Test
  void firstViewStartsFromTheSourceAndEachViewAddsOne() {
    Counters counters = frontend(b -> b.source(key -> 500));

    assertEquals(501, counters.viewed("article:42"));
    assertEquals(502, counters.viewed("article:42"));
    assertEquals(502, counters.views("article:42"));
  }

  @Test
  void thousandConcurrentViewsThroughTwoFrontendsEndAtExactly1500() throws Exception {
    AtomicInteger loads = new AtomicInteger();
    CountSource source = key -> {
      loads.incrementAndGet();
      return 500;
    };
    List<Counters> frontends = List.of(frontend(b -> b.source(source)), frontend(b -> b.source(source)));
    int threads = 50;
    int viewsPerThread = 20;
    Concurrently.run(threads, LIMIT, t -> {
      Counters frontend = frontends.get(t % 2);
      for (int i = 0; i < viewsPerThread; i++) {
        frontend.viewed("article:42");
      }
      return null;
    });

    assertEquals(1500, frontends.get(0).views("article:42"));
    assertEquals(1500, frontends.get(1).views("article:42"));
    // One load per frontend at most, however many threads found the counter missing together.
    assertTrue(loads.get() <= 2, "source loads: " + loads.get());
  }

  @Test
  void fiftyReadersFindingTheCounterMissingTogetherCauseOneLoad() throws Exception {
    AtomicInteger loads = new AtomicInteger();
    Counters counters = frontend(b -> b.source(key -> {
      loads.incrementAndGet();
      return 500;
    }).sink(increments -> {}));

    Concurrently.run(50, LIMIT, t -> {
      assertEquals(500, counters.views("article:77"));
      return null;
    });

    assertEquals(1, loads.get(), "source loads");
  }

  @Test
  void twoFrontendsFindingTheCounterMissingAtOnceLoseNoView() throws Exception {
    CountDownLatch bothLoading = new CountDownLatch(2);
    CountSource source = key -> {
      bothLoading.countDown();
      // Hold each frontend inside its load until the other is there too: both saw the key missing.
      if (!bothLoading.await(LIMIT.toSeconds(), TimeUnit.SECONDS)) {
        throw new IllegalStateException("the other frontend never loaded");
      }
      return 500;
    };
    Counters a = frontend(b -> b.source(source));
    Counters b = frontend(x -> x.source(source));
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      Future<Long> fromA = pool.submit(() -> a.viewed("article:7"));
      Future<Long> fromB = pool.submit(() -> b.viewed("article:7"));
      long first = fromA.get(LIMIT.toSeconds(), TimeUnit.SECONDS);
      long second = fromB.get(LIMIT.toSeconds(), TimeUnit.SECONDS);

      assertEquals(0, bothLoading.getCount(), "both frontends loaded the start value");
      assertEquals(List.of(501L, 502L), List.of(Math.min(first, second), Math.max(first, second)));
      assertEquals(502, a.views("article:7"));
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void readingNeverCounts() {
    Counters counters = frontend(b -> b.source(key -> 10));

    assertEquals(10, counters.views("photo/9"));
    assertEquals(10, counters.views("photo/9"));
    assertEquals(11, counters.viewed("photo/9"));
    assertEquals(Map.of("photo/9", 11L, "photo/10", 10L), counters.views(List.of("photo/9", "photo/10")));
    assertEquals(11, counters.views("photo/9"));
  }

  @Test
  void severalCountsAreReadInOneRoundTrip() {
    Store store = store();
    Counters counters = frontend(store, b -> b.source(key -> 1));
    counters.viewed("a");
    counters.viewed("b");
    counters.viewed("c");
    long before = store.roundTrips();

    Map<String, Long> counts = counters.views(List.of("c", "a", "b"));

    assertEquals(List.of("c", "a", "b"), List.copyOf(counts.keySet()), "answers keep the order asked");
    assertEquals(List.of(2L, 2L, 2L), List.copyOf(counts.values()));
    assertEquals(1, store.roundTrips() - before);
  }

  @Test
  void aReadCostsOneMultiGetPlusALoadAndAnAddPerMissingCounter() {
    AtomicInteger loads = new AtomicInteger();
    Store store = store();
    Counters counters = frontend(store, b -> b.source(key -> {
      loads.incrementAndGet();
      return 7;
    }));
    counters.viewed("present");
    loads.set(0);
    long before = store.roundTrips();

    assertEquals(Map.of("present", 8L, "missing:1", 7L, "missing:2", 7L),
        counters.views(List.of("present", "missing:1", "missing:2")));
    assertEquals(3, store.roundTrips() - before, "one multi-get, one add per missing counter");
    assertEquals(2, loads.get());

    before = store.roundTrips();
    counters.views(List.of("present", "missing:1", "missing:2"));
    assertEquals(1, store.roundTrips() - before, "the read created them: one multi-get");
    assertEquals(2, loads.get());
  }

  @Test
  void aCounterThatVanishesComesBackAtTheCountLastSeenWithoutAskingTheSource() {
    AtomicLong database = new AtomicLong(100);
    AtomicInteger loads = new AtomicInteger();
    Store store = store();
    Counters counters = frontend(store, b -> b.source(key -> {
      loads.incrementAndGet();
      return database.get();
    }));
    for (int i = 0; i < 5; i++) {
      counters.viewed("article:1");
    }
    store.delete(namespace.views("article:1")); // evicted
    clock.advance(Duration.ofMillis(500));

    assertEquals(106, counters.viewed("article:1"), "seen half a second ago: trusted");
    assertEquals(1, loads.get());
  }

  @Test
  void aVanishedCounterLastSeenMoreThanASecondAgoIsReloadedWithOtherFrontendsViews() {
    AtomicLong database = new AtomicLong(100);
    Store store = store();
    Counters here = frontend(store, b -> b.source(key -> database.get()));
    Counters elsewhere = frontend(b -> b.source(key -> database.get()));
    assertEquals(101, here.viewed("article:1"));
    clock.advance(Duration.ofSeconds(2));
    for (int i = 0; i < 50; i++) {
      elsewhere.viewed("article:1");
    }
    store.delete(namespace.views("article:1")); // evicted
    database.set(151); // every frontend's flush reached the database meanwhile

    assertEquals(152, here.viewed("article:1"), "not 102 from a count two seconds old");
  }

  @Test
  void afterConcurrentViewsAVanishedCounterComesBackAtTheHighestCountSeen() throws Exception {
    Store store = store();
    Counters counters = frontend(store, b -> b.source(key -> 0));
    int threads = 8;
    int viewsPerThread = 200;
    Concurrently.run(threads, LIMIT, t -> {
      for (int i = 0; i < viewsPerThread; i++) {
        counters.viewed("article:8");
      }
      return null;
    });
    store.delete(namespace.views("article:8"));

    // Threads record their incr results out of order; the last seen count must not go back.
    assertEquals(threads * viewsPerThread + 1, counters.viewed("article:8"));
  }

  @Test
  void objectKeysOfAnyTextAreCounted() {
    Counters counters = frontend(b -> b);
    String hostile = "статья 42 <script>\r\n" + "x".repeat(300);

    assertEquals(1, counters.viewed(hostile));
    assertEquals(2, counters.viewed(hostile));
    assertEquals(1, counters.viewed("статья 43"));
  }
}
