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

  private record Directive(String name, String value, boolean quoted) {}

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
      String name = line.substring(start, i).trim().toLowerCase(Locale.ROOT);
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
        into.add(new Directive(name, value, quoted));
      }
    }
  }
}
