package org.pagecache.internal.freshness;

import org.pagecache.internal.store.StoredPage;

/**
 * What a request waiting for another request's build of its page does next: a pure decision from
 * plain values, as {@link Freshness} is for a stored page. The waiting itself (the JVM's waiting
 * list, polling memcached, bounded by {@code lock.wait}) is done by the request path.
 */
public enum WaitingChoice {
  /** Serve the page that arrived (counted as the request's miss). */
  SERVE,
  /** The build was refused: build again without the lock, or pass, as {@link HitForMiss} says. */
  AFTER_REFUSAL,
  /** The builder gave up without storing: try to take its lock over. */
  TAKE_OVER,
  /** Nothing yet and the builder still holds its lock: poll again. */
  KEEP_WAITING,
  /** Waited {@code lock.wait} for nothing: build at once without the lock, never wait longer. */
  BUILD_WITHOUT_LOCK,
  /**
   * The request of this JVM waited for ended without a page for this one (a failed build, another
   * variant): take the lock or watch memcached as a first request does.
   */
  FIND_OWN_WAY;

  /**
   * A request of this JVM's waiting list woke up.
   *
   * @param timedOut       {@code lock.wait} passed first
   * @param arrived        the page the leading request passed on; null when it had none
   * @param variantMatches {@code arrived} is this request's variant (the headers it varies on match)
   */
  public static WaitingChoice afterWakeUp(boolean timedOut, StoredPage arrived, boolean variantMatches) {
    if (timedOut) {
      return BUILD_WITHOUT_LOCK;
    }
    if (arrived == null) {
      return FIND_OWN_WAY;
    }
    if (arrived.isUncacheableMarker()) {
      return AFTER_REFUSAL;
    }
    return variantMatches ? SERVE : FIND_OWN_WAY;
  }

  /**
   * One poll of memcached while another request (of any JVM) builds the page.
   *
   * @param polled         the page read now; null when none
   * @param lookedUp       the page the request's lookup found (one that may not be served); null when none
   * @param variantMatches {@code polled} is this request's variant
   * @param lockHeld       the page's rebuild lock is still in memcached
   */
  public static WaitingChoice afterPoll(StoredPage polled, StoredPage lookedUp, boolean variantMatches, boolean lockHeld) {
    boolean newer = polled != null && (lookedUp == null || polled.builtAtMillis() > lookedUp.builtAtMillis());
    if (newer && polled.isUncacheableMarker()) {
      return AFTER_REFUSAL;
    }
    if (newer && variantMatches) {
      return SERVE;
    }
    return lockHeld ? KEEP_WAITING : TAKE_OVER;
  }
}
