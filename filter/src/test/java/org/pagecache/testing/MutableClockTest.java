package org.pagecache.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class MutableClockTest {
  @Test
  void startsAtAFixedInstantInUtcAndMovesOnlyWhenTold() {
    MutableClock clock = new MutableClock();

    assertEquals(MutableClock.DEFAULT_START, clock.instant());
    assertEquals(ZoneOffset.UTC, clock.getZone());
    assertEquals(MutableClock.DEFAULT_START.toEpochMilli(), clock.millis());
  }

  @Test
  void advanceAndSetMoveTime() {
    MutableClock clock = new MutableClock(Instant.ofEpochSecond(1000));

    clock.advance(Duration.ofMillis(1500));
    assertEquals(1_001_500, clock.millis());

    clock.set(Instant.ofEpochSecond(5));
    assertEquals(5000, clock.millis());
  }

  @Test
  void aZonedViewSharesTheTime() {
    MutableClock clock = new MutableClock();
    Clock paris = clock.withZone(ZoneId.of("Europe/Paris"));

    clock.advance(Duration.ofHours(1));

    assertEquals(clock.instant(), paris.instant());
    assertSame(clock, clock.withZone(ZoneOffset.UTC));
  }
}
