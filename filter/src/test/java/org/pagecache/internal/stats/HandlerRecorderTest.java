package org.pagecache.internal.stats;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The evidence a handler keeps is bounded, and an attacker's junk names cannot push out the real one. */
class HandlerRecorderTest {
  @Test
  void aFrequentCookieStaysInTheEvidenceWhateverJunkNamesFollow() {
    HandlerRecorder stats = new HandlerRecorder("home");
    for (int i = 0; i < 500; i++) { // an attacker sends a new name with each request, visitors keep coming
      stats.cookieBypass(List.of("junk" + i), true);
      stats.cookieBypass(List.of("XSRF-TOKEN"), false);
      stats.cookieBypass(List.of("XSRF-TOKEN"), false);
    }
    assertArrayEquals(new long[] {1000, 0}, stats.cookieBypasses().get("XSRF-TOKEN"));
    assertTrue(stats.cookieBypasses().size() <= HandlerRecorder.MAX_NAMES, "bounded: " + stats.cookieBypasses().size());
  }

  @Test
  void anUnkeyedHeaderIsReportedForLoggingOnlyTheFirstTime() {
    HandlerRecorder stats = new HandlerRecorder("article");
    assertTrue(stats.unkeyedHeaderRead("user-agent"));
    assertEquals(false, stats.unkeyedHeaderRead("user-agent"));
    assertEquals(2L, stats.unkeyedHeaders().get("user-agent"));
  }
}
