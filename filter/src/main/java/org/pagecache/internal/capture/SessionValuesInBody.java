package org.pagecache.internal.capture;

import jakarta.servlet.http.HttpSession;
import java.nio.charset.StandardCharsets;
import java.util.Enumeration;
import java.util.LinkedHashSet;
import java.util.Set;
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

  /** Shorter names ("al") are parts of ordinary words. */
  static final int MIN_NAME_LENGTH = 3;

  /**
   * True when {@code name} (3 characters or more) appears in the body as a word, as written or
   * HTML-escaped: not inside a longer run of letters and digits ("bob" is found in "Hello, bob!",
   * not in "bobsleigh").
   */
  public static boolean containsWord(byte[] body, String name) {
    if (body == null || name == null || name.strip().length() < MIN_NAME_LENGTH) {
      return false;
    }
    for (String form : escapedForms(name.strip())) {
      if (containsWord(body, form.getBytes(StandardCharsets.UTF_8))) {
        return true;
      }
    }
    return false;
  }

  /** True when one of {@code values} is in the body as a word ({@link #containsWord(byte[], String)}). */
  public static boolean containsAnyWord(byte[] body, Iterable<String> values) {
    if (values != null) {
      for (String value : values) {
        if (containsWord(body, value)) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * The text as written and as the usual escapers write it in HTML: ours and Spring's
   * {@code HtmlUtils} and Thymeleaf ({@code &#39;}), OWASP's encoder ({@code &#x27;}) and XHTML
   * templates ({@code &apos;}) differ only in the apostrophe ("O'Brien").
   */
  private static Set<String> escapedForms(String text) {
    Set<String> forms = new LinkedHashSet<>();
    forms.add(text);
    String escaped = Html.escape(text);
    forms.add(escaped);
    forms.add(escaped.replace("&#39;", "&#x27;"));
    forms.add(escaped.replace("&#39;", "&apos;"));
    forms.add(escaped.replace("&quot;", "&#34;"));
    return forms;
  }

  private static boolean containsWord(byte[] body, byte[] needle) {
    int from = 0;
    int at;
    while ((at = indexOf(body, needle, from)) >= 0) {
      boolean before = at == 0 || !Character.isLetterOrDigit(body[at - 1] & 0xff) || !Character.isLetterOrDigit(needle[0] & 0xff);
      int after = at + needle.length;
      boolean afterOk = after >= body.length || !Character.isLetterOrDigit(body[after] & 0xff)
          || !Character.isLetterOrDigit(needle[needle.length - 1] & 0xff);
      if (before && afterOk) {
        return true;
      }
      from = at + 1;
    }
    return false;
  }

  static boolean contains(byte[] body, String value) {
    if (value == null || value.length() < MIN_LENGTH) {
      return false;
    }
    if (indexOf(body, value.getBytes(StandardCharsets.UTF_8), 0) >= 0) {
      return true;
    }
    String escaped = Html.escape(value);
    return !escaped.equals(value) && indexOf(body, escaped.getBytes(StandardCharsets.UTF_8), 0) >= 0;
  }

  private static int indexOf(byte[] body, byte[] needle, int from) {
    outer:
    for (int i = from; i <= body.length - needle.length; i++) {
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
