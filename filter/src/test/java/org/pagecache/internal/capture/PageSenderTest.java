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
  void ifNoneMatchMatchesEitherRepresentation() {
    assertTrue(PageSender.matches("\"abc\"", "abc", "abc-gz"));
    assertTrue(PageSender.matches("W/\"abc-gz\"", "abc", "abc"));
    assertTrue(PageSender.matches("\"x\", \"abc\"", "abc", "abc"));
    assertTrue(PageSender.matches("*", "abc", "abc"));
    assertFalse(PageSender.matches("\"abd\"", "abc", "abc"));
    assertFalse(PageSender.matches(null, "abc", "abc"));
  }
}
