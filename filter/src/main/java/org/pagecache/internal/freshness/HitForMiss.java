package org.pagecache.internal.freshness;

import org.pagecache.internal.store.StoredPage;

/**
 * What a refused build leaves behind for the page's next requests, so that one request cannot
 * switch caching off for everyone (Varnish's hit-for-miss versus hit-for-pass).
 *
 * <p>A response can be refused because of what one request carried (a header that made the
 * handler answer 400, a first visit answered with a consent cookie): the next request must still
 * try to build and store the page. So a refusal leaves a <em>miss marker</em>: requests that meet
 * it build the page at once, each for itself, without queueing on the rebuild lock, and the
 * first cacheable response replaces it.
 *
 * <p>A page whose every response is refused (too large, async, always a cookie) would then be
 * built by every request anyway, and that is fine: nobody waits. Only when its builds are refused
 * {@value #PASS_AFTER} times in a row, with no cacheable build between them, or when the refusal
 * cannot depend on the request (too large, async), does the marker become a <em>pass marker</em>:
 * for {@code uncacheable.ttl} requests skip capture too and go straight to the handler. One
 * request that meets a healthy page cannot bring that about: the requests of other visitors build
 * and store in between, which resets the count.
 */
public final class HitForMiss {
  /** Refusals in a row after which a page is passed instead of missed. */
  public static final int PASS_AFTER = 3;

  private HitForMiss() {}

  /** How many refusals in a row a new refusal makes, given what was stored before it (an expired marker counts for nothing). */
  public static int refusalsAfter(StoredPage previous, long nowMillis) {
    return previous != null && previous.isUncacheableMarker() && nowMillis < previous.freshUntilMillis()
        ? previous.refusals() + 1 : 1;
  }

  /** True when the marker sends requests past the cache; false when they should build and try to store. */
  public static boolean passes(StoredPage marker) {
    return structural(marker.uncacheableReason()) || marker.refusals() >= PASS_AFTER;
  }

  /** Refusals that no request can cause or avoid: the page is the same for everyone. */
  static boolean structural(String reason) {
    return reason.equals("too-large") || reason.equals("async") || reason.equals("too-many-tags")
        || reason.equals("tag-too-long") || reason.equals("invalid-tag");
  }
}
