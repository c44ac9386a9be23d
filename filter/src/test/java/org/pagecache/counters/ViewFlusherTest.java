package org.pagecache.counters;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.pagecache.testing.Eventually;

class ViewFlusherTest {
  /** Long enough that only the test flushes, unless it asks for the schedule. */
  private static final Duration MANUAL = Duration.ofHours(1);

  /** A sink that records each batch it accepted, and the id of every offer; fails while told to. */
  static final class RecordingSink implements CountSink {
    final List<Map<String, Long>> batches = new CopyOnWriteArrayList<>();
    final List<String> offeredIds = new CopyOnWriteArrayList<>();
    final AtomicBoolean failing = new AtomicBoolean();
    final AtomicInteger refused = new AtomicInteger();

    @Override
    public void flush(Map<String, Long> increments) {
      flush("unnamed", increments);
    }

    @Override
    public void flush(String batchId, Map<String, Long> increments) {
      offeredIds.add(batchId);
      if (failing.get()) {
        refused.incrementAndGet();
        throw new IllegalStateException("database unavailable");
      }
      batches.add(Map.copyOf(increments));
    }

    Map<String, Long> total() {
      Map<String, Long> sum = new HashMap<>();
      batches.forEach(b -> b.forEach((k, v) -> sum.merge(k, v, Long::sum)));
      return sum;
    }
  }

  @Test
  void countedViewsReachTheSinkOnceSummedPerObject() {
    RecordingSink sink = new RecordingSink();
    try (ViewFlusher flusher = new ViewFlusher(sink, MANUAL, Clock.systemUTC())) {
      record(flusher, "article:1", 3);
      record(flusher, "article:2", 2);

      assertTrue(flusher.flushNow());
      assertTrue(flusher.flushNow());

      assertEquals(List.of(Map.of("article:1", 3L, "article:2", 2L)), sink.batches);
    }
  }

  @Test
  void aFailingSinkGetsTheSameBatchAgainUnderTheSameIdAndLaterViewsAsTheNextBatch() {
    RecordingSink sink = new RecordingSink();
    try (ViewFlusher flusher = new ViewFlusher(sink, MANUAL, Clock.systemUTC())) {
      record(flusher, "article:1", 3);
      sink.failing.set(true);
      assertFalse(flusher.flushNow());
      assertFalse(flusher.flushNow());

      record(flusher, "article:1", 1);
      assertEquals(4, flusher.pendingViews());
      sink.failing.set(false);
      assertTrue(flusher.flushNow());
      assertTrue(flusher.flushNow());

      assertEquals(List.of(Map.of("article:1", 3L), Map.of("article:1", 1L)), sink.batches);
      List<String> ids = sink.offeredIds;
      assertEquals(4, ids.size(), ids.toString());
      assertEquals(List.of(ids.get(0), ids.get(0)), List.of(ids.get(1), ids.get(2)), "a retry keeps its id");
      assertNotEquals(ids.get(0), ids.get(3), "a new batch has a new id");
      assertEquals(0, flusher.pendingViews());
    }
  }

  @Test
  void aSinkThatCommittedButThrewRecognisesTheRetriedBatchByItsId() {
    Map<String, Long> database = new HashMap<>();
    Set<String> applied = new HashSet<>();
    AtomicBoolean answerLost = new AtomicBoolean(true);
    CountSink sink = CountSink.withBatchIds((batchId, increments) -> {
      if (applied.add(batchId)) { // one transaction: the id and the increments
        increments.forEach((k, v) -> database.merge(k, v, Long::sum));
      }
      if (answerLost.getAndSet(false)) {
        throw new IllegalStateException("connection reset after commit");
      }
    });
    try (ViewFlusher flusher = new ViewFlusher(sink, MANUAL, Clock.systemUTC())) {
      record(flusher, "article:1", 3);
      assertFalse(flusher.flushNow());
      record(flusher, "article:1", 2);

      assertTrue(flusher.flushNow());

      assertEquals(Map.of("article:1", 5L), database, "3 once, not twice, plus the 2 after");
      assertEquals(2, applied.size());
    }
  }

