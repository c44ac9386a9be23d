package org.pagecache.internal.vary;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The formats of {@code vary=format} ({@code formats=text/html|application/json}): a visitor's
 * class is the type content negotiation picks from their {@code Accept} (RFC 9110 12.5.1): each
 * format gets the weight of the most specific range that matches it ({@code type/subtype} before
 * {@code type/*} before {@code *}{@code /*}); the highest weight wins, then the more specific match
 * (so {@code application/json, text/plain, *}{@code /*} is JSON, as Spring MVC negotiates it), then
 * the order of {@code formats=}. No {@code Accept}, one that accepts none of the formats, or one
 * that cannot be read is the first format's.
 *
 * @param types the site's media types, lower case, the default first
 */
public record Formats(List<String> types) {
  /** The longest {@code Accept} read, and the most ranges; past them the default format. */
  static final int MAX_HEADER = 2048;
  static final int MAX_RANGES = 64;

  public Formats {
    types = List.copyOf(types);
  }

  /**
   * The formats of a policy's {@code formats=} value, {@code |}-separated.
   *
   * @throws IllegalArgumentException naming {@code param}, the value and what is accepted
   */
  public static Formats parse(String param, String value) {
    List<String> types = new ArrayList<>();
    for (String s : value.split("[|\\s]+")) {
      if (s.isEmpty()) {
        continue;
      }
      String t = s.toLowerCase(Locale.ROOT);
      if (!t.matches("[a-z0-9!#$&^_.+-]{1,64}/[a-z0-9!#$&^_.+-]{1,64}") || types.contains(t)) {
        throw new IllegalArgumentException(param + ": '" + s + "' is " + (types.contains(t) ? "listed twice" : "not a media"
            + " type") + "; use types such as text/html|application/json, the default first (no wildcards)");
      }
      types.add(t);
    }
    if (types.isEmpty()) {
      throw new IllegalArgumentException(param + ": '" + value + "' names no format; use e.g. formats=text/html|application/json");
    }
    return new Formats(types);
  }

  /** The site's format for this {@code Accept} value (null: absent). */
  public String classify(String accept) {
    if (accept == null || accept.isBlank() || accept.length() > MAX_HEADER) {
      return types.get(0);
    }
    String[] ranges = accept.split(",", MAX_RANGES + 1);
    if (ranges.length > MAX_RANGES) {
      return types.get(0);
    }
    String best = null;
    double bestQ = 0;
    int bestSpecificity = -1;
    for (String type : types) {
      double q = -1;
      int specificity = -1;
      for (String range : ranges) {
        int s = specificity(range, type);
        if (s > specificity) { // the most specific range that matches decides (RFC 9110 12.5.1)
          specificity = s;
          q = weight(range);
        }
      }
      if (q > bestQ || q == bestQ && q > 0 && specificity > bestSpecificity) {
        best = type;
        bestQ = q;
        bestSpecificity = specificity;
      }
    }
    return best != null ? best : types.get(0);
  }

  /** 2: {@code type/subtype}; 1: {@code type/*}; 0: {@code *}{@code /*}; -1: no match. */
  private static int specificity(String range, String type) {
    int semi = range.indexOf(';');
    String r = (semi < 0 ? range : range.substring(0, semi)).trim().toLowerCase(Locale.ROOT);
    if (r.equals("*/*") || r.equals("*")) {
      return 0;
    }
    int slash = type.indexOf('/');
    if (r.endsWith("/*") && r.length() == slash + 2 && type.regionMatches(0, r, 0, slash)) {
      return 1;
    }
    return r.equals(type) ? 2 : -1;
  }

  /** The range's {@code q}: 1 when absent, 0 when it cannot be read (a broken range accepts nothing). */
  private static double weight(String range) {
    for (String param : range.split(";")) {
      String p = param.trim();
      if (p.length() > 2 && (p.charAt(0) == 'q' || p.charAt(0) == 'Q') && p.charAt(1) == '=') {
        try {
          double q = Double.parseDouble(p.substring(2).trim());
          return q >= 0 && q <= 1 ? q : 0;
        } catch (NumberFormatException e) {
          return 0;
        }
      }
    }
    return 1;
  }
}
