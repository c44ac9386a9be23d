package org.pagecache.internal.nodes;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Control values lead with the number replicas are merged by (issue 37: backlogs follow it with entries). */
class ControlValuesTest {
  private static long parse(String s) {
    return ControlValues.parse(s.getBytes(StandardCharsets.US_ASCII));
  }

  @Test
  void theLeadingNumberIsTheValue() {
    assertEquals(1700000000000L, parse("1700000000000"));
    assertEquals(12, parse("12  "), "incr pads with spaces");
    assertEquals(7, parse("7 884422\nT 100 1 pc2:t:r.a\n"), "a backlog: its version, then its generation and entries");
    assertEquals(0, parse("garbage"));
    assertEquals(0, ControlValues.parse(null));
  }
}
