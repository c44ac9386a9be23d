package org.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.pagecache.BuildDecision.Kind;
import org.pagecache.internal.capture.CacheStatus;
import org.pagecache.internal.capture.CapturedResponse;
import org.pagecache.internal.store.StoredPage;
import org.pagecache.internal.store.StoredPage.Header;

/** The one decision about a built response, and the Cache-Status values, from plain values. */
class BuildDecisionTest {
  private static final long NOW = 1_800_000_000_000L;
  private static final CachePolicy POLICY = CachePolicy.defaults("page", Duration.ofMinutes(1), Duration.ofMinutes(10));

  /** A stale copy: expired a minute ago, without Cache-Control (the policy's grace decides). */
  private static final StoredPage STALE = new StoredPage(200, List.of(), new byte[0], false, null, NOW - 120_000,
      NOW - 60_000, 5, 0, List.of(), List.of(), false, List.of(), null);

  private static CapturedResponse response(int status, String... headers) {
    List<Header> list = new ArrayList<>();
    for (int i = 0; i < headers.length; i += 2) {
      list.add(new Header(headers[i], headers[i + 1]));
    }
    return new CapturedResponse(status, list, List.of(), "<p>x</p>".getBytes(StandardCharsets.UTF_8), null, false, false, false);
  }

  private static BuildDecision decide(CapturedResponse c, CachePolicy policy, boolean hasStale) {
    return BuildDecision.of(c, policy, NOW, hasStale ? STALE : null, false, false, null);
  }

  @Test
  void aCacheablePageIsStoredForThePolicysTtl() {
    BuildDecision d = decide(response(200, "Cache-Control", "max-age=5"), POLICY, false);
    assertEquals(Kind.STORE, d.kind());
    assertEquals(Duration.ofMinutes(1), d.fresh(), "a positive lifetime does not override the policy by default");
  }

  @Test
  void withCacheControlHonouredThePositiveLifetimeSetsTheTtl() {
    BuildDecision d = decide(response(200, "Cache-Control", "max-age=5"), POLICY.with("cache-control=honor"), false);
    assertEquals(Duration.ofSeconds(5), d.fresh());
  }

  @Test
  void withOriginCacheHeadersIgnoredMustRevalidateNoLongerForbidsStaleAndTheTtlStands() {
    CapturedResponse c = response(200, "Cache-Control", "max-age=0, must-revalidate", "Expires", "0");
    assertEquals(Kind.REFUSE, decide(c, POLICY, false).kind(), "by default max-age=0 refuses");
    BuildDecision d = decide(c, POLICY.with("origin-cache-headers=ignore"), false);
    assertEquals(Kind.STORE, d.kind());
    assertEquals(Duration.ofMinutes(1), d.fresh());
    assertFalse(d.forbidsStale(), "must-revalidate is the browser's, as the rest of them");
    assertEquals("no-store", decide(response(200, "Cache-Control", "no-store"), POLICY.with("origin-cache-headers=ignore"),
        false).reason());
  }

  @Test
  void aRefusalLeavesAMarkerUnlessAStaleCopyStaysOrTheHandlerFailed() {
    BuildDecision fresh = decide(response(400), POLICY, false);
    assertEquals(Kind.REFUSE, fresh.kind());
    assertEquals("status-400", fresh.reason());
    assertTrue(fresh.rememberRefusal());
    assertFalse(decide(response(400), POLICY, true).rememberRefusal(), "the stale copy stays and is served");
    assertFalse(decide(response(503), POLICY, false).rememberRefusal(), "a 5xx leaves nothing");
  }

  @Test
  void aServerErrorWithAStaleCopyServesTheStaleCopy() {
    assertEquals(Kind.STALE_IF_ERROR, decide(response(503), POLICY, true).kind());
  }

