package org.pagecache.internal.capture;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** How a session value is looked for in a built page: as written, HTML-escaped, and not when short. */
class SessionValuesInBodyTest {
  private static byte[] page(String html) {
    return html.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void aValueIsFoundAsWrittenAndAsAViewEscapesIt() {
    assertTrue(SessionValuesInBody.contains(page("<input value=\"tok-9f8e7d6c\">"), "tok-9f8e7d6c"));
    assertTrue(SessionValuesInBody.contains(page("<p>Hello, O&#39;Brien &amp; Söhne</p>"), "O'Brien & Söhne"));
    assertFalse(SessionValuesInBody.contains(page("<p>Hello, someone else</p>"), "O'Brien & Söhne"));
  }

  @Test
  void shortValuesAreNotLookedForTheyAppearInAnyPage() {
    assertFalse(SessionValuesInBody.contains(page("<html lang=de><p>3 items</p>"), "de"));
    assertFalse(SessionValuesInBody.contains(page("<p>1234567</p>"), "1234567"));
    assertTrue(SessionValuesInBody.contains(page("<p>12345678</p>"), "12345678"));
  }
}
