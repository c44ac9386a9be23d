package org.pagecache;

import jakarta.servlet.ServletRequest;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.pagecache.counters.Counters;
import org.pagecache.internal.counters.Placeholders;

/**
 * Keeps counters live on cached pages: counts the views a page declared on every serve (hit or
 * miss), and fills counter placeholders into the body at serve time while the stored page keeps
 * them. Bodies are handled as ISO-8859-1 text: every byte maps to one char and back, so pages in
 * any ASCII-compatible charset (UTF-8, windows-1251, ...) round-trip byte for byte around the
 * ASCII placeholders.
 */
final class LiveCounts {
  private final Counters counters;

  LiveCounts(Counters counters) {
    this.counters = counters;
  }

  /** Counts one view of each object; returns the new counts (reused when rendering the page). */
  Map<String, Long> count(Collection<String> objectKeys) {
    Map<String, Long> counts = new LinkedHashMap<>();
    for (String key : objectKeys) {
      counts.put(key, counters.viewed(key));
    }
    return counts;
  }

  /** The views a handler declared with {@link PageCache#countView} while it ran. */
  static List<String> declared(ServletRequest request) {
    Object declared = request.getAttribute(PageCache.VIEWS_ATTRIBUTE);
    if (!(declared instanceof List<?> list)) {
      return List.of();
    }
    synchronized (list) {
      return list.stream().map(String::valueOf).distinct().limit(PageCache.MAX_TAGS).toList();
    }
  }

  /**
   * The body with current values in its placeholders; {@code known} are counts already at hand,
   * {@code cache} how this response is served (HIT, MISS, ...).
   */
  byte[] render(byte[] body, Map<String, Long> known, String cache) {
    String html = new String(body, StandardCharsets.ISO_8859_1);
    Map<String, Long> views = new LinkedHashMap<>(known);
    List<String> missing = Placeholders.viewKeys(html).stream().filter(k -> !views.containsKey(k)).toList();
    if (!missing.isEmpty()) {
      views.putAll(counters.views(missing));
    }
    long online = Placeholders.wantsOnline(html) ? counters.online() : -1;
    return Placeholders.render(html, views, online, cache).getBytes(StandardCharsets.ISO_8859_1);
  }
}
