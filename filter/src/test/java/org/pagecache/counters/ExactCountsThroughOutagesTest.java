package org.pagecache.counters;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.pagecache.testing.Eventually;
import org.pagecache.testing.MemcachedExtension;

/**
 * A count equals the views made, whatever the order of a memcached outage, a flush to the
 * database, memcached coming back (empty after a restart, or with its old counts after a hang)
 * and a JVM restart. Real memcached: stopped and started again, or frozen with SIGSTOP and
 * thawed. The database records every batch it is given and is where counters start from.
 *
 * <p>The story of issue 22: 3 views, memcached stops, 5 views (the database gets them), memcached
 * starts again empty, 4 views: the count must be 12, as in the database, not 17.
 */
class ExactCountsThroughOutagesTest extends CountersFixture {
  @RegisterExtension
  static final MemcachedExtension MEMCACHED = MemcachedExtension.nodes(1);
  private static final String ARTICLE = "article:20";
  /** Pushes and flushes happen when the test says so. */
  private static final CountersSettings AGGREGATED = CountersSettings.builder()
      .localAggregation(Duration.ofMinutes(1)).flushInterval(Duration.ofDays(1)).build();
  private static final CountersSettings DIRECT = CountersSettings.builder()
      .flushInterval(Duration.ofDays(1)).build();
  private static final Duration RECOVERY = FailOpenContract.RECOVERY;

  private final Backend backend = new MemcachedBackend(MEMCACHED);
  private final RecordingDatabase database = new RecordingDatabase();

  @Override
  Backend backend() {
    return backend;
  }

  @Test
  void viewsFlushedDuringAnOutageAreNotCountedAgainWhenMemcachedComesBackEmpty() {
    Counters counters = frontendWith(AGGREGATED);
    view(counters, 3);
    assertTrue(counters.flushNow());

    backend.down();
    outageLasts();
    assertEquals(8, view(counters, 5), "the outage's views show on this frontend");
    assertFalse(counters.pushNow(), "memcached refuses them");
    assertTrue(counters.flushToSinkNow(), "the database takes them");
    assertEquals(8, database.views(ARTICLE));
    backend.up();
    sentOnceBack(counters);
    view(counters, 4);

    assertExactly(12, counters);
  }

  @Test
  void viewsNotYetFlushedWhenMemcachedComesBackEmptyAreCountedOnce() {
    Counters counters = frontendWith(AGGREGATED);
    view(counters, 3);
    assertTrue(counters.flushNow());

    backend.down();
    outageLasts();
    view(counters, 5);
    assertFalse(counters.pushNow(), "memcached refuses them");
    backend.up();
    sentOnceBack(counters);
    assertEquals(3, database.views(ARTICLE), "not flushed yet");

    assertExactly(8, counters);
  }

  @Test
  void viewsFlushedDuringAHangReachTheCountMemcachedKeptOnce() {
    Counters counters = frontendWith(AGGREGATED);
    view(counters, 3);
    assertTrue(counters.flushNow());

    MEMCACHED.node(0).pause();
    view(counters, 5);
    assertFalse(counters.pushNow(), "memcached hangs: the incr times out, and is applied later");
    assertTrue(counters.flushToSinkNow(), "the database takes them");
    assertEquals(8, database.views(ARTICLE));
    MEMCACHED.node(0).resume();
    sentOnceBack(counters);

    assertExactly(8, counters);
  }

  @Test
  void viewsNotFlushedDuringAHangReachTheCountMemcachedKeptOnce() {
    Counters counters = frontendWith(AGGREGATED);
    view(counters, 3);
    assertTrue(counters.flushNow());

    MEMCACHED.node(0).pause();
    view(counters, 5);
    assertFalse(counters.pushNow(), "memcached hangs: the incr times out, and is applied later");
    MEMCACHED.node(0).resume();
    sentOnceBack(counters);
    assertEquals(3, database.views(ARTICLE), "not flushed yet");

    assertExactly(8, counters);
  }

