package org.pagecache;

import java.time.Duration;
import org.pagecache.internal.capture.Cacheability;
import org.pagecache.internal.capture.CapturedResponse;
import org.pagecache.internal.capture.ErrorPage;
import org.pagecache.internal.capture.Lifetime;
import org.pagecache.internal.capture.StaleWindows;
import org.pagecache.internal.store.StoredPage;

/**
 * What to do with a response a handler just built, decided from plain values (OkHttp's
 * {@code CacheStrategy} for a stored response has its twin in {@code Freshness.classify}): store
 * it, refuse it (leaving a hit-for-miss marker unless a stale copy stays), answer with the stale
 * copy instead (a 5xx while one exists and its stale-if-error allows it), or nothing to store at all (it went to the client as it
 * was written: too large, async).
 *
 * @param kind            what to do
 * @param reason          why it is not stored (a Cache-Status detail); null for STORE
 * @param response        the response to store or replay (a sendError page gets a small body)
 * @param fresh           how long a stored page is fresh
 * @param rememberRefusal whether to leave a refusal marker: always for a response that went out as
 *                        it was written (too large, async: the same for everyone), otherwise not over
 *                        a stale copy and not for a 5xx
 * @param ageSeconds      the response's age on arrival (its Age, or its Date already past), for the Age sent later
 * @param forbidsStale    the response may never be served stale (must-revalidate and, with cache-control=honor,
 *                        proxy-revalidate or s-maxage in its controlling field)
 */
record BuildDecision(Kind kind, String reason, CapturedResponse response, Duration fresh, boolean rememberRefusal,
    long ageSeconds, boolean forbidsStale) {
  enum Kind { STORE, REFUSE, STALE_IF_ERROR, PASSED_THROUGH }

  /**
   * @param c                   the captured response
   * @param policy              the handler's policy
   * @param nowMillis           when it was built
   * @param stale               the stale copy (a refresh or expiry is being rebuilt), or null
   * @param containerSetCookie  the container gave the response a cookie past the capture (a new session)
   * @param readUnkeyedHeader   the handler read a request header that is not part of the key
   * @param sessionUse          why the page may carry the visitor's session data, or null ({@link AnonymousSessions})
   */
  static BuildDecision of(CapturedResponse c, CachePolicy policy, long nowMillis, StoredPage stale,
      boolean containerSetCookie, boolean readUnkeyedHeader, String sessionUse) {
    boolean hasStale = stale != null;
    if (c.passedThrough()) {
      return new BuildDecision(Kind.PASSED_THROUGH, c.overflowed() ? "too-large" : "async", c, null, true, 0, false);
    }
    boolean honor = policy.honorCacheControl();
    if (c.status() >= 500 && hasStale) {
      if (staleStandsIn(stale, c.status(), honor, nowMillis)) {
        return new BuildDecision(Kind.STALE_IF_ERROR, "stale-if-error", c, null, false, 0, false);
      }
      // Honor mode: past its stale-if-error, or a status a stale copy does not stand in for.
      return new BuildDecision(Kind.REFUSE, "error", c, null, false, 0, false);
    }
    CapturedResponse response = c.sentError() && policy.statuses().contains(c.status()) ? ErrorPage.of(c) : c;
    boolean ignoreOrigin = policy.ignoreOriginCacheHeaders(); // never with honor: the policy refuses the pair
    String refusal = ignoreOrigin ? Cacheability.refusalIgnoringOrigin(response, policy.statuses())
        : Cacheability.refusal(response, policy.statuses(), nowMillis, honor);
    if (refusal == null && containerSetCookie) {
      refusal = "set-cookie";
    }
    if (refusal == null && sessionUse != null) {
      // This visitor's page only: no marker, the next visitor builds at once (and one visitor's
      // session cannot make the page hit-for-pass for everyone).
      return new BuildDecision(Kind.REFUSE, AnonymousSessions.BYPASS, c, null, false, 0, false);
    }
    if (refusal == null && readUnkeyedHeader && policy.strictHeaders()) {
      refusal = "unkeyed-header";
    }
    Duration fresh = policy.ttl();
    Lifetime lifetime = Lifetime.of(response, nowMillis, policy.ttlMax());
    // must-revalidate is a browser's instruction too when the operator set the handler's headers aside
    boolean forbidsStale = ignoreOrigin ? false : honor ? lifetime.forbidsStale() : Cacheability.forbidsStale(response);
    if (refusal == null && honor) {
      refusal = lifetime.refusal();
      if (lifetime.fresh() != null) {
        fresh = lifetime.fresh();
      }
    }
    if (refusal != null) {
      // A refusal because of what this request carried must not decide for the others: a stale
      // copy stays and is served while the next request tries again; a 5xx leaves nothing.
      return new BuildDecision(Kind.REFUSE, refusal, c, null, c.status() < 500 && !hasStale, 0, false);
    }
    return new BuildDecision(Kind.STORE, null, response, fresh, false, lifetime.ageSeconds(), forbidsStale);
  }

  /**
   * Stale-if-error, decided here alone: whether the stale copy stands in for a build that answered
   * {@code status} (a 5xx), or threw ({@code status} null). The default mode always lets it within
   * the grace; honor mode follows the page's {@code stale-if-error} ({@link StaleWindows#onError}).
   */
  static boolean staleStandsIn(StoredPage stale, Integer status, boolean honor, long nowMillis) {
    return stale != null && StaleWindows.onError(stale, status, honor, nowMillis);
  }
}
