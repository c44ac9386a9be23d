package org.pagecache.spring;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The starter's own key in {@code pagecache.policies}, taken out before the filter reads the text,
 * so an application adopted by configuration alone can say what {@link CachedPage#tags()} says in
 * code: {@code tags=owner:{ownerId}} tags the handler's pages (URI template variables of its
 * mapping).
 * <pre>
 *   pagecache.policies=OwnerController.processFindForm: refreshed-by=/owners/**; OwnerController.showOwner: tags=owner:{ownerId}
 * </pre>
 * {@code refreshed-by=} is the filter's own policy key since issue 39 (a plain WAR needs it as much):
 * it stays in the text, and the filter refreshes the handler after a successful write to a matching
 * path, with the same {@code PathPattern} syntax this class used to read it with.
 *
 * @param forFilter the policies without these keys
 * @param tags tag templates by handler
 */
record PolicyRules(String forFilter, Map<String, List<String>> tags) {
  static final PolicyRules NONE = new PolicyRules(null, Map.of());

  /** @param configured {@code pagecache.policies} as written, or null */
  static PolicyRules of(String configured) {
    if (configured == null) {
      return NONE;
    }
    Map<String, List<String>> tags = new LinkedHashMap<>();
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
        if (key.equals("tags")) {
          tags.computeIfAbsent(handler, h -> new ArrayList<>()).addAll(List.of(value.split("\\|")));
        } else {
          kept.add(pair.trim());
        }
      }
      entries.add(handler + ": " + String.join(", ", kept));
    }
    return new PolicyRules(String.join("; ", entries), tags);
  }
}
