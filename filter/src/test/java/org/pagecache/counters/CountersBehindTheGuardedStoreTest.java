package org.pagecache.counters;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.pagecache.store.Namespace;
import org.pagecache.internal.store.GuardedStore;
import org.pagecache.store.LocalStore;
import org.pagecache.testing.FaultyStore;
import org.pagecache.testing.MutableClock;

/**
 * One circuit breaker per outage: behind the page cache's guarded store the counters keep no
 * breaker of their own, so they follow the store's circuit (and its one outage log) exactly.
 */
class CountersBehindTheGuardedStoreTest {
  @Test
  void countsAreLiveAgainAsSoonAsTheGuardedStoreSaysMemcachedIsBack() {
    MutableClock clock = new MutableClock();
    AtomicBoolean down = new AtomicBoolean();
    GuardedStore store = new GuardedStore(new FaultyStore(new LocalStore(clock, 1 << 20), down::get), clock, 1000);
    try (Counters counters = Counters.builder(store, new Namespace("t")).clock(clock).source(key -> 10).build()) {
      assertEquals(11, counters.viewed("article:1"));
      down.set(true);
      for (int i = 0; i < 3; i++) {
        assertEquals(11, counters.views("article:1"), "the last known count while memcached is away");
      }
      down.set(false);
      clock.advance(Duration.ofMillis(1001)); // the store's retry interval: its circuit lets a call through
      assertEquals(12, counters.viewed("article:1"), "no second breaker keeps skipping memcached");
    }
  }
}
