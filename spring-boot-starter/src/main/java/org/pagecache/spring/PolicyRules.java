package org.pagecache.spring;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.http.server.PathContainer;
import org.springframework.web.util.pattern.PathPattern;
import org.springframework.web.util.pattern.PathPatternParser;

/**
 * The starter's own keys in {@code pagecache.policies}, taken out before the filter reads the text,
 * so an application adopted by configuration alone can say what {@link CachedPage#tags()} and
 * {@link RefreshesPages} say in code:
 * <ul>
 *   <li>{@code tags=owner:{ownerId}} tags the handler's pages (URI template variables of its mapping);
 *   <li>{@code refreshed-by=/owners/**|/owners/*}{@code /pets/**} makes every page of the handler
 *       stale after a successful (2xx/3xx) POST, PUT, PATCH or DELETE to a matching path.
 * </ul>
 * <pre>
 *   pagecache.policies=OwnerController.processFindForm: refreshed-by=/owners/**; OwnerController.showOwner: tags=owner:{ownerId}
 * </pre>
 *
 * @param forFilter the policies without these keys
 * @param tags tag templates by handler
 * @param refreshedBy write path patterns by the handler they refresh
 */
record PolicyRules(String forFilter, Map<String, List<String>> tags, Map<String, List<PathPattern>> refreshedBy) {
  static final PolicyRules NONE = new PolicyRules(null, Map.of(), Map.of());

  /**
   * @param configured {@code pagecache.policies} as written, or null
   * @throws IllegalArgumentException naming the handler, for a {@code refreshed-by} that is not a path pattern
   */
  static PolicyRules of(String configured) {
    if (configured == null) {
      return NONE;
    }
    Map<String, List<String>> tags = new LinkedHashMap<>();
    Map<String, List<PathPattern>> refreshedBy = new LinkedHashMap<>();
    List<String> entries = new ArrayList<>();
    for (String entry : configured.split("[;\\n]")) {
      int colon = entry.indexOf(':');
      if (colon < 1) {
        entries.add(entry); // the filter names what it cannot read
        continue;
      }
      String handler = entry.substring(0, colon).trim();
      List<String> kept = new ArrayList<>();
      for (String pair : entry.substring(colon + 1).split(",")) {
        String key = pair.contains("=") ? pair.substring(0, pair.indexOf('=')).trim() : "";
        String value = pair.contains("=") ? pair.substring(pair.indexOf('=') + 1).trim() : "";
        switch (key) {
          case "tags" -> tags.computeIfAbsent(handler, h -> new ArrayList<>()).addAll(List.of(value.split("\\|")));
          case "refreshed-by" -> {
            for (String path : value.split("\\|")) {
              refreshedBy.computeIfAbsent(handler, h -> new ArrayList<>()).add(pattern(handler, path.trim()));
            }
          }
          default -> kept.add(pair.trim());
        }
      }
      entries.add(handler + ": " + String.join(", ", kept));
    }
    return new PolicyRules(String.join("; ", entries), tags, refreshedBy);
  }

  private static PathPattern pattern(String handler, String path) {
    try {
      return PathPatternParser.defaultInstance.parse(path);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("pagecache.policies: " + handler + ": refreshed-by '" + path
          + "' is not a path pattern (" + e.getMessage() + "); use e.g. refreshed-by=/owners/**|/owners/*/pets/**");
    }
  }

  /** The handlers a write to this path (within the application) refreshes. */
  List<String> refreshedByWriteTo(String path) {
    PathContainer container = PathContainer.parsePath(path);
    List<String> out = new ArrayList<>();
    refreshedBy.forEach((handler, patterns) -> {
      if (patterns.stream().anyMatch(p -> p.matches(container))) {
        out.add(handler);
      }
    });
    return out;
  }
}
