package org.pagecache.internal.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.pagecache.CachePolicy;
import org.pagecache.internal.store.StoredPage.Header;

/** The pure decision whether a built response may be stored, and for how long. */
class CacheabilityTest {
  private static final long NOW = java.time.Instant.parse("2026-01-01T12:00:00Z").toEpochMilli();
  private static final Set<Integer> STATUSES = CachePolicy.DEFAULT_STATUSES;
  private static final Duration HOUR = Duration.ofHours(1);

  private static CapturedResponse response(int status, String... headers) {
    List<Header> list = new ArrayList<>();
    for (int i = 0; i < headers.length; i += 2) {
      list.add(new Header(headers[i], headers[i + 1]));
    }
    return new CapturedResponse(status, list, List.of(), new byte[0], null, false, false, false);
  }

  private static String refusal(String... headers) {
    return Cacheability.refusal(response(200, headers), STATUSES, NOW);
  }

  @Test
  void aPlainPageIsStored() {
    assertNull(refusal("Content-Type", "text/html"));
    assertNull(refusal("Cache-Control", "public, max-age=60"));
    assertNull(refusal("Expires", "Thu, 01 Jan 2026 12:01:00 GMT"));
  }

  @Test
  void everySignalThatForbidsReuseIsObeyed() {
    assertEquals("private", refusal("Cache-Control", "Private"));
    assertEquals("no-store", refusal("Cache-Control", "no-store"));
    assertEquals("no-cache", refusal("cache-control", "no-cache=\"Set-Cookie\""));
    assertEquals("max-age-0", refusal("Cache-Control", "max-age=0"));
    assertEquals("s-maxage-0", refusal("Cache-Control", "max-age=60, s-maxage=0"));
    assertEquals("expires", refusal("Expires", "Thu, 01 Jan 1970 00:00:00 GMT"));
    assertEquals("expires", refusal("Expires", "0"), "an invalid date is in the past");
    assertEquals("expires", refusal("Expires", "Thu, 01 Jan 2026 11:59:00 GMT"));
    assertEquals("pragma-no-cache", refusal("Pragma", "no-cache"));
    assertEquals("vary-star", refusal("Vary", "Accept-Language, *"));
    assertEquals("set-cookie", refusal("Set-Cookie", "a=b"));
    assertEquals("status-400", Cacheability.refusal(response(400), STATUSES, NOW));
  }

  @Test
  void aLifetimeForSharedCachesOverridesTheBrowsersOne() {
    assertNull(refusal("Cache-Control", "max-age=0, s-maxage=60"));
    assertNull(refusal("Cache-Control", "max-age=60", "Expires", "0"), "max-age wins over Expires");
  }

  @Test
  void expiresIsMeasuredFromTheResponsesDateWhenItHasOne() {
    assertEquals("expires", refusal("Date", "Thu, 01 Jan 2026 13:00:00 GMT", "Expires", "Thu, 01 Jan 2026 12:30:00 GMT"));
    assertNull(refusal("Date", "Thu, 01 Jan 2026 11:00:00 GMT", "Expires", "Thu, 01 Jan 2026 11:30:00 GMT"));
  }

  @Test
  void mustRevalidateAndProxyRevalidateForbidStaleServing() {
    assertTrue(Cacheability.forbidsStale(response(200, "Cache-Control", "public, must-revalidate")));
    assertTrue(Cacheability.forbidsStale(response(200, "Cache-Control", "Proxy-Revalidate")));
    assertFalse(Cacheability.forbidsStale(response(200, "Cache-Control", "public, max-age=60")));
  }
}
