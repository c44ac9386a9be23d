package org.pagecache.capture;

import java.time.Duration;
import java.util.Locale;
import java.util.Set;

/**
 * Whether a captured response may be stored and shared with other users, and for how long. Pure:
 * the filter asks, this answers. Refusal reasons show up in {@code Cache-Status} and the trace.
 */
public final class Cacheability {
  private Cacheability() {}

  /** Null when the page may be stored; otherwise the reason it may not. */
  public static String refusal(Captured c, Set<Integer> statuses) {
    if (c.passedThrough()) {
      return c.overflowed() ? "too-large" : "async";
    }
    if (c.setsCookie()) {
      return "set-cookie";
    }
    if (c.trailers()) {
      return "trailers";
    }
    for (String cc : c.headerValues("Cache-Control")) {
      String v = cc.toLowerCase(Locale.ROOT);
      if (hasDirective(v, "private")) {
        return "private";
      }
      if (hasDirective(v, "no-store")) {
        return "no-store";
      }
      if (hasDirective(v, "no-cache")) {
        return "no-cache";
      }
    }
    for (String vary : c.headerValues("Vary")) {
      if (vary.trim().equals("*")) {
        return "vary-star";
      }
    }
    if (c.header("Content-Encoding") != null) {
      return "pre-encoded";
    }
    if (!statuses.contains(c.status())) {
      return "status-" + c.status();
    }
    return null;
  }

  /**
   * The TTL the handler asked for with {@code s-maxage} (preferred, it is meant for shared caches)
   * or {@code max-age}, capped at {@code max}; null when it asked for none. Zero means "do not store".
   */
  public static Duration requestedTtl(Captured c, Duration max) {
    Long sMaxAge = null;
    Long maxAge = null;
    for (String cc : c.headerValues("Cache-Control")) {
      for (String d : cc.split(",")) {
        String t = d.trim().toLowerCase(Locale.ROOT);
        if (t.startsWith("s-maxage=")) {
          sMaxAge = seconds(t.substring(9));
        } else if (t.startsWith("max-age=")) {
          maxAge = seconds(t.substring(8));
        }
      }
    }
    Long chosen = sMaxAge != null ? sMaxAge : maxAge;
    if (chosen == null) {
      return null;
    }
    Duration d = Duration.ofSeconds(chosen);
    return d.compareTo(max) > 0 ? max : d;
  }

  private static Long seconds(String s) {
    try {
      return Math.max(0, Long.parseLong(s.replace("\"", "").trim()));
    } catch (NumberFormatException e) {
      return null;
    }
  }

  private static boolean hasDirective(String cacheControl, String directive) {
    for (String d : cacheControl.split(",")) {
      String t = d.trim();
      if (t.equals(directive) || t.startsWith(directive + "=")) {
        return true;
      }
    }
    return false;
  }
}
