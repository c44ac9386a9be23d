package org.pagecache.internal.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** The one range a Range request selects of a body of 100 bytes. */
class ByteRangeTest {
  private static ByteRange select(String range) {
    return ByteRange.select(range, null, "\"t\"", null, 100);
  }

  @Test
  void aSingleRangeIsSelected() {
    assertEquals(new ByteRange(0, 9), select("bytes=0-9"));
    assertEquals(new ByteRange(90, 99), select("bytes=90-"));
    assertEquals(new ByteRange(95, 99), select("bytes=-5"));
    assertEquals(new ByteRange(50, 99), select("bytes=50-500"), "clipped to the body");
  }

  @Test
  void whatCannotBeServedAsOneRangeGetsTheWholeBody() {
    assertNull(select(null));
    assertNull(select("bytes=0-1, 5-6"));
    assertNull(select("items=0-1"));
    assertNull(select("bytes=9-1"));
    assertNull(select("bytes=x-1"));
    assertNull(ByteRange.select("bytes=0-1", "\"other\"", "\"t\"", null, 100), "If-Range for another version");
    assertEquals(new ByteRange(0, 1), ByteRange.select("bytes=0-1", "\"t\"", "\"t\"", null, 100));
  }

  @Test
  void aRangePastTheEndIsUnsatisfiable() {
    assertEquals(ByteRange.UNSATISFIABLE, select("bytes=100-"));
    assertEquals(ByteRange.UNSATISFIABLE, select("bytes=-0"));
  }
}
