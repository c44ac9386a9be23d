package org.pagecache.spring;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Tags written with URI template variables, {@code owner:{ownerId}}, as in the controller's own
 * {@code @GetMapping("/owners/{ownerId}")}: the same template names the pages that show an owner
 * and the writes that change one. A value is URL-encoded into the tag, so a space or a comma in
 * a path segment still makes a valid tag, the same on both sides.
 */
final class TagTemplates {
  private static final Pattern VARIABLE = Pattern.compile("\\{\\*?([^}:]+)(?::[^}]*)?}");

  private TagTemplates() {}

  /** The variable names a template or a path pattern uses: {@code /owners/{ownerId}} gives {@code ownerId}. */
  static Set<String> variables(String template) {
    Set<String> names = new LinkedHashSet<>();
    Matcher m = VARIABLE.matcher(template);
    while (m.find()) {
      names.add(m.group(1));
    }
    return names;
  }

  /**
   * The tag for one request.
   *
   * @throws IllegalArgumentException when a variable has no value (start-up checks templates against
   *     the mappings, so this means a mapping changed at run time)
   */
  static String expand(String template, Map<String, String> values) {
    Matcher m = VARIABLE.matcher(template);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      String value = values.get(m.group(1));
      if (value == null) {
        throw new IllegalArgumentException("tag '" + template + "': no URI variable '" + m.group(1) + "' in " + values.keySet());
      }
      m.appendReplacement(out, Matcher.quoteReplacement(URLEncoder.encode(value, StandardCharsets.UTF_8)));
    }
    return m.appendTail(out).toString();
  }
}
