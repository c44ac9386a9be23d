package org.pagecache.demo;

import java.util.Map;

/** Just enough JSON writing for the demo's two small documents. */
final class Json {
  private Json() {}

  static String quote(String s) {
    StringBuilder b = new StringBuilder(s.length() + 2).append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> b.append("\\\"");
        case '\\' -> b.append("\\\\");
        case '\n' -> b.append("\\n");
        case '\r' -> b.append("\\r");
        case '\t' -> b.append("\\t");
        // '<' escaped too, so a title can never close a <script> that embeds the JSON.
        case '<' -> b.append("\\u003c");
        default -> {
          if (c < 0x20 || c == '\u2028' || c == '\u2029') {
            b.append(String.format("\\u%04x", (int) c));
          } else {
            b.append(c);
          }
        }
      }
    }
    return b.append('"').toString();
  }

  static String counts(Map<String, Long> counts) {
    StringBuilder b = new StringBuilder("{");
    String comma = "";
    for (Map.Entry<String, Long> e : counts.entrySet()) {
      b.append(comma).append(quote(e.getKey())).append(':').append(e.getValue());
      comma = ",";
    }
    return b.append('}').toString();
  }
}
