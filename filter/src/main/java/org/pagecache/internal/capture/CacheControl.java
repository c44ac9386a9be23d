package org.pagecache.internal.capture;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The directives of a {@code Cache-Control}-syntax field (RFC 9111 5.2, also {@code CDN-Cache-Control}
 * and {@code PageCache-Control}), read over all its lines: names in any case, values as tokens or
 * quoted strings (a comma inside quotes does not split, so {@code ext="max-age=5"} is not a
 * max-age). Immutable.
 */
public final class CacheControl {
  /** Delta-seconds at or above 2^31 are read as 2^31 (RFC 9111 1.2.2). */
  static final long MAX_DELTA = 2147483648L;

  private record Directive(String name, String rawName, String value, boolean quoted) {}

  private final List<Directive> directives;

  private CacheControl(List<Directive> directives) {
    this.directives = List.copyOf(directives);
  }

  /** The directives of every line of the field, in order. */
  public static CacheControl parse(List<String> lines) {
    List<Directive> all = new ArrayList<>();
    for (String line : lines) {
      parseLine(line, all);
    }
    return new CacheControl(all);
  }

  /** True when the field holds no directive at all (absent, or empty). */
  public boolean isEmpty() {
    return directives.isEmpty();
  }

  /**
   * True when the field reads as a Structured Field dictionary whose lifetimes are integers, as a
   * targeted field must (RFC 9213 2.1: an invalid one is ignored as a whole, and
   * {@code Cache-Control} decides): keys in lower case, values integers, tokens or strings.
   */
  public boolean isValidDictionary() {
    for (Directive d : directives) {
      if (!d.rawName.matches("[a-z*][a-z0-9_\\-.*]*")) {
        return false;
      }
      if (d.value != null && !d.quoted && !d.value.matches("-?[0-9]+|[A-Za-z*][A-Za-z0-9:/!#$%&'*+.^_`|~-]*|\\?[01]")) {
        return false;
      }
      if (d.value != null && d.quoted && DELTA_DIRECTIVES.contains(d.name)) {
        return false;
      }
    }
    return true;
  }

  private static final java.util.Set<String> DELTA_DIRECTIVES =
      java.util.Set.of("max-age", "s-maxage", "stale-while-revalidate", "stale-if-error");

  /** True when the directive is present, with or without a value. */
  public boolean has(String name) {
    for (Directive d : directives) {
      if (d.name.equals(name)) {
        return true;
      }
    }
    return false;
  }

  /**
   * The first occurrence's delta-seconds: null when the directive is absent, -1 when its value is
   * not a delta-seconds (a recipient must then not reuse the response on its account), else the
   * value, at most 2^31.
   */
  public Long deltaSeconds(String name) {
    for (Directive d : directives) {
      if (d.name.equals(name)) {
        return delta(d.value);
      }
    }
    return null;
  }

  private static Long delta(String value) {
    if (value == null || value.isEmpty()) {
      return -1L;
    }
    for (int i = 0; i < value.length(); i++) {
      if (value.charAt(i) < '0' || value.charAt(i) > '9') {
        return -1L;
      }
    }
    String digits = value.replaceFirst("^0+(?=.)", "");
    return digits.length() > 10 ? MAX_DELTA : Math.min(MAX_DELTA, Long.parseLong(digits));
  }

  private static void parseLine(String line, List<Directive> into) {
    int i = 0;
    int n = line.length();
    while (i < n) {
      while (i < n && (line.charAt(i) == ',' || line.charAt(i) == ' ' || line.charAt(i) == '\t')) {
        i++;
      }
      int start = i;
      while (i < n && line.charAt(i) != '=' && line.charAt(i) != ',') {
        i++;
      }
      String rawName = line.substring(start, i).trim();
      String name = rawName.toLowerCase(Locale.ROOT);
      String value = null;
      boolean quoted = false;
      if (i < n && line.charAt(i) == '=') {
        i++;
        if (i < n && line.charAt(i) == '"') {
          quoted = true;
          StringBuilder v = new StringBuilder();
          i++;
          while (i < n && line.charAt(i) != '"') {
            if (line.charAt(i) == '\\' && i + 1 < n) {
              i++;
            }
            v.append(line.charAt(i++));
          }
          i++; // the closing quote
          value = v.toString();
          while (i < n && line.charAt(i) != ',') {
            i++;
          }
        } else {
          int vs = i;
          while (i < n && line.charAt(i) != ',') {
            i++;
          }
          value = line.substring(vs, i).trim();
        }
      }
      if (!name.isEmpty()) {
        into.add(new Directive(name, rawName, value, quoted));
      }
    }
  }
}
