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

  @Test
  void aPersonalValueIsFoundAsAWordAsWrittenAndAsEachCommonEscaperWritesIt() {
    java.util.List<String> dara = java.util.List.of("Dara O'Brien", "dara@example.org");
    assertTrue(SessionValuesInBody.containsAnyWord(page("<p>Welcome back, Dara O'Brien</p>"), dara));
    assertTrue(SessionValuesInBody.containsAnyWord(page("<p>Welcome back, Dara O&#39;Brien</p>"), dara));
    assertTrue(SessionValuesInBody.containsAnyWord(page("<p>Welcome back, Dara O&#x27;Brien</p>"), dara));
    assertTrue(SessionValuesInBody.containsAnyWord(page("<p>Welcome back, Dara O&apos;Brien</p>"), dara));
    assertTrue(SessionValuesInBody.containsAnyWord(page("<a href=\"mailto:dara@example.org\">mail</a>"), dara));
    assertFalse(SessionValuesInBody.containsAnyWord(page("<p>Welcome back, Darach O'Briens</p>"), dara));
  }

  @Test
  void personalValuesShorterThanThreeCharactersAreNotLookedFor() {
    assertFalse(SessionValuesInBody.containsAnyWord(page("<p>Al wrote: Li said</p>"), java.util.List.of("Al", " Li ")));
    assertTrue(SessionValuesInBody.containsAnyWord(page("<p>Hi, Amy</p>"), java.util.List.of("Amy")));
    assertFalse(SessionValuesInBody.containsAnyWord(page("<p>Amygdala</p>"), java.util.List.of("Amy")), "a word, not a part of one");
  }
}
