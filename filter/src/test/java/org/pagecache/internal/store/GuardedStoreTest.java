package org.pagecache.internal.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.pagecache.store.LocalStore;
import org.pagecache.store.StoreException;
import org.pagecache.testing.Concurrently;
import org.pagecache.testing.FaultyStore;
import org.pagecache.testing.MutableClock;

/** The circuit breaker's rules, on a clock the test moves and a store it breaks on purpose. */
class GuardedStoreTest {
  private static final long RETRY_MILLIS = 1000;
  private static final byte[] VALUE = "v".getBytes(StandardCharsets.US_ASCII);

  private final MutableClock clock = new MutableClock();
  private final LocalStore backing = new LocalStore(clock, 1 << 20);
  private final AtomicBoolean broken = new AtomicBoolean();
  private final AtomicInteger reached = new AtomicInteger();
  private final GuardedStore guarded = new GuardedStore(new FaultyStore(backing, () -> {
    reached.incrementAndGet();
    return broken.get();
  }), clock, RETRY_MILLIS);

  @Test
  void oneFailedCallIsNotAnOutage() {
    backing.set("k", VALUE, 60);
    broken.set(true);
    assertThrows(StoreException.class, () -> guarded.get("k"));
    broken.set(false);

    assertArrayEquals(VALUE, guarded.get("k"), "the next call still reaches the store");
    assertFalse(guarded.isDown());
  }

  @Test
  void failuresSeparatedBySuccessesNeverOpenTheCircuit() {
    // One node of three dead: some calls fail, the others succeed in between.
    backing.set("k", VALUE, 60);
    for (int i = 0; i < 30; i++) {
      broken.set(i % 3 != 2);
      try {
        guarded.get("k");
      } catch (StoreException expected) {
        // the dead node's call
      }
      assertFalse(guarded.isDown(), "after call " + i);
    }
  }

  @Test
  void failuresInARowOpenTheCircuitAndCallsThenFailWithoutReachingTheStore() {
    broken.set(true);
    for (int i = 0; i < GuardedStore.OPENS_AFTER; i++) {
      assertThrows(StoreException.class, () -> guarded.get("k"));
    }
    assertTrue(guarded.isDown());
    int reachedWhenOpened = reached.get();

    broken.set(false);
    for (int i = 0; i < 100; i++) {
      assertThrows(StoreException.class, () -> guarded.get("k"));
    }
    assertEquals(reachedWhenOpened, reached.get(), "an open circuit fails fast, without a call to the store");
  }

  @Test
  void anOutageMetByManyThreadsAtOnceIsLoggedOnce() {
    int threads = 32;
    CountDownLatch allInside = new CountDownLatch(threads);
    // Every thread's call is inside the store when they all fail together, as when memcached
    // stops answering under load and each in-flight call times out at the same moment.
    GuardedStore store = new GuardedStore(new FaultyStore(backing, () -> {
      allInside.countDown();
      try {
        allInside.await(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return true;
    }), clock, RETRY_MILLIS);

    Concurrently.run(threads, Duration.ofSeconds(20), i -> {
      try {
        store.get("k");
      } catch (StoreException expected) {
        // the store is broken
      }
      return null;
    });

    assertTrue(store.isDown());
    assertEquals(1, store.outagesLogged(), "one line for the outage, not one per thread that met it");
  }

  @Test
  void afterTheRetryIntervalOneCallProbesAndASuccessClosesTheCircuit() {
    open();
    broken.set(false);
    clock.advance(Duration.ofMillis(RETRY_MILLIS));
    int before = reached.get();

    assertEquals(null, guarded.get("absent"), "the probe reaches the store");
    assertEquals(before + 1, reached.get());
    assertFalse(guarded.isDown());
    guarded.set("k", VALUE, 60);
    assertArrayEquals(VALUE, guarded.get("k"));
  }

  @Test
  void aFailedProbeKeepsTheCircuitOpenForAnotherInterval() {
    open();
    clock.advance(Duration.ofMillis(RETRY_MILLIS));
    assertThrows(StoreException.class, () -> guarded.get("k"), "the probe fails");
    int afterProbe = reached.get();

    broken.set(false);
    clock.advance(Duration.ofMillis(RETRY_MILLIS - 1));
    assertThrows(StoreException.class, () -> guarded.get("k"));
    assertEquals(afterProbe, reached.get(), "no second probe within the interval");
    clock.advance(Duration.ofMillis(1));
    assertEquals(null, guarded.get("k"));
    assertFalse(guarded.isDown());
  }

  @Test
  void refusedCallsAreCountedAsFailures() {
    open();
    long before = guarded.failures();
    assertThrows(StoreException.class, () -> guarded.get("k"));
    assertEquals(before + 1, guarded.failures());
  }

  private void open() {
    broken.set(true);
    for (int i = 0; i < GuardedStore.OPENS_AFTER; i++) {
      assertThrows(StoreException.class, () -> guarded.get("k"));
    }
    assertTrue(guarded.isDown());
  }
}
