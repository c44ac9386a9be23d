package org.pagecache.counters;

import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Polls a condition until a deadline: waiting on an outcome, never on a guessed sleep. */
final class Eventually {
  private Eventually() {}

  static void within(Duration limit, String what, BooleanSupplier condition) {
    long deadline = System.nanoTime() + limit.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        fail("not within " + limit + ": " + what);
      }
      Thread.onSpinWait();
      try {
        Thread.sleep(5); // a poll interval, not synchronisation: the condition decides
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        fail("interrupted while waiting for: " + what);
      }
    }
  }
}