  @Test
  void batchIdsOfDifferentFlushersNeverMeet() {
    RecordingSink a = new RecordingSink();
    RecordingSink b = new RecordingSink();
    try (ViewFlusher one = new ViewFlusher(a, MANUAL, Clock.systemUTC());
        ViewFlusher other = new ViewFlusher(b, MANUAL, Clock.systemUTC())) {
      record(one, "article:1", 1);
      record(other, "article:1", 1);
      one.flushNow();
      other.flushNow();

      assertNotEquals(a.offeredIds.get(0), b.offeredIds.get(0));
      assertTrue(a.offeredIds.get(0).length() <= 64, a.offeredIds.get(0));
    }
  }

  @Test
  void viewsCountedWhileAFlushIsInFlightGoWithTheNextFlush() throws Exception {
    CountDownLatch inFlush = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    RecordingSink recorded = new RecordingSink();
    CountSink slowSink = increments -> {
      inFlush.countDown();
      assertTrue(release.await(10, TimeUnit.SECONDS));
      recorded.flush(increments);
    };
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try (ViewFlusher flusher = new ViewFlusher(slowSink, MANUAL, Clock.systemUTC())) {
      record(flusher, "article:1", 5);
      Future<Boolean> first = pool.submit(flusher::flushNow);
      assertTrue(inFlush.await(10, TimeUnit.SECONDS));
      record(flusher, "article:1", 2); // during the flush
      record(flusher, "article:9", 1);
      release.countDown();
      assertTrue(first.get(10, TimeUnit.SECONDS));

      assertTrue(flusher.flushNow());
      assertEquals(List.of(Map.of("article:1", 5L), Map.of("article:1", 2L, "article:9", 1L)), recorded.batches);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void underConcurrentViewsAndScheduledFlushesEveryViewArrivesExactlyOnce() throws Exception {
    RecordingSink sink = new RecordingSink();
    ViewFlusher flusher = new ViewFlusher(sink, Duration.ofMillis(5), Clock.systemUTC());
    AtomicBoolean stop = new AtomicBoolean();
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<Long>> counted = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        counted.add(pool.submit(() -> {
          long views = 0;
          while (!stop.get()) {
            flusher.record("article:" + (views % 3), 1);
            views++;
          }
          return views;
        }));
      }
      // Let the schedule flush, fail and flush again while views keep coming.
      Eventually.assertWithin(Duration.ofSeconds(10), "two flushes", () -> sink.batches.size() >= 2);
      sink.failing.set(true);
      Eventually.assertWithin(Duration.ofSeconds(10), "refused flushes", () -> sink.refused.get() >= 2);
      sink.failing.set(false);
      int before = sink.batches.size();
      Eventually.assertWithin(Duration.ofSeconds(10), "flushes after the failures", () -> sink.batches.size() >= before + 2);
      stop.set(true);
      long total = 0;
      for (Future<Long> f : counted) {
        total += f.get(10, TimeUnit.SECONDS);
      }
      flusher.close(); // the last flush

      assertEquals(0, flusher.pendingViews());
      assertEquals(total, sink.total().values().stream().mapToLong(Long::longValue).sum());
    } finally {
      stop.set(true);
      pool.shutdownNow();
    }
  }

  @Test
  void theScheduleFlushesWithoutBeingAsked() {
    RecordingSink sink = new RecordingSink();
    try (ViewFlusher flusher = new ViewFlusher(sink, Duration.ofMillis(20), Clock.systemUTC())) {
      record(flusher, "article:1", 2);

      Eventually.assertWithin(Duration.ofSeconds(5), "a scheduled flush", () -> !sink.batches.isEmpty());
      assertEquals(Map.of("article:1", 2L), sink.total());
    }
  }

  @Test
  void closingFlushesWhatIsLeft() {
    RecordingSink sink = new RecordingSink();
    ViewFlusher flusher = new ViewFlusher(sink, MANUAL, Clock.systemUTC());
    record(flusher, "article:1", 1);

    flusher.close();

    assertEquals(Map.of("article:1", 1L), sink.total());
  }

  @Test
  void withoutASinkNothingIsKept() {
    try (ViewFlusher flusher = new ViewFlusher(CountSink.NONE, MANUAL, Clock.systemUTC())) {
      record(flusher, "article:1", 1_000);

      assertEquals(0, flusher.pendingViews());
    }
  }

  private static void record(ViewFlusher flusher, String objectKey, int views) {
    for (int i = 0; i < views; i++) {
      flusher.record(objectKey, 1);
    }
  }
}
