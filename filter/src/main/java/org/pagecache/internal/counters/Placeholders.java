package org.pagecache.internal.counters;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.pagecache.counters.Counters;

/**
 * Live values inside cached HTML. A page is cached once, but its view count and the online count
 * change with every request; the page carries placeholders and the filter fills them in each time
 * it serves the page, from one multi-get. The same mechanism tells a page how this copy was served.
 *
 * <h2>Syntax</h2>
 * <pre>
 *   &lt;!--pagecache:views OBJECT_KEY--&gt;   the view count of OBJECT_KEY,
 *                                        e.g. &lt;!--pagecache:views article:42--&gt;
 *   &lt;!--pagecache:online--&gt;              the online-visitors count
 *   &lt;!--pagecache:cache--&gt;               how this response was served: HIT, STALE, MISS or
 *                                        BYPASS (the X-Cache value, even when that header is off)
 * </pre>
 * Exactly as shown: lower case, one space before the key, nothing else inside the comment.
 * {@code OBJECT_KEY} is 1 to 200 of {@code A-Z a-z 0-9 : _ . / -} ({@link CounterNames}). Anything
 * else, such as a key with spaces or quotes, is not a placeholder and stays in the page as the
 * HTML comment it is. Counts render as plain digits ({@code 1234}); an unknown or unavailable
 * count renders as nothing, so a page never shows a broken value.
 *
 * <p>Placeholders are found in decoded text; {@link #contains(byte[])} scans bytes and is exact
 * for UTF-8 and every ASCII-compatible charset.
 *
 * <pre>{@code
 * if (Placeholders.contains(body)) {
 *   String html = new String(body, UTF_8);
 *   Map<String, Long> views = counters.views(Placeholders.viewKeys(html));  // one round trip
 *   html = Placeholders.render(html, views, Placeholders.wantsOnline(html) ? counters.online() : -1);
 * }
 * }</pre>
 */
public final class Placeholders {
  private static final String PREFIX = "<!--pagecache:";
  private static final byte[] PREFIX_BYTES = PREFIX.getBytes(StandardCharsets.US_ASCII);
  private static final String ONLINE = PREFIX + "online-->";
  private static final Pattern PLACEHOLDER =
      Pattern.compile("<!--pagecache:(?:views (" + CounterNames.SYNTAX + ")|(online)|cache)-->");

  private Placeholders() {}

  /** A cheap check for the filter: false means the page has no placeholder and needs no work. */
  public static boolean contains(byte[] body) {
    if (body == null) {
      return false;
    }
    int last = body.length - PREFIX_BYTES.length;
    outer:
    for (int i = 0; i <= last; i++) {
      if (body[i] != '<') {
        continue;
      }
      for (int j = 1; j < PREFIX_BYTES.length; j++) {
        if (body[i + j] != PREFIX_BYTES[j]) {
          continue outer;
        }
      }
      return true;
    }
    return false;
  }

  /** The object keys of the view placeholders, each once, in order of appearance. */
  public static List<String> viewKeys(String html) {
    Set<String> keys = new LinkedHashSet<>();
    if (html.contains(PREFIX)) {
      Matcher m = PLACEHOLDER.matcher(html);
      while (m.find()) {
        if (m.group(1) != null) {
          keys.add(m.group(1));
        }
      }
    }
    return new ArrayList<>(keys);
  }

  /** True when the page shows the online count, so it is worth fetching. */
  public static boolean wantsOnline(String html) {
    return html.contains(ONLINE);
  }

  /**
   * As {@link #render(String, Map, long, String)} with no cache label: the cache placeholder is
   * left in place, for the filter to fill when it sends the page.
   */
  public static String render(String html, Map<String, Long> views, long online) {
    return render(html, views, online, null);
  }

  /**
   * The page with its placeholders replaced; a pure function, no I/O. A view count missing from
   * {@code views} or negative and a negative {@code online} render as nothing; with a null
   * {@code cache} the cache placeholder stays as it is.
   */
  public static String render(String html, Map<String, Long> views, long online, String cache) {
    if (!html.contains(PREFIX)) {
      return html;
    }
    Matcher m = PLACEHOLDER.matcher(html);
    StringBuilder out = null;
    int copied = 0;
    while (m.find()) {
      if (out == null) {
        out = new StringBuilder(html.length());
      }
      out.append(html, copied, m.start());
      if (m.group(1) == null && m.group(2) == null) {
        out.append(cache == null ? m.group() : cache);
      } else {
        Long value = m.group(1) == null ? Long.valueOf(online) : views.get(m.group(1));
        if (value != null && value >= 0) {
          out.append(value.longValue());
        }
      }
      copied = m.end();
    }
    if (out == null) {
      return html;
    }
    return out.append(html, copied, html.length()).toString();
  }

  /** Fetches what the page shows (one multi-get for views, the cached online count) and renders. */
  public static String fill(String html, Counters counters) {
    List<String> keys = viewKeys(html);
    Map<String, Long> views = keys.isEmpty() ? Map.of() : counters.views(keys);
    return render(html, views, wantsOnline(html) ? counters.online() : -1);
  }
}
