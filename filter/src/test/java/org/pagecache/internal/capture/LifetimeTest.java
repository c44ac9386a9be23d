package org.pagecache.internal.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.pagecache.internal.store.StoredPage.Header;

/** How long a response may be reused in honor mode: the controlling field, the lifetime, the age. */
class LifetimeTest {
  private static final long NOW = java.time.Instant.parse("2026-01-01T12:00:00Z").toEpochMilli();
  private static final Duration HOUR = Duration.ofHours(1);

  private static Lifetime of(String... headers) {
    List<Header> list = new ArrayList<>();
    for (int i = 0; i < headers.length; i += 2) {
      list.add(new Header(headers[i], headers[i + 1]));
    }
    return Lifetime.of(new CapturedResponse(200, list, List.of(), new byte[0], null, false, false, false), NOW, HOUR);
  }

  @Test
  void sMaxAgeThenMaxAgeThenExpiresCappedAtTheMaximum() {
    assertEquals(Duration.ofSeconds(30), of("Cache-Control", "max-age=60, s-maxage=30").fresh());
    assertEquals(Duration.ofSeconds(60), of("Cache-Control", "max-age=60").fresh());
    assertEquals(Duration.ofSeconds(120), of("Expires", "Thu, 01 Jan 2026 12:02:00 GMT").fresh());
    assertEquals(HOUR, of("Cache-Control", "max-age=86400").fresh());
    assertNull(of().fresh());
    assertNull(of().refusal());
  }

  @Test
  void theAgeOnArrivalIsSpentLifetime() {
    Lifetime l = of("Cache-Control", "max-age=100", "Age", "60");
    assertEquals(Duration.ofSeconds(40), l.fresh());
    assertEquals(60, l.ageSeconds());
    assertEquals("stale-on-arrival", of("Cache-Control", "max-age=100", "Age", "100").refusal());
    assertEquals(30, of("Date", "Thu, 01 Jan 2026 11:59:30 GMT", "Age", "10").ageSeconds(), "Date 30 s ago");
  }

  @Test
  void onlyTheFirstAgeValueCountsAndAnInvalidOneIsIgnored() {
    assertEquals(7200, of("Age", "7200, 0").ageSeconds());
    assertEquals(0, of("Age", "0, 7200").ageSeconds());
    assertEquals(0, of("Age", "-7200").ageSeconds());
    assertEquals(0, of("Age", "7200.0").ageSeconds());
    assertEquals(2147483648L, of("Age", "99999999999999999999").ageSeconds());
  }

  @Test
  void expiresIsReadAgainstDateAndAnInvalidOneMeansExpired() {
    assertEquals(Duration.ofSeconds(600), of("Date", "Thu, 01 Jan 2026 13:00:00 GMT",
        "Expires", "Thu, 01 Jan 2026 13:10:00 GMT").fresh(), "the origin's clock is an hour fast");
    assertEquals("expires", of("Expires", "Thu, 18 Aug 2050 2:01:18 GMT").refusal());
    assertEquals("expires", of("Expires", "0").refusal());
    assertNull(of("Cache-Control", "max-age=60", "Expires", "0").refusal(), "max-age wins over Expires");
  }

  @Test
  void anUnreadableLifetimeMeansDoNotReuse() {
    assertEquals("invalid-max-age", of("Cache-Control", "max-age='3600'").refusal());
    assertEquals("invalid-max-age", of("Cache-Control", "s-maxage=soon, max-age=60").refusal());
    assertEquals(Duration.ofSeconds(3600), of("Cache-Control", "max-age=\"3600\"").fresh(), "quoted digits are read");
    assertEquals(Duration.ofSeconds(1), of("Cache-Control", "extension=\"max-age=3600\", max-age=1").fresh());
  }

  @Test
  void pageCacheControlThenCdnCacheControlThenCacheControl() {
    assertEquals(Duration.ofSeconds(5), of("Cache-Control", "max-age=60", "CDN-Cache-Control", "max-age=5").fresh());
    assertNull(of("Cache-Control", "no-store", "CDN-Cache-Control", "max-age=5").refusal());
    assertEquals(Duration.ofSeconds(7), of("Cache-Control", "no-store", "CDN-Cache-Control", "no-store",
        "PageCache-Control", "max-age=7").fresh());
    assertEquals("no-store", of("Cache-Control", "no-store", "CDN-Cache-Control", "max-age=10000, &&&&&").refusal(),
        "an invalid targeted field is ignored");
    assertEquals("no-store", of("Cache-Control", "no-store", "CDN-Cache-Control", "max-age=\"10000\"").refusal());
    assertNull(of("CDN-Cache-Control", "max-age=60", "Expires", "0").refusal(), "a targeted field replaces Expires");
  }

  @Test
  void sMaxAgeAndRevalidateDirectivesForbidServingStale() {
    assertTrue(of("Cache-Control", "s-maxage=60").forbidsStale());
    assertTrue(of("Cache-Control", "max-age=60, must-revalidate").forbidsStale());
    assertTrue(of("Cache-Control", "max-age=60, proxy-revalidate").forbidsStale());
    assertFalse(of("Cache-Control", "max-age=60").forbidsStale());
  }
}
