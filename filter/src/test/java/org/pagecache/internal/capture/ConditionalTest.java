package org.pagecache.internal.capture;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** When a stored page may be answered 304. */
class ConditionalTest {
  private static final String LM = "Tue, 15 Nov 1994 12:45:26 GMT";

  @Test
  void ifNoneMatchComparesWeakly() {
    assertTrue(Conditional.notModified("\"a\"", null, List.of("\"a\""), null));
    assertTrue(Conditional.notModified("W/\"a\"", null, List.of("\"a\""), null));
    assertTrue(Conditional.notModified("\"x\", W/\"a\"", null, List.of("W/\"a\""), null));
    assertTrue(Conditional.notModified("*", null, List.of("\"a\""), null));
    assertFalse(Conditional.notModified("\"b\"", null, List.of("\"a\""), null));
    assertFalse(Conditional.notModified("\"b\"", LM, List.of("\"a\""), LM), "If-None-Match decides alone");
  }

  @Test
  void ifModifiedSinceComparesWithLastModified() {
    assertTrue(Conditional.notModified(null, LM, List.of("\"a\""), LM));
    assertTrue(Conditional.notModified(null, "Wed, 16 Nov 1994 00:00:00 GMT", List.of(), LM));
    assertFalse(Conditional.notModified(null, "Mon, 14 Nov 1994 00:00:00 GMT", List.of(), LM));
    assertFalse(Conditional.notModified(null, LM, List.of(), null));
    assertFalse(Conditional.notModified(null, "yesterday", List.of(), LM));
  }
}
