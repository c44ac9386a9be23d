package org.pagecache.internal.json;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The hand-written JSON writer: structure, commas and escaping. */
class JsonTest {

  @Test
  void writesNestedObjectsAndArraysWithCommasOnlyBetweenMembers() {
    String json = new Json().beginObject()
        .field("a", 1L)
        .name("list").beginArray().value("x").value(2L).beginObject().endObject().endArray()
        .field("ok", true)
        .field("none", (Long) null)
        .endObject().toString();
    assertEquals("{\"a\":1,\"list\":[\"x\",2,{}],\"ok\":true,\"none\":null}", json);
  }

  @Test
  void escapesQuotesBackslashesAndControlCharacters() {
    assertEquals("{\"error\":\"say \\\"hi\\\" \\\\ now\\n\\t\\u0001\\u007f\"}", Json.error("say \"hi\" \\ now\n\t\u0001\u007f"));
  }

  @Test
  void escapesMarkupSoTheOutputIsSafeInsideHtml() {
    assertEquals("[\"\\u003cscript\\u003ealert(1)\\u003c/script\\u003e \\u0026 \\u2028\"]",
        new Json().beginArray().value("<script>alert(1)</script> & \u2028").endArray().toString());
  }

  @Test
  void keepsUnicodeAndEscapesOnlyLoneSurrogates() {
    assertEquals("[\"été 😀 \\ud800\"]", new Json().beginArray().value("été 😀 \ud800").endArray().toString());
  }

  @Test
  void writesNonFiniteNumbersAsNull() {
    assertEquals("[0.5,null,null]", new Json().beginArray().value(0.5).value(Double.NaN)
        .value(Double.POSITIVE_INFINITY).endArray().toString());
  }
}
