package org.pagecache.internal.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The per-cluster backlog: latest per key, bounded, oldest first; and the retry pause. */
class BacklogTest {
  @Test
  void aLaterVersionOfTheSameKeyReplacesTheQueuedOne() {
    Backlog b = new Backlog(10);
    assertTrue(b.offer(Invalidation.token("t:a", 100), 1));
    assertTrue(b.offer(Invalidation.tag("g:x", 50), 2));
    assertTrue(b.offer(Invalidation.token("t:a", 200), 3));
    assertTrue(b.offer(Invalidation.token("t:a", 150), 4)); // an older one arriving late changes nothing
    assertEquals(List.of(Invalidation.token("t:a", 200), Invalidation.tag("g:x", 50)), b.snapshot());
    assertEquals(1, b.oldestMillis(), "waiting since the first of its key");
  }

  @Test
  void whenFullANewKeyIsRefusedAndTheQueuedOnesStay() {
    Backlog b = new Backlog(2);
    b.offer(Invalidation.token("t:a", 1), 1);
    b.offer(Invalidation.token("t:b", 1), 1);
    assertFalse(b.offer(Invalidation.evict("p:c", 1), 1));
    assertTrue(b.offer(Invalidation.token("t:a", 2), 1), "a key already queued still merges");
    assertEquals(2, b.size());
  }

  @Test
  void aDeliveredOneIsRemovedUnlessALaterOneArrivedMeanwhile() {
    Backlog b = new Backlog(10);
    Invalidation first = Invalidation.token("t:a", 1);
    b.offer(first, 1);
    b.offer(Invalidation.token("t:a", 2), 1);
    b.delivered(first);
    assertEquals(List.of(Invalidation.token("t:a", 2)), b.snapshot());
    b.delivered(Invalidation.token("t:a", 2));
    assertTrue(b.isEmpty());
    assertEquals(0, b.oldestMillis());
  }

  @Test
  void theRetryPauseDoublesUpToRetryInterval() {
    Backoff backoff = Backoff.upTo(1000);
    assertEquals(List.of(50L, 100L, 200L, 400L, 800L, 1000L, 1000L),
        List.of(backoff.delayMillis(1), backoff.delayMillis(2), backoff.delayMillis(3), backoff.delayMillis(4),
            backoff.delayMillis(5), backoff.delayMillis(6), backoff.delayMillis(40)));
    assertEquals(20, Backoff.upTo(20).delayMillis(1), "never above a short retry.interval");
  }
}