  @Test
  void inHonorModeTheStaleCopyStandsInOnlyWithinItsStaleIfErrorAndForTheErrorsItHides() {
    CachePolicy honor = POLICY.with("cache-control=honor");
    StoredPage within = new StoredPage(200, List.of(new Header("Cache-Control", "max-age=60, stale-if-error=120")),
        new byte[0], false, null, NOW - 120_000, NOW - 60_000, 5, 0, List.of(), List.of(), false, List.of(), null);
    assertEquals(Kind.STALE_IF_ERROR, BuildDecision.of(response(503), honor, NOW, within, false, false, null).kind());
    BuildDecision notHidden = BuildDecision.of(response(501), honor, NOW, within, false, false, null);
    assertEquals(Kind.REFUSE, notHidden.kind());
    assertEquals("error", notHidden.reason());
    assertFalse(notHidden.rememberRefusal(), "the stale copy stays");
    StoredPage past = new StoredPage(200, List.of(new Header("Cache-Control", "max-age=60, stale-if-error=30")),
        new byte[0], false, null, NOW - 120_000, NOW - 60_000, 5, 0, List.of(), List.of(), false, List.of(), null);
    assertEquals(Kind.REFUSE, BuildDecision.of(response(503), honor, NOW, past, false, false, null).kind());
    assertTrue(BuildDecision.staleStandsIn(within, null, true, NOW), "a handler that threw");
    assertFalse(BuildDecision.staleStandsIn(past, null, true, NOW));
    assertFalse(BuildDecision.staleStandsIn(null, 503, false, NOW), "no stale copy");
  }

  @Test
  void aCookieFromTheContainerAndAnUnkeyedHeaderUnderStrictRefuse() {
    assertEquals("set-cookie", BuildDecision.of(response(200), POLICY, NOW, null, true, false, null).reason());
    assertEquals(Kind.STORE, BuildDecision.of(response(200), POLICY, NOW, null, false, true, null).kind(), "report mode");
    assertEquals("unkeyed-header",
        BuildDecision.of(response(200), POLICY.with("headers=strict"), NOW, null, false, true, null).reason());
  }

  @Test
  void aBuildThatUsedTheSessionIsThisVisitorsOnlyAndLeavesNoMarker() {
    BuildDecision d = BuildDecision.of(response(200), POLICY, NOW, null, false, false, "attribute:cart");
    assertEquals(Kind.REFUSE, d.kind());
    assertEquals("session", d.reason());
    assertFalse(d.rememberRefusal(), "one visitor's session must not make the page hit-for-pass for everyone");
  }

  @Test
  void aResponseThatWentToTheClientHasNothingToStore() {
    CapturedResponse overflowed = new CapturedResponse(200, List.of(), List.of(), new byte[0], null, true, true, false);
    BuildDecision d = decide(overflowed, POLICY, false);
    assertEquals(Kind.PASSED_THROUGH, d.kind());
    assertEquals("too-large", d.reason());
  }

  @Test
  void aSendErrorWithACachedStatusIsStoredWithASmallPage() {
    CapturedResponse notFound = new CapturedResponse(404, List.of(), List.of(), new byte[0], "No <such> page", false, false, false);
    BuildDecision d = decide(notFound, POLICY.with("statuses=200|404"), false);
    assertEquals(Kind.STORE, d.kind());
    assertEquals("<!DOCTYPE html><html><head><title>404</title></head><body><h1>404</h1><p>No &lt;such&gt; page</p></body></html>",
        new String(d.response().body(), StandardCharsets.UTF_8));
  }

  @Test
  void cacheStatusRendersEachWayOfServing() {
    assertEquals("PageCache; hit; ttl=42", CacheStatus.hit(42).render());
    assertEquals("PageCache; hit; collapsed; ttl=7", CacheStatus.collapsed(7).render());
    assertEquals("PageCache; hit; ttl=0; detail=\"tag article:42\"", CacheStatus.stale(0, "tag article:42").render());
    assertEquals("PageCache; hit; detail=stale-if-error; fwd-status=503", CacheStatus.staleIfError(503).render());
    assertEquals("PageCache; hit; detail=stale-if-error", CacheStatus.staleIfError(null).render());
    assertEquals("PageCache; fwd=bypass; detail=cookie", CacheStatus.bypass("cookie").render());
    assertEquals("PageCache; fwd=bypass; stored=0; detail=set-cookie", CacheStatus.refused("set-cookie").render());
    assertEquals("PageCache; fwd=uri-miss; stored", CacheStatus.miss(false, true).render());
    assertEquals("PageCache; fwd=stale; stored=0; detail=store-unavailable", CacheStatus.miss(true, false).render());
    assertEquals("MISS", CacheStatus.miss(false, true).xCache());
  }
}
