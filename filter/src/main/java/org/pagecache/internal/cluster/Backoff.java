package org.pagecache.internal.cluster;

/**
 * How long to wait before the next delivery attempt to an unreachable cluster: doubling from
 * {@code first}, never more than {@code cap} ({@code retry.interval}), so a cluster that comes back
 * has its backlog within one {@code retry.interval}. A pure function of the attempt number.
 */
record Backoff(long firstMillis, long capMillis) {
  Backoff {
    if (firstMillis < 1 || capMillis < 1) {
      throw new IllegalArgumentException("backoff needs positive delays, got " + firstMillis + " and " + capMillis);
    }
  }

  /** A backoff from 50 ms (or the cap, if smaller) up to {@code cap}. */
  static Backoff upTo(long capMillis) {
    return new Backoff(Math.min(50, capMillis), capMillis);
  }

  /** The delay before attempt {@code failures + 1}, after {@code failures} failed ones (1 or more). */
  long delayMillis(int failures) {
    int doublings = Math.min(Math.max(failures - 1, 0), 30);
    return Math.min(capMillis, firstMillis << doublings);
  }
}
