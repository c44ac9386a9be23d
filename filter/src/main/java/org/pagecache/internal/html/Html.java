package org.pagecache.internal.html;

/**
 * HTML escaping for text and attribute values, for the admin page and the error page the cache
 * stores: one escaper for the library. Every handler name, tag, URL, message and memcached
 * statistic goes through {@link #escape} before it reaches a page: they come from editors,
 * request URLs and memcached, never from us.
 */
public final class Html {
  private Html() {}

  /** Escapes {@code & < > " '}, so the result is safe in element text and in quoted attributes. */
  public static String escape(String s) {
    if (s == null) {
      return "";
    }
    StringBuilder out = null;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      String replacement = switch (c) {
        case '&' -> "&amp;";
        case '<' -> "&lt;";
        case '>' -> "&gt;";
        case '"' -> "&quot;";
        case '\'' -> "&#39;";
        default -> null;
      };
      if (replacement == null && (c < 0x20 && c != '\n' && c != '\t' || c == 0x7f)) {
        // Control characters are not allowed in HTML text: show them as U+FFFD, like a browser would.
        replacement = "\uFFFD";
      }
      if (replacement != null) {
        if (out == null) {
          out = new StringBuilder(s.length() + 16).append(s, 0, i);
        }
        out.append(replacement);
      } else if (out != null) {
        out.append(c);
      }
    }
    return out == null ? s : out.toString();
  }
}
