package org.pagecache.stats;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * One handler's counts since this JVM started, at one moment.
 *
 * @param handler the handler's name
 * @param hits fresh pages served from the cache
 * @param stale stale pages served while another request rebuilt them
 * @param misses requests the cache had no servable page for
 * @param rebuilds pages written to the store
 * @param lockWaits requests that waited for another request's build
 * @param bypasses GET/HEAD requests that went past the cache
 * @param storeErrors store calls that failed or timed out
 * @param builds runs of the handler that built a page, stored or not
 * @param buildNanos the total time of those runs, in nanoseconds
 * @param rebuiltSinceRefresh pages rebuilt since this JVM last refreshed the handler
 * @param lastRefreshMillis when this JVM last refreshed the handler (epoch milliseconds), 0 if never
 * @param lastRefreshBy who asked for that refresh ({@code api} or the admin's name), "" if never
 * @param lastToken the update token that refresh wrote, 0 if never
 * @param trace the last events, oldest first, one letter each (e.g. {@code MLWUHHHHSLWUHHH}:
 *     H hit, S stale, M miss, L lock, W write, U unlock, B bypass, E error)
 * @param bypassesByReason bypasses by the reason Cache-Status shows ({@code session}, {@code set-cookie}...)
 * @param cookieBypasses per cookie name (never a value): the requests it made bypass
 * @param unkeyedHeaders per request header the handler read though it is not part of the key: the builds that read it
 * @param sessionBypasses per cause (names only): requests with a session that bypassed and builds
 *     not shared because of their session ({@code user}, {@code sessions=off}, {@code attribute:cart},
 *     {@code csrf-token}, {@code value-of:NAME}...; docs/safety.md, "Sessions"), and signed-in builds
 *     not shared ({@code principal}, {@code principal-name}, {@code role:NAME}, {@code authorization},
 *     {@code cookies}) and the signed-in requests sent past the cache after one ({@code signed-in:CAUSE})
 * @param signedInRequests GET/HEAD requests of signed-in visitors under a policy that serves them
 *     from the cache ({@code signed-in=} other than bypass)
 * @param signedInHits those answered with a fresh page from the cache
 * @param fragments fragments filled in (docs/fragments.md)
 * @param fragmentNanos the total time their renderers took, in nanoseconds
 * @param fragmentFailures fragments that gave an empty part (a renderer threw, was too slow or unknown)
 * @param keyedParameters per ignored query parameter (a tracking parameter) the handler's builds
 *     read, which is part of its keys since: the builds that read it while it was not
 * @param backgroundRebuilds stale pages rebuilt off the visitor's request ({@code rebuild.background}):
 *     the visitor that found the page stale got the stale copy at once
 * @param backgroundSkipped stale pages served without a rebuild because {@code rebuild.background}
 *     builds were all under way; a later request rebuilds them
 * @param backgroundFailures background rebuilds that failed (the handler threw or answered an error:
 *     the stale copy stays, or the request to the container did not get through)
 * @param backgroundNotStored background rebuilds that built the page but could not store it (a
 *     memcached node failing): the page's next request on that JVM builds it in the foreground
 * @param keyedOn what of the query a {@code params=read} handler's keys hold, as of its last build in
 *     this JVM: {@code read: page, q} (those parameters, each present or absent), {@code all} (a build saw
 *     every parameter at once: the whole query less tracking parameters); empty for {@code params=all}
 *     handlers (the whole query, {@code keyedParameters} beside it) and before a first build
 * @param parametersLeftOut requests that carried a query parameter their page's key left out (a cache
 *     buster, a tracking or junk parameter) and were served the page without it
 */
public record HandlerStats(String handler, long hits, long stale, long misses, long rebuilds, long lockWaits,
    long bypasses, long storeErrors, long builds, long buildNanos, long rebuiltSinceRefresh,
    long lastRefreshMillis, String lastRefreshBy, long lastToken, String trace,
    Map<String, Long> bypassesByReason, Map<String, CookieBypasses> cookieBypasses,
    Map<String, Long> unkeyedHeaders, Map<String, Long> sessionBypasses, Map<String, Long> keyedParameters,
    long signedInRequests, long signedInHits, long fragments, long fragmentNanos, long fragmentFailures,
    long backgroundRebuilds, long backgroundSkipped, long backgroundFailures, long backgroundNotStored,
    String keyedOn, long parametersLeftOut) {
  /** Copies the maps, sorted by name. */
  public HandlerStats {
    keyedParameters = Collections.unmodifiableSortedMap(new TreeMap<>(keyedParameters));
    sessionBypasses = Collections.unmodifiableSortedMap(new TreeMap<>(sessionBypasses));
    bypassesByReason = Collections.unmodifiableSortedMap(new TreeMap<>(bypassesByReason));
    cookieBypasses = Collections.unmodifiableSortedMap(new TreeMap<>(cookieBypasses));
    unkeyedHeaders = Collections.unmodifiableSortedMap(new TreeMap<>(unkeyedHeaders));
  }

  /** All zero: a handler not seen yet. */
  public static HandlerStats none(String handler) {
    return new HandlerStats(handler, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, "", 0, "", Map.of(), Map.of(), Map.of(), Map.of(),
        Map.of(), 0, 0, 0, 0, 0, 0, 0, 0, 0, "", 0);
  }

  /** Hits (fresh and stale) over all requests the cache decided, 0 when none. */
  public double hitRatio() {
    long served = hits + stale;
    long all = served + misses;
    return all == 0 ? 0 : (double) served / all;
  }

  /** Signed-in visitors' requests answered from the cache, over all of theirs; 0 when none. */
  public double signedInHitRatio() {
    return signedInRequests == 0 ? 0 : (double) signedInHits / signedInRequests;
  }

  /** The anonymous visitors' hit ratio: the hits and misses of everyone else (fresh hits over hits and misses). */
  public double anonymousHitRatio() {
    long anonHits = Math.max(0, hits - signedInHits);
    long all = Math.max(0, hits + stale + misses + bypasses - signedInRequests);
    return all == 0 ? 0 : (double) anonHits / all;
  }

  /** The counts of both added up, under this one's name; the bypass reasons are added, the rest is this one's. */
  HandlerStats plus(HandlerStats o) {
    Map<String, Long> reasons = new TreeMap<>(bypassesByReason);
    o.bypassesByReason.forEach((reason, n) -> reasons.merge(reason, n, Long::sum));
    return new HandlerStats(handler, hits + o.hits, stale + o.stale, misses + o.misses, rebuilds + o.rebuilds,
        lockWaits + o.lockWaits, bypasses + o.bypasses, storeErrors + o.storeErrors, builds + o.builds,
        buildNanos + o.buildNanos, rebuiltSinceRefresh + o.rebuiltSinceRefresh, lastRefreshMillis,
        lastRefreshBy, lastToken, trace, reasons, cookieBypasses, unkeyedHeaders, sessionBypasses, keyedParameters,
        signedInRequests + o.signedInRequests, signedInHits + o.signedInHits, fragments + o.fragments,
        fragmentNanos + o.fragmentNanos, fragmentFailures + o.fragmentFailures,
        backgroundRebuilds + o.backgroundRebuilds, backgroundSkipped + o.backgroundSkipped,
        backgroundFailures + o.backgroundFailures, backgroundNotStored + o.backgroundNotStored,
        keyedOn.isEmpty() ? o.keyedOn : keyedOn, parametersLeftOut + o.parametersLeftOut);
  }
}
