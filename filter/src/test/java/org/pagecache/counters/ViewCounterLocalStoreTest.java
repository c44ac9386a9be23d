package org.pagecache.counters;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ViewCounterLocalStoreTest extends ViewCounterContract {
  private final LocalBackend backend = new LocalBackend(clock);

  @Override
  Backend backend() {
    return backend;
  }

  // Needs expiry by the test clock, which only the in-process store offers.
  @Test
  void aFailingSourceStartsTheCounterAtZeroForAMinuteAndIsThenAskedAgain() {
    AtomicBoolean databaseDown = new AtomicBoolean(true);
    AtomicInteger loads = new AtomicInteger();
    Counters counters = frontend(b -> b.source(key -> {
      loads.incrementAndGet();
      if (databaseDown.get()) {
        throw new IllegalStateException("database down");
      }
      return 700;
    }));

    assertEquals(1, counters.viewed("article:3"));
    assertEquals(2, counters.viewed("article:3"));
    assertEquals(1, loads.get());

    databaseDown.set(false);
    clock.advance(Duration.ofSeconds(ViewCounter.UNTRUSTED_TTL_SECONDS + 1));

    assertEquals(701, counters.viewed("article:3"));
    assertEquals(2, loads.get());
  }

  @Test
  void aBusyCounterOutlivingItsTtlComesBackAtTheCountLastSeen() {
    Counters counters = frontend(b -> b.source(key -> 40)
        .settings(CountersSettings.builder().ttl(Duration.ofSeconds(30)).build()));
    for (int i = 0; i < 29; i++) {
      counters.viewed("article:5");
      clock.advance(Duration.ofSeconds(1));
    }
    clock.advance(Duration.ofSeconds(1)); // the key expired: incr does not extend a key's life

    assertEquals(70, counters.viewed("article:5"));
  }

  @Test
  void steadyViewsDoNotCarryAStandInZeroPastItsMinute() {
    AtomicBoolean databaseDown = new AtomicBoolean(true);
    Counters counters = frontend(b -> b.source(key -> {
      if (databaseDown.get()) {
        throw new IllegalStateException("database down");
      }
      return 700;
    }));
    assertEquals(1, counters.viewed("article:4"));
    databaseDown.set(false);

    long last = 0;
    for (int i = 0; i < 7; i++) { // a view every 10 s: always "recently seen"
      clock.advance(Duration.ofSeconds(10));
      last = counters.viewed("article:4");
    }

    // The stand-in key expired at 60 s; that view reloaded 700 (701), the one at 70 s made 702.
    assertEquals(702, last);
  }
}
