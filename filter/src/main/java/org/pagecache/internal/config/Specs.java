package org.pagecache.internal.config;

import java.util.ArrayList;
import java.util.List;

/**
 * The one grammar of settings written on one line (for a web.xml init-param or an environment
 * variable): a spec of {@code key=value} items separated by commas ({@code ttl=5m, grace=10m,
 * vary=Accept-Language}: a policy, the counters), a list of named specs separated by
 * semicolons or line breaks ({@code article: ttl=5m; home: ttl=1m}: the policies), and a list of
 * named values separated by semicolons ({@code us=10.1.0.1:11211; asia=10.2.0.1:11211}: clusters, pools). Blank items
 * are skipped; names and values are trimmed. What a name or value means is the caller's business.
 */
public final class Specs {
  private Specs() {}

  /**
   * One item as written.
   *
   * @param name  the text before the separator, trimmed (the whole item when it has none)
   * @param value the text after the separator, trimmed; null when the item has no separator
   * @param text  the whole item, trimmed, for error messages
   */
  public record Item(String name, String value, String text) {
    /** A name and a separator: {@code name=value} or {@code name: spec}. */
    public boolean wellFormed() {
      return value != null && !name.isEmpty();
    }
  }

  /** The items of {@code key=value, key=value}. */
  public static List<Item> keyValues(String spec) {
    return split(spec, ",", '=');
  }

  /** The items of {@code name: spec; name: spec} (a line break separates as a semicolon does). */
  public static List<Item> namedSpecs(String text) {
    return split(text, "[;\\n]", ':');
  }

  /** The items of {@code name=value; name=value}: named server lists ({@code memcached.remote}, {@code memcached.pools}). */
  public static List<Item> namedValues(String text) {
    return split(text, ";", '=');
  }

  private static List<Item> split(String text, String separators, char between) {
    List<Item> items = new ArrayList<>();
    for (String raw : text.split(separators)) {
      if (raw.isBlank()) {
        continue;
      }
      int at = raw.indexOf(between);
      items.add(at < 0 ? new Item(raw.trim(), null, raw.trim())
          : new Item(raw.substring(0, at).trim(), raw.substring(at + 1).trim(), raw.trim()));
    }
    return items;
  }
}