  @Test
  void aJvmRestartedDuringTheOutageLeavesItsViewsInTheDatabaseAndTheNextStartsFromThem() {
    Counters before = frontendWith(AGGREGATED);
    view(before, 3);
    assertTrue(before.flushNow());
    backend.down();
    outageLasts();
    view(before, 5);

    before.close();
    assertEquals(8, database.views(ARTICLE), "a normal shutdown flushes");
    backend.up();
    Counters after = frontendWith(AGGREGATED);
    Eventually.assertWithin(RECOVERY, "memcached answers the new JVM", () -> after.views(ARTICLE) == 8);
    assertEquals(9, view(after, 1));

    assertExactly(9, after);
  }

  @Test
  void withoutLocalAggregationViewsFlushedDuringAnOutageAreNotCountedAgain() {
    Counters counters = frontendWith(DIRECT);
    view(counters, 3);

    backend.down();
    outageLasts();
    assertEquals(8, view(counters, 5), "the outage's views show on this frontend");
    assertTrue(counters.flushToSinkNow(), "the database takes them");
    backend.up();
    sentOnceBack(counters);
    assertEquals(9, view(counters, 1));

    assertExactly(9, counters);
  }

  @Test
  void withoutLocalAggregationViewsMadeDuringAHangReachTheCountMemcachedKeptOnce() {
    Counters counters = frontendWith(DIRECT);
    view(counters, 3);

    MEMCACHED.node(0).pause();
    assertEquals(8, view(counters, 5), "the first incr times out, and is applied later");
    assertTrue(counters.flushToSinkNow(), "the database takes them");
    MEMCACHED.node(0).resume();
    sentOnceBack(counters);
    assertEquals(9, view(counters, 1));

    assertExactly(9, counters);
  }

  @Test
  void aCounterRebuiltWhileABatchIsWithTheDatabaseWaitsForItsAnswer() throws Exception {
    CountDownLatch committed = new CountDownLatch(1);
    CountDownLatch answer = new CountDownLatch(1);
    database.afterCommit = () -> {
      committed.countDown();
      await(answer);
    };
    Counters counters = frontendWith(CountersSettings.builder()
        .localAggregation(Duration.ofMinutes(1)).flushInterval(Duration.ofMillis(10)).build());
    view(counters, 5); // the first view creates the counter in memcached
    assertTrue(committed.await(10, TimeUnit.SECONDS), "the scheduled flush committed");
    assertTrue(store().delete(namespace.views(ARTICLE)), "memcached loses the counter");

    AtomicReference<Thread> reader = new AtomicReference<>();
    CompletableFuture<Long> shown = CompletableFuture.supplyAsync(() -> {
      reader.set(Thread.currentThread());
      return counters.views(ARTICLE);
    });
    Eventually.assertWithin(Duration.ofSeconds(10), "the rebuild waits for the database's answer",
        () -> reader.get() != null && reader.get().getState() == Thread.State.BLOCKED);
    answer.countDown();

    assertEquals(5, shown.get(10, TimeUnit.SECONDS), "the committed batch counts once");
    assertExactly(5, counters);
  }

  private Counters frontendWith(CountersSettings settings) {
    return frontend(b -> b.source(database).sink(database).settings(settings));
  }

  /**
   * The outage lasts longer than this JVM trusts the count it last saw, so a counter found
   * missing afterwards starts from the database, not from that count.
   */
  private void outageLasts() {
    clock.advance(Duration.ofSeconds(15));
  }

  private static long view(Counters counters, int views) {
    long shown = -1;
    for (int i = 0; i < views; i++) {
      shown = counters.viewed(ARTICLE);
    }
    return shown;
  }

  /** The kept views go to memcached once it answers (a client reconnects within seconds). */
  private static void sentOnceBack(Counters counters) {
    Eventually.assertWithin(RECOVERY, "the kept views sent", counters::pushNow);
  }

  /** The database, this frontend and a frontend that starts now all say {@code views}. */
  private void assertExactly(long views, Counters counters) {
    assertTrue(counters.flushNow());
    assertEquals(views, database.views(ARTICLE), "the database");
    assertEquals(views, counters.views(ARTICLE), "this frontend");
    assertEquals(views, frontend(b -> b.source(database)).views(ARTICLE), "another frontend");
  }

  private static void await(CountDownLatch latch) {
    try {
      latch.await(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
