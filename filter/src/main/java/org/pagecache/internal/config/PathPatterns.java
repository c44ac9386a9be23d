package org.pagecache.internal.config;

import java.util.ArrayList;
import java.util.List;

/**
 * The path patterns of {@code refreshed-by=}, in the syntax of Spring's {@code PathPattern} (which
 * the Spring Boot starter used for the same key before the filter read it, so one policy text means
 * the same in a WAR and in Boot): segments separated by {@code /}; within a segment {@code *} is
 * any characters and {@code ?} one; a segment {@code {name}} is any one segment; {@code **} or
 * {@code {*name}} as the last segment is any number of segments, none included. {@code /owners/*}
 * matches {@code /owners/7} but not {@code /owners/7/edit}; {@code /owners/**} matches both and
 * {@code /owners}. Pure.
 */
public final class PathPatterns {
  private PathPatterns() {}

  /**
   * The pattern, checked.
   *
   * @throws IllegalArgumentException naming {@code param}, the pattern and the syntax
   */
  public static String check(String param, String pattern) {
    String why = problem(pattern);
    if (why != null) {
      throw new IllegalArgumentException(param + ": '" + pattern + "' is not a path pattern (" + why
          + "); use /exact, /dir/* (one segment below), /dir/** (any depth) or /dir/{id}/edit,"
          + " several separated by |, e.g. refreshed-by=/owners/**|/pets/*");
    }
    return pattern;
  }

  private static String problem(String pattern) {
    if (!pattern.startsWith("/")) {
      return "it must start with /";
    }
    if (pattern.chars().anyMatch(c -> c <= ' ' || c == 0x7f)) {
      return "no space or control character";
    }
    List<String> segments = segments(pattern);
    for (int i = 0; i < segments.size(); i++) {
      String s = segments.get(i);
      boolean last = i == segments.size() - 1;
      if ((s.equals("**") || s.startsWith("{*")) && !last) {
        return s + " only as the last segment";
      }
      if (s.contains("**") && !s.equals("**")) {
        return "** only as a whole segment";
      }
      if ((s.contains("{") || s.contains("}")) && !s.matches("\\{\\*?[A-Za-z_][A-Za-z0-9_]*}")) {
        return "a variable is a whole segment such as {id}";
      }
    }
    return null;
  }

  /** Whether the path (within the application, decoded, starting with {@code /}) matches the pattern. */
  public static boolean matches(String pattern, String path) {
    return match(segments(pattern), 0, segments(path), 0);
  }

  private static boolean match(List<String> pattern, int p, List<String> path, int i) {
    if (p == pattern.size()) {
      return i == path.size();
    }
    String s = pattern.get(p);
    if (s.equals("**") || s.startsWith("{*")) {
      return true; // checked to be last: the rest of the path, none included
    }
    if (i == path.size()) {
      return false;
    }
    String segment = path.get(i);
    boolean here = s.startsWith("{") ? !segment.isEmpty() : !segment.isEmpty() && glob(s, segment);
    return here && match(pattern, p + 1, path, i + 1);
  }

  /**
   * {@code *} any characters, {@code ?} one, the rest literally. Greedy with one backtrack point,
   * so a hostile path costs at most its length times the pattern's, whatever the stars.
   */
  static boolean glob(String g, String s) {
    int gi = 0;
    int si = 0;
    int star = -1;
    int mark = 0;
    while (si < s.length()) {
      if (gi < g.length() && (g.charAt(gi) == '?' || (g.charAt(gi) != '*' && g.charAt(gi) == s.charAt(si)))) {
        gi++;
        si++;
      } else if (gi < g.length() && g.charAt(gi) == '*') {
        star = gi++;
        mark = si;
      } else if (star >= 0) {
        gi = star + 1;
        si = ++mark;
      } else {
        return false;
      }
    }
    while (gi < g.length() && g.charAt(gi) == '*') {
      gi++;
    }
    return gi == g.length();
  }

  private static List<String> segments(String path) {
    List<String> out = new ArrayList<>();
    String rest = path.startsWith("/") ? path.substring(1) : path;
    if (rest.isEmpty()) {
      return out;
    }
    for (String s : rest.split("/", -1)) {
      out.add(s);
    }
    return out;
  }
}
