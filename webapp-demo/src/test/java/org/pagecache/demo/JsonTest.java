package org.pagecache.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonTest {
  @Test
  void quotesEscapeWhatWouldBreakTheStringOrAnEnclosingScript() {
    assertEquals("\"a\\\"b\\\\c\\nd\\u003c/script>\\u0001\"", Json.quote("a\"b\\c\nd</script>\u0001"));
  }

  @Test
  void countsAreAnObjectInTheMapsOrder() {
    Map<String, Long> counts = new LinkedHashMap<>();
    counts.put("home", 2L);
    counts.put("article", 5L);

    assertEquals("{\"home\":2,\"article\":5}", Json.counts(counts));
  }
}
