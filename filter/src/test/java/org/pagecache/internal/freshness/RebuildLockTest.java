package org.pagecache.internal.freshness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
    assertTrue(lock.tryAcquire(PAGE, "a"));
    assertFalse(lock.tryAcquire(PAGE, "b"));
    assertFalse(lock.tryAcquire(PAGE, "a")); // not re-entrant: one build per page
    assertTrue(lock.tryAcquire("ns2:p:article:other", "b")); // every page has its own lock
  }

  @Test
  void exactlyOneOfManyConcurrentRequestsTakesTheLock() {
    List<Boolean> won = Concurrently.run(16, Duration.ofSeconds(30), i -> lock.tryAcquire(PAGE, "owner-" + i));
    assertEquals(1, won.stream().filter(w -> w).count());
  }

  @Test
  void theOwnersReleaseFreesTheLock() {
    assertTrue(lock.tryAcquire(PAGE, "a"));
    lock.release(PAGE, "a");
    assertTrue(lock.tryAcquire(PAGE, "b"));
  }

  @Test
  void aReleaseByAnotherOwnerDoesNothing() {
    assertTrue(lock.tryAcquire(PAGE, "a"));
    lock.release(PAGE, "b");
    assertFalse(lock.tryAcquire(PAGE, "c"));
  }

  @Test
  void aLockExpiresByItselfSoACrashedBuilderBlocksThePageOnlyForItsTtl() {
    assertTrue(lock.tryAcquire(PAGE, "crashed"));
    clock.advance(Duration.ofSeconds(TTL_SECONDS - 1));
    assertFalse(lock.tryAcquire(PAGE, "b"));
    clock.advance(Duration.ofSeconds(1));
    assertTrue(lock.tryAcquire(PAGE, "b"));
  }

  @Test
  void aSlowBuilderDoesNotReleaseALockThatHasPassedToSomeoneElse() {
    assertTrue(lock.tryAcquire(PAGE, "slow"));
    clock.advance(Duration.ofSeconds(TTL_SECONDS));
    assertTrue(lock.tryAcquire(PAGE, "next"));
    lock.release(PAGE, "slow");
    assertFalse(lock.tryAcquire(PAGE, "third"));
    lock.release(PAGE, "next");
    assertTrue(lock.tryAcquire(PAGE, "third"));
  }

  @Test
  void ownersFromTwoThreadsDiffer() {
    List<String> owners = Concurrently.run(2, Duration.ofSeconds(30), i -> lock.newOwner());
    assertNotEquals(owners.get(0), owners.get(1));
  }
}
