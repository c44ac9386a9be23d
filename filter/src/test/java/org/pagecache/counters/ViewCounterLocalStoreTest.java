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
    for (int i = 0; i < 60; i++) { // a view every half second: always recently seen
      counters.viewed("article:5");
      clock.advance(Duration.ofMillis(500));
    }
    // At 30 s the key expired (incr does not extend a key's life), 0.5 s after the last view.

    assertEquals(101, counters.viewed("article:5"));
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
    for (int i = 0; i < 140; i++) { // a view every half second: always recently seen
      clock.advance(Duration.ofMillis(500));
      last = counters.viewed("article:4");
      if (i == 118) {
        assertEquals(120, last, "the stand-in counted on until its key expires at 60 s");
      }
    }

    // The view at 60 s reloaded 700 (701); the twenty views up to 70 s made 721.
    assertEquals(721, last);
  }
}
