package org.pagecache.internal.freshness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.pagecache.store.LocalStore;
import org.pagecache.store.Namespace;
import org.pagecache.testing.Concurrently;
import org.pagecache.testing.MutableClock;

/**
 * The dog-pile lock on the in-process store, with a clock the tests move (so the renewal thread,
 * which runs on real time, never renews here: these tests see the lease alone).
 */
class RebuildLockTest {
  private static final int TTL_SECONDS = 30;
  private static final String PAGE = "ns2:p:article:abc";
  private static final long V = 1000;
  private final MutableClock clock = new MutableClock();
  private final LocalStore store = new LocalStore(clock, 1 << 20);
  private final RebuildLock lock = new RebuildLock(store, new Namespace("rl"), TTL_SECONDS);

  @AfterEach
  void close() {
    lock.close();
  }

  /** A lease taken an hour ago (real time, as leases are timed): its lock may have expired and passed on. */
  private RebuildLock.Lease lease(String owner) {
    return new RebuildLock.Lease(PAGE, lock.key(PAGE, V), owner, store, Long.MAX_VALUE,
        System.nanoTime() - TimeUnit.HOURS.toNanos(1));
  }

  @Test
  void theFirstRequestTakesTheLockAndTheNextAreRefused() {
    assertNotNull(lock.tryAcquire(PAGE, V, "a"));
    assertNull(lock.tryAcquire(PAGE, V, "b"));
    assertNull(lock.tryAcquire(PAGE, V, "a")); // not re-entrant: one build per page
    assertNotNull(lock.tryAcquire("ns2:p:article:other", V, "b")); // every page has its own lock
  }

  @Test
  void aRefreshNeverWaitsOnALockTakenUnderAnOlderVersion() {
    assertNotNull(lock.tryAcquire(PAGE, V, "before-the-refresh"));
    assertNotNull(lock.tryAcquire(PAGE, V + 1, "after-it"));
    assertNull(lock.tryAcquire(PAGE, V + 1, "another"));
  }

  @Test
  void theVersionIsTheNewestOfTheTokenAndTheTagVersions() {
    assertEquals(7, RebuildLock.version(7, List.of()));
    assertEquals(9, RebuildLock.version(7, List.of(3L, 9L)));
  }

  @Test
  void exactlyOneOfManyConcurrentRequestsTakesTheLock() {
    List<Boolean> won = Concurrently.run(16, Duration.ofSeconds(30), i -> lock.tryAcquire(PAGE, V, "owner-" + i) != null);
    assertEquals(1, won.stream().filter(w -> w).count());
  }

  @Test
  void theOwnersReleaseFreesTheLock() {
    RebuildLock.Lease a = lock.tryAcquire(PAGE, V, "a");
    assertEquals(1, lock.held());
    lock.release(a);
    assertEquals(0, lock.held(), "no longer renewed");
    assertNotNull(lock.tryAcquire(PAGE, V, "b"));
  }

  @Test
  void aLockGivenBackSoonAfterItWasTakenIsOneDeleteSentNoreplyWithoutRoundTrip() {
    RebuildLock.Lease a = lock.tryAcquire(PAGE, V, "a");
    long before = store.roundTrips();

    lock.release(a);

    assertEquals(0, store.roundTrips() - before, "no read of its owner, no answer waited for");
    assertNotNull(lock.tryAcquire(PAGE, V, "b"), "freed");
  }

  @Test
  void anOldLeaseReadsItsOwnerBeforeDeleting() {
    assertNotNull(lock.tryAcquire(PAGE, V, "a"));
    long before = store.roundTrips();

    lock.release(lease("a"));

    assertEquals(2, store.roundTrips() - before, "its owner read, then deleted");
    assertNotNull(lock.tryAcquire(PAGE, V, "b"), "freed");
  }

  @Test
  void aOneSecondLeaseIsNeverSurelyHeldSoItsOwnerIsAlwaysRead() {
    RebuildLock shortLock = new RebuildLock(store, new Namespace("rs"), 1);
    RebuildLock.Lease a = shortLock.tryAcquire(PAGE, V, "a");
    long before = store.roundTrips();

    shortLock.release(a);

    assertEquals(2, store.roundTrips() - before);
  }

  @Test
  void theSecondLookIsReadWithTheAddInOneRoundTrip() {
    store.set(PAGE, "the page".getBytes(java.nio.charset.StandardCharsets.US_ASCII), 0);
    long before = store.roundTrips();

    RebuildLock.Taken taken = lock.tryAcquireReading(PAGE, V, "a", List.of("rl:t:article", PAGE));

    assertEquals(1, store.roundTrips() - before);
    assertEquals(Set.of(PAGE), taken.readAfter().keySet());
    assertNull(lock.tryAcquireReading(PAGE, V, "b", List.of(PAGE)), "lost: nothing read for it");
  }

  @Test
  void aReleaseByAnotherOwnerDoesNothing() {
    assertNotNull(lock.tryAcquire(PAGE, V, "a"));
    lock.release(lease("b"));
    assertNull(lock.tryAcquire(PAGE, V, "c"));
  }

  @Test
  void aLockNotRenewedExpiresAfterItsLeaseSoADeadBuilderBlocksThePageOnlyThatLong() {
    RebuildLock crashed = new RebuildLock(store, new Namespace("rl"), TTL_SECONDS);
    assertNotNull(crashed.tryAcquire(PAGE, V, "crashed"));
    crashed.close(); // its JVM is gone: nobody renews
    clock.advance(Duration.ofSeconds(RebuildLock.LEASE_SECONDS - 1));
    assertNull(lock.tryAcquire(PAGE, V, "b"));
    clock.advance(Duration.ofSeconds(1));
    assertNotNull(lock.tryAcquire(PAGE, V, "b"));
  }

  @Test
  void aLockTtlShorterThanTheLeaseIsTheLockTtl() {
    RebuildLock shortLock = new RebuildLock(store, new Namespace("rs"), 1);
    assertNotNull(shortLock.tryAcquire(PAGE, V, "a"));
    assertEquals(0, shortLock.held(), "nothing to renew");
    clock.advance(Duration.ofSeconds(1));
    assertNotNull(shortLock.tryAcquire(PAGE, V, "b"));
  }

  @Test
  void aSlowBuilderDoesNotReleaseALockThatHasPassedToSomeoneElse() {
    RebuildLock slow = new RebuildLock(store, new Namespace("rl"), TTL_SECONDS);
    assertNotNull(slow.tryAcquire(PAGE, V, "slow"));
    slow.close(); // its renewals failed (its node hung): the lease ran out
    clock.advance(Duration.ofSeconds(RebuildLock.LEASE_SECONDS));
    RebuildLock.Lease next = lock.tryAcquire(PAGE, V, "next");
    assertNotNull(next);
    lock.release(lease("slow"));
    assertNull(lock.tryAcquire(PAGE, V, "third"));
    lock.release(next);
    assertNotNull(lock.tryAcquire(PAGE, V, "third"));
  }

  @Test
  void ownersFromTwoThreadsDiffer() {
    List<String> owners = Concurrently.run(2, Duration.ofSeconds(30), i -> lock.newOwner());
    assertNotEquals(owners.get(0), owners.get(1));
  }
}
