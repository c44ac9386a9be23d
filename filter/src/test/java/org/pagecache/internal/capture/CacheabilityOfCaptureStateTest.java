package org.pagecache.internal.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;

import jakarta.servlet.http.Cookie;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.pagecache.CachePolicy;
import org.pagecache.internal.store.StoredPage.Header;

/**
 * {@link Cacheability} on what only the capture knows (passed through, trailers, cookies added
 * with addCookie, an encoded body) and on unusual lifetime headers: the cases
 * {@code CacheabilityTest} (HTTP header signals) does not cover. A separate class because the test
 * suite is being restructured in parallel and existing test files are left alone.
 */
class CacheabilityOfCaptureStateTest {
  private static final long NOW = Instant.parse("2026-01-01T12:00:00Z").toEpochMilli();
  private static final Set<Integer> STATUSES = CachePolicy.DEFAULT_STATUSES;
  private static final Duration HOUR = Duration.ofHours(1);

  private static List<Header> headers(String... pairs) {
    List<Header> list = new ArrayList<>();
    for (int i = 0; i < pairs.length; i += 2) {
      list.add(new Header(pairs[i], pairs[i + 1]));
    }
    return list;
  }

  private static CapturedResponse page(String... pairs) {
    return new CapturedResponse(200, headers(pairs), List.of(), new byte[0], null, false, false, false);
  }

  @Test
  void aPageThatOutgrewTheCaptureIsTooLargeAndOneThatWentAsyncIsAsync() {
    CapturedResponse tooLarge = new CapturedResponse(200, List.of(), List.of(), new byte[0], null, true, true, false);
    CapturedResponse async = new CapturedResponse(200, List.of(), List.of(), new byte[0], null, false, true, false);
    assertEquals("too-large", Cacheability.refusal(tooLarge, STATUSES, NOW));
    assertEquals("async", Cacheability.refusal(async, STATUSES, NOW));
  }

  @Test
  void aCookieAddedWithAddCookieOrAnOldSetCookie2IsNeverStored() {
    CapturedResponse added = new CapturedResponse(200, List.of(), List.of(new Cookie("session", "s1")), new byte[0], null, false,
        false, false);
    assertEquals("set-cookie", Cacheability.refusal(added, STATUSES, NOW));
    assertEquals("set-cookie", Cacheability.refusal(page("Set-Cookie2", "a=b"), STATUSES, NOW));
  }

  @Test
  void aPageWithTrailersIsNeverStored() {
    CapturedResponse trailers = new CapturedResponse(200, List.of(), List.of(), new byte[0], null, false, false, true);
    assertEquals("trailers", Cacheability.refusal(trailers, STATUSES, NOW));
  }

  @Test
  void aBodyTheHandlerEncodedItselfIsNotStored() {
    assertEquals("pre-encoded", Cacheability.refusal(page("Content-Encoding", "gzip"), STATUSES, NOW));
  }

  @Test
  void everyCacheControlHeaderCountsNotOnlyTheFirst() {
    assertEquals("no-store", Cacheability.refusal(page("Cache-Control", "public", "Cache-Control", "no-store"),
        STATUSES, NOW));
  }

  @Test
  void anUnreadableLifetimeMeansDoNotReuseAndTheFirstOneCounts() {
    assertEquals("invalid-max-age", Lifetime.of(page("Cache-Control", "max-age=soon"), NOW, HOUR).refusal());
    assertEquals("invalid-max-age", Lifetime.of(page("Cache-Control", "max-age=-5"), NOW, HOUR).refusal());
    assertEquals(Duration.ofSeconds(10),
        Lifetime.of(page("Cache-Control", "max-age=10", "Cache-Control", "max-age=\"20\""), NOW, HOUR).fresh(),
        "RFC 9111 4.2.1: the first occurrence");
  }
}
