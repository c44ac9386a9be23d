package org.pagecache.internal.fragments;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.pagecache.internal.counters.CounterNames;

/**
 * The parts of a cached page filled in each time it is served: one mechanism for the live counters
 * and the application's fragments (docs/counters.md, docs/fragments.md). A page is stored with its
 * placeholders; every serve replaces each of them, in page order, for the current visitor.
 *
 * <h2>Syntax</h2>
 * <pre>
 *   &lt;!--pagecache:views OBJECT_KEY--&gt;   the view count of OBJECT_KEY, e.g. &lt;!--pagecache:views article:42--&gt;
 *   &lt;!--pagecache:online--&gt;              the online-visitors count
 *   &lt;!--pagecache:cache--&gt;               how this response was served: HIT, STALE, MISS or BYPASS
 *   &lt;!--pagecache:fragment NAME--&gt;       what the application's renderer NAME gives for this visitor
 * </pre>
 * Exactly as shown: lower case, one space before the key or name, nothing else inside the comment.
 * {@code OBJECT_KEY} is 1 to 200 of {@code A-Z a-z 0-9 : _ . / -} ({@link CounterNames}), a
 * fragment NAME 1 to 64 of {@code A-Z a-z 0-9 _ . -} ({@link #FRAGMENT_NAME}). Anything else is not a
 * placeholder and stays in the page as the HTML comment it is.
 *
 * <p>Bodies are scanned as bytes: the placeholders are ASCII, so this is exact for UTF-8 and every
 * ASCII-compatible charset, and the bytes around them are copied untouched.
 */
public final class Placeholders {
  /** A fragment's name: short, and safe inside an HTML comment and a memcached key. */
  public static final String FRAGMENT_NAME = "[A-Za-z0-9_.-]{1,64}";

  private static final String PREFIX = "<!--pagecache:";
  private static final byte[] PREFIX_BYTES = PREFIX.getBytes(StandardCharsets.US_ASCII);
  private static final Pattern INSIDE = Pattern.compile(
      "views (" + CounterNames.SYNTAX + ")|(online)|(cache)|fragment (" + FRAGMENT_NAME + ")");
  private static final Pattern NAME = Pattern.compile(FRAGMENT_NAME);
  /** The longest text between the prefix and the closing {@code -->}: "views " and a 200-character key. */
  private static final int MAX_INSIDE = 206;

  private Placeholders() {}

  /** What a placeholder stands for. */
  public enum Kind { VIEWS, ONLINE, CACHE, FRAGMENT }

  /**
   * One placeholder of a body.
   *
   * @param start its first byte
   * @param end   the byte after its {@code -->}
   * @param kind  what it stands for
   * @param arg   the object key (VIEWS) or fragment name (FRAGMENT); null otherwise
   */
  public record Placeholder(int start, int end, Kind kind, String arg) {}

  /** The text a handler writes where a fragment goes. */
  public static String fragment(String name) {
    if (name == null || !NAME.matcher(name).matches()) {
      throw new IllegalArgumentException("fragment name: '" + name + "' is not 1 to 64 of A-Z a-z 0-9 _ . -");
    }
    return PREFIX + "fragment " + name + "-->";
  }

  /** A cheap check: false means the page has no placeholder and needs no work. */
  public static boolean contains(byte[] body) {
    return body != null && indexOfPrefix(body, 0) >= 0;
  }

  /** The placeholders of a body, in page order; an empty list when there are none. */
  public static List<Placeholder> find(byte[] body) {
    if (body == null) {
      return List.of();
    }
    List<Placeholder> found = null;
    int from = 0;
    int at;
    while ((at = indexOfPrefix(body, from)) >= 0) {
      int inside = at + PREFIX_BYTES.length;
      int close = indexOfClose(body, inside);
      if (close < 0) {
        from = inside; // unclosed within the longest placeholder: plain text
        continue;
      }
      Matcher m = INSIDE.matcher(new String(body, inside, close - inside, StandardCharsets.ISO_8859_1));
      if (!m.matches()) {
        from = inside;
        continue;
      }
      Placeholder p = m.group(1) != null ? new Placeholder(at, close + 3, Kind.VIEWS, m.group(1))
          : m.group(2) != null ? new Placeholder(at, close + 3, Kind.ONLINE, null)
          : m.group(3) != null ? new Placeholder(at, close + 3, Kind.CACHE, null)
          : new Placeholder(at, close + 3, Kind.FRAGMENT, m.group(4));
      found = found == null ? new ArrayList<>(4) : found;
      found.add(p);
      from = close + 3;
    }
    return found == null ? List.of() : found;
  }

  /** The object keys of the view placeholders, each once, in page order. */
  public static List<String> viewKeys(List<Placeholder> found) {
    Set<String> keys = new LinkedHashSet<>();
    for (Placeholder p : found) {
      if (p.kind() == Kind.VIEWS) {
        keys.add(p.arg());
      }
    }
    return new ArrayList<>(keys);
  }

  /** True when the page shows the online count, so it is worth fetching. */
  public static boolean wantsOnline(List<Placeholder> found) {
    return found.stream().anyMatch(p -> p.kind() == Kind.ONLINE);
  }

  /**
   * The body with each placeholder replaced by {@code value}'s bytes, called once per placeholder in
   * page order; a null value keeps the placeholder as it is. A pure function apart from {@code value}.
   */
  public static byte[] render(byte[] body, List<Placeholder> found, Function<Placeholder, byte[]> value) {
    if (found.isEmpty()) {
      return body;
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(body.length + 256);
    int copied = 0;
    for (Placeholder p : found) {
      out.write(body, copied, p.start() - copied);
      byte[] v = value.apply(p);
      if (v == null) {
        out.write(body, p.start(), p.end() - p.start());
      } else {
        out.write(v, 0, v.length);
      }
      copied = p.end();
    }
    out.write(body, copied, body.length - copied);
    return out.toByteArray();
  }

  private static int indexOfPrefix(byte[] body, int from) {
    int last = body.length - PREFIX_BYTES.length;
    outer:
    for (int i = from; i <= last; i++) {
      if (body[i] != '<') {
        continue;
      }
      for (int j = 1; j < PREFIX_BYTES.length; j++) {
        if (body[i + j] != PREFIX_BYTES[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }

  /** The first {@code -->} after {@code from} within the longest placeholder, or -1. */
  private static int indexOfClose(byte[] body, int from) {
    int last = Math.min(body.length - 3, from + MAX_INSIDE);
    for (int i = from; i <= last; i++) {
      if (body[i] == '-' && body[i + 1] == '-' && body[i + 2] == '>') {
        return i;
      }
    }
    return -1;
  }
}
