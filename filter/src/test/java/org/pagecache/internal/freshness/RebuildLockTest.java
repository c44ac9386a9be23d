package org.pagecache.internal.freshness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.pagecache.store.Namespace;
import org.pagecache.store.LocalStore;
import org.pagecache.testing.Concurrently;
import org.pagecache.testing.MutableClock;

/** The dog-pile lock on the in-process store, with a clock the tests move. */
class RebuildLockTest {
  private static final int TTL_SECONDS = 30;
  private static final String PAGE = "ns2:p:article:abc";
  private final MutableClock clock = new MutableClock();
  private final LocalStore store = new LocalStore(clock, 1 << 20);
  private final RebuildLock lock = new RebuildLock(store, new Namespace("rl"), TTL_SECONDS);

  @Test
  void theFirstRequestTakesTheLockAndTheNextAreRefused() {
    assertNotNull(lock.tryAcquire(PAGE, "a"));
    assertNull(lock.tryAcquire(PAGE, "b"));
    assertNull(lock.tryAcquire(PAGE, "a")); // not re-entrant: one build per page
    assertNotNull(lock.tryAcquire("ns2:p:article:other", "b")); // every page has its own lock
  }

  @Test
  void exactlyOneOfManyConcurrentRequestsTakesTheLock() {
    List<Boolean> won = Concurrently.run(16, Duration.ofSeconds(30), i -> lock.tryAcquire(PAGE, "owner-" + i) != null);
    assertEquals(1, won.stream().filter(w -> w).count());
  }

  @Test
  void theOwnersReleaseFreesTheLock() {
    assertNotNull(lock.tryAcquire(PAGE, "a"));
    lock.release(new RebuildLock.Lease(PAGE, "a", store));
    assertNotNull(lock.tryAcquire(PAGE, "b"));
  }

  @Test
  void aReleaseByAnotherOwnerDoesNothing() {
    assertNotNull(lock.tryAcquire(PAGE, "a"));
    lock.release(new RebuildLock.Lease(PAGE, "b", store));
    assertNull(lock.tryAcquire(PAGE, "c"));
  }

  @Test
  void aLockExpiresByItselfSoACrashedBuilderBlocksThePageOnlyForItsTtl() {
    assertNotNull(lock.tryAcquire(PAGE, "crashed"));
    clock.advance(Duration.ofSeconds(TTL_SECONDS - 1));
    assertNull(lock.tryAcquire(PAGE, "b"));
    clock.advance(Duration.ofSeconds(1));
    assertNotNull(lock.tryAcquire(PAGE, "b"));
  }

  @Test
  void aSlowBuilderDoesNotReleaseALockThatHasPassedToSomeoneElse() {
    assertNotNull(lock.tryAcquire(PAGE, "slow"));
    clock.advance(Duration.ofSeconds(TTL_SECONDS));
    assertNotNull(lock.tryAcquire(PAGE, "next"));
    lock.release(new RebuildLock.Lease(PAGE, "slow", store));
    assertNull(lock.tryAcquire(PAGE, "third"));
    lock.release(new RebuildLock.Lease(PAGE, "next", store));
    assertNotNull(lock.tryAcquire(PAGE, "third"));
  }

  @Test
  void ownersFromTwoThreadsDiffer() {
    List<String> owners = Concurrently.run(2, Duration.ofSeconds(30), i -> lock.newOwner());
    assertNotEquals(owners.get(0), owners.get(1));
  }
}
