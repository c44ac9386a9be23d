package org.pagecache.testing;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * Polling with a deadline, for things that happen "soon" (a server accepting connections, a
 * client reconnecting, an item expiring): tests return as soon as the condition holds instead of
 * sleeping a fixed time that is too long on a fast machine and too short on a loaded one.
 *
 * <pre>{@code
 * Eventually.assertWithin(Duration.ofSeconds(15), "store reconnected", () -> works(store));
 * }</pre>
 */
public final class Eventually {
  private static final long INTERVAL_MILLIS = 10;

  private Eventually() {}

  /** Polls {@code condition} until it holds (true) or {@code timeout} passes (false). */
  public static boolean within(Duration timeout, BooleanSupplier condition) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() - deadline > 0) {
        return false;
      }
      try {
        Thread.sleep(INTERVAL_MILLIS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }
    return true;
  }

  /** Like {@link #within} but fails the test, saying what did not happen in time. */
  public static void assertWithin(Duration timeout, String what, BooleanSupplier condition) {
    if (!within(timeout, condition)) {
      throw new AssertionError("not within " + timeout + ": " + what);
    }
  }
}
