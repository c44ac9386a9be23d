package org.pagecache.internal.capture;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class PageSenderTest {
  @Test
  void acceptEncodingIsParsedWithQValues() {
    assertTrue(PageSender.acceptsGzip("gzip, deflate, br"));
    assertTrue(PageSender.acceptsGzip("br;q=1.0, gzip;q=0.8"));
    assertFalse(PageSender.acceptsGzip("gzip;q=0"));
    assertFalse(PageSender.acceptsGzip("identity"));
    assertTrue(PageSender.acceptsGzip("*"));
    assertFalse(PageSender.acceptsGzip("*, gzip;q=0"));
    assertFalse(PageSender.acceptsGzip(null));
  }

  @Test
  void ifNoneMatchMatchesEitherRepresentationOfThePagesOwnTag() {
    java.util.List<String> tags = java.util.List.of("\"abc\"", "\"abc-gz\"");
    assertTrue(Conditional.notModified("\"abc\"", null, tags, null));
    assertTrue(Conditional.notModified("W/\"abc-gz\"", null, tags, null));
    assertTrue(Conditional.notModified("\"x\", \"abc\"", null, tags, null));
    assertTrue(Conditional.notModified("*", null, tags, null));
    assertFalse(Conditional.notModified("\"abd\"", null, tags, null));
    assertFalse(Conditional.notModified(null, null, tags, null));
  }
}
