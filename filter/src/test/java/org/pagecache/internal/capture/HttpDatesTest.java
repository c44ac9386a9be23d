package org.pagecache.internal.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.junit.jupiter.api.Test;

/** HTTP dates: the three forms a recipient reads, nothing else. */
class HttpDatesTest {
  private static final long AUG_2050 = java.time.Instant.parse("2050-08-18T02:01:18Z").toEpochMilli();

  @Test
  void theThreeFormsAreRead() {
    assertEquals(AUG_2050, HttpDates.parse("Thu, 18 Aug 2050 02:01:18 GMT"));
    assertEquals(AUG_2050, HttpDates.parse("Thursday, 18-Aug-50 02:01:18 GMT"));
    assertEquals(AUG_2050, HttpDates.parse("Thu Aug 18 02:01:18 2050"));
    assertEquals(java.time.Instant.parse("1994-11-06T08:49:37Z").toEpochMilli(), HttpDates.parse("Sun Nov  6 08:49:37 1994"));
    assertEquals(AUG_2050, HttpDates.parse("THU, 18 AUG 2050 02:01:18 gmt"), "any case");
  }

  @Test
  void otherFormsAreNotDates() {
    assertNull(HttpDates.parse("Thu, 18 Aug 2050 2:01:18 GMT"));
    assertNull(HttpDates.parse("Thu, 18 Aug 2050 02:01:18 UTC"));
    assertNull(HttpDates.parse("Thu, 18 Aug 50 02:01:18 GMT"));
    assertNull(HttpDates.parse("Thu 18 Aug 2050 02:01:18 GMT"));
    assertNull(HttpDates.parse("Thu, 18-Aug-2050 02:01:18 GMT"));
    assertNull(HttpDates.parse("Thu, 18 Aug 2050 02.01.18 GMT"));
    assertNull(HttpDates.parse("0"));
    assertNull(HttpDates.parse(List.of("Thu, 18 Aug 2050 02:01:18 GMT", "Thu, 18 Aug 2050 02:01:19 GMT")), "two lines");
  }
}
