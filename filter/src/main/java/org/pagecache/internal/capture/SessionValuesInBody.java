package org.pagecache.internal.capture;

import jakarta.servlet.http.HttpSession;
import java.nio.charset.StandardCharsets;
import java.util.Enumeration;
import org.pagecache.internal.html.Html;

/**
 * Whether a built page shows something of the visitor's session: its id, or the text of one of
 * its attributes (a String or other character sequence of at least 8
 * characters, as written or HTML-escaped). This catches values that reached the page past
 * PageCache's request wrapper (a token an earlier filter copied into a thread-local), which
 * {@link SessionReads} cannot see. Shorter values and objects rendered in another form are not
 * found: docs/safety.md says what stays the application's to declare.
 */
public final class SessionValuesInBody {
  /** Shorter strings ("de", "3") appear in any page; tokens and ids are longer. */
  static final int MIN_LENGTH = 8;

  private SessionValuesInBody() {}

  /** The cause ({@code session-id}, {@code value-of:NAME}) of the first value found, or null. */
  public static String find(HttpSession session, byte[] body) {
    if (session == null || body == null || body.length == 0) {
      return null;
    }
    try {
      if (contains(body, session.getId())) {
        return "session-id";
      }
      for (Enumeration<String> names = session.getAttributeNames(); names.hasMoreElements(); ) {
        String name = names.nextElement();
        if (session.getAttribute(name) instanceof CharSequence text && contains(body, text.toString())) {
          return "value-of:" + name;
        }
      }
      return null;
    } catch (IllegalStateException invalidated) {
      return "invalidated"; // the session ended during the build: nothing to compare, so not shared
    }
  }

  static boolean contains(byte[] body, String value) {
    if (value == null || value.length() < MIN_LENGTH) {
      return false;
    }
    if (indexOf(body, value.getBytes(StandardCharsets.UTF_8)) >= 0) {
      return true;
    }
    String escaped = Html.escape(value);
    return !escaped.equals(value) && indexOf(body, escaped.getBytes(StandardCharsets.UTF_8)) >= 0;
  }

  private static int indexOf(byte[] body, byte[] needle) {
    outer:
    for (int i = 0; i <= body.length - needle.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (body[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }
}
