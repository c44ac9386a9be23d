package org.pagecache.internal.freshness;

import java.util.Map;
import org.pagecache.internal.store.StoredPage;

/**
 * The one place that decides whether a stored page may be served: a pure function of plain
 * values, so the hard part of the cache is testable in microseconds.
 *
 * <ul>
 *   <li>FRESH: before {@code freshUntil}, built under a token at least the handler's current one,
 *       and no tag invalidated since it was built.
 *   <li>STALE: present but expired, or condemned by a refresh or a tag invalidation. It may be
 *       served while one request rebuilds it (soft expiry: memcached keeps it for the grace).
 *   <li>ABSENT: nothing usable is stored, or the page is stale and its handler forbade serving
 *       it stale ({@code must-revalidate}): it is then rebuilt like a page never built.
 * </ul>
 *
 * <p>Optional early refresh follows "probabilistic early expiration" (Vattani et al., XFetch): a
 * request rebuilds a fresh page early with a probability that rises as expiry nears, scaled by how
 * long a build takes, so hot pages seldom reach STALE at all.
 */
public final class Freshness {
  private Freshness() {}

  public enum State { FRESH, STALE, ABSENT }

  /** Why an entry is what it is; {@code early} marks a fresh page picked for early refresh. */
  public record Decision(State state, String reason, boolean early) {
    static final Decision ABSENT = new Decision(State.ABSENT, "absent", false);
    static final Decision FRESH = new Decision(State.FRESH, "fresh", false);
  }

  /**
   * @param page          the decoded entry, or null
   * @param nowMillis     the current time
   * @param handlerToken  the handler's effective update token (0 when none)
   * @param tagVersions   current versions of the page's tags (a tag missing here counts as unchanged)
   * @param earlyBeta     early-refresh strength; 0 turns it off (1 is the usual value)
   * @param random        a uniform random number in (0, 1], drawn by the caller
   */
  public static Decision classify(StoredPage page, long nowMillis, long handlerToken,
      Map<String, Long> tagVersions, double earlyBeta, double random) {
    if (page == null || page.isUncacheableMarker()) {
      return Decision.ABSENT;
    }
    if (purged(page, tagVersions)) {
      return PURGED;
    }
    Decision stale = staleness(page, nowMillis, handlerToken, tagVersions);
    if (stale != null) {
      return page.mustRevalidate() ? new Decision(State.ABSENT, "must-revalidate", false) : stale;
    }
    if (earlyBeta > 0 && shouldRefreshEarly(page, nowMillis, earlyBeta, random)) {
      return new Decision(State.STALE, "early refresh", true);
    }
    return Decision.FRESH;
  }

  private static final Decision PURGED = new Decision(State.ABSENT, "purged", false);

  /**
   * Whether a hard purge of one of the page's tags condemned it ({@link TagVersions#purge}): the
   * page is never served again, not even stale.
   */
  public static boolean purged(StoredPage page, Map<String, Long> tagVersions) {
    if (page == null || tagVersions.isEmpty()) {
      return false;
    }
    for (StoredPage.TagVersion tag : page.tags()) {
      Long floor = tagVersions.get(TagVersions.hardName(tag.tag()));
      if (floor != null && floor > tag.version()) {
        return true;
      }
    }
    return false;
  }

  /** Why a page is no longer fresh, or null while it is. */
  private static Decision staleness(StoredPage page, long nowMillis, long handlerToken, Map<String, Long> tagVersions) {
    if (page.token() < handlerToken) {
      return new Decision(State.STALE, "refreshed", false);
    }
    for (StoredPage.TagVersion tag : page.tags()) {
      Long current = tagVersions.get(tag.tag());
      if (current != null && current > tag.version()) {
        return new Decision(State.STALE, "tag " + tag.tag(), false);
      }
    }
    if (nowMillis >= page.freshUntilMillis()) {
      return new Decision(State.STALE, "expired", false);
    }
    return null;
  }

  /** XFetch: refresh when now - buildTime * beta * ln(random) reaches the expiry. */
  static boolean shouldRefreshEarly(StoredPage page, long nowMillis, double beta, double random) {
    double r = Math.max(random, Double.MIN_VALUE);
    double gap = Math.max(1, page.buildMillis()) * beta * -Math.log(r);
    return nowMillis + gap >= page.freshUntilMillis();
  }
}
