package org.pagecache.spring;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code policies} text the filter gets: the policies of controller methods merged with the
 * application's {@code pagecache.policies}. Entries the filter cannot read are passed on untouched,
 * so its own message names them.
 */
final class PolicyText {
  private PolicyText() {}

  /**
   * @param fromMethods handler name to spec, from the controller methods (cached ones carry {@code enabled=true})
   * @param configured {@code pagecache.policies} as the application wrote it
   */
  static String merge(Map<String, String> fromMethods, String configured) {
    Map<String, String> entries = new LinkedHashMap<>();
    // Anything that no handler of this starter names (static resources, error pages, Actuator,
    // other servlets) is not cached unless the application says so: a default of enabled=false.
    entries.put("default", "enabled=false");
    entries.putAll(fromMethods);
    StringBuilder unreadable = new StringBuilder();
    for (String entry : configured == null ? List.<String>of() : List.of(configured.split("[;\\n]"))) {
      if (entry.isBlank()) {
        continue;
      }
      int colon = entry.indexOf(':');
      if (colon < 1) {
        unreadable.append("; ").append(entry.trim());
        continue;
      }
      String handler = entry.substring(0, colon).trim();
      String spec = entry.substring(colon + 1).trim();
      // The application's entry comes last, so it wins; naming a handler in the properties opts it in.
      String before = entries.getOrDefault(handler, handler.equals("default") ? "" : "enabled=true");
      entries.put(handler, join(before, spec));
    }
    StringBuilder text = new StringBuilder();
    entries.forEach((handler, spec) -> text.append(text.length() == 0 ? "" : "; ").append(handler).append(": ").append(spec));
    return text.append(unreadable).toString();
  }

  /** The handler names of a policies text ({@code default} included). */
  static java.util.Set<String> handlers(String text) {
    java.util.Set<String> names = new java.util.TreeSet<>();
    for (String entry : text.split("[;\\n]")) {
      int colon = entry.indexOf(':');
      if (colon > 0) {
        names.add(entry.substring(0, colon).trim());
      }
    }
    return names;
  }

  static String join(String a, String b) {
    return a.isBlank() ? b : b.isBlank() ? a : a + ", " + b;
  }
}
