package org.pagecache.internal.capture;

import java.time.Duration;
import java.util.Locale;
import java.util.Set;

/**
 * Whether a captured response may be stored and shared with other users, and for how long. Pure:
 * the filter asks, this answers. Refusal reasons show up in {@code Cache-Status} and the trace.
 *
 * <p>Every signal by which a handler says "do not reuse this" is obeyed whatever the policy says:
 * {@code Cache-Control: private, no-store, no-cache, max-age=0, s-maxage=0}, an {@code Expires}
 * in the past or invalid (RFC 9111 5.3: {@code Expires: 0} means "already expired"), {@code Pragma:
 * no-cache}, {@code Vary} naming {@code *}, and {@code Set-Cookie}. A positive lifetime
 * ({@code max-age}, {@code s-maxage}, a future {@code Expires}) sets the TTL only with
 * {@code cache-control=honor}; otherwise the policy's TTL stands.
 *
 * <p>An operator may set the browser-facing signals aside per handler
 * ({@code origin-cache-headers=ignore}, {@link #refusalIgnoringOrigin}); what marks a page as one
 * visitor's ({@code Set-Cookie}, {@code private}, {@code no-store}) refuses it even then.
 */
public final class Cacheability {
  private Cacheability() {}

  /**
   * Null when the page may be stored; otherwise the reason it may not.
   *
   * @param nowMillis the time the response was made (an {@code Expires} before it is in the past)
   */
  public static String refusal(CapturedResponse c, Set<Integer> statuses, long nowMillis) {
    return refusal(c, statuses, nowMillis, false);
  }

  /**
   * As {@link #refusal(CapturedResponse, Set, long)}; with {@code honor} the lifetime fields
   * ({@code Cache-Control}, its targeted forms, {@code Expires}) are left to {@link Lifetime}.
   */
  public static String refusal(CapturedResponse c, Set<Integer> statuses, long nowMillis, boolean honor) {
    String captureRefusal = captureRefusal(c);
    if (captureRefusal != null) {
      return captureRefusal;
    }
    String lifetimeRefusal = honor ? null : lifetimeRefusal(c, nowMillis);
    if (lifetimeRefusal != null) {
      return lifetimeRefusal;
    }
    for (String pragma : c.headerValues("Pragma")) {
      if (hasDirective(pragma.toLowerCase(Locale.ROOT), "no-cache")) {
        return "pragma-no-cache";
      }
    }
    return commonRefusal(c, statuses);
  }

  /** What the capture itself refuses, whatever any policy says: not captured whole, a cookie set, trailers. */
  private static String captureRefusal(CapturedResponse c) {
    if (c.passedThrough()) {
      return c.overflowed() ? "too-large" : "async";
    }
    if (c.setsCookie()) {
      return "set-cookie";
    }
    if (c.trailers()) {
      return "trailers";
    }
    return null;
  }

  /** What refuses a page whatever its caching headers say: Vary: *, a pre-encoded body, a status not listed. */
  private static String commonRefusal(CapturedResponse c, Set<Integer> statuses) {
    for (String vary : c.headerValues("Vary")) {
      for (String name : vary.split(",")) {
        if (name.trim().equals("*")) {
          return "vary-star";
        }
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
   * As {@link #refusal(CapturedResponse, Set, long)} under {@code origin-cache-headers=ignore}:
   * {@code Expires}, {@code max-age}, {@code s-maxage}, {@code no-cache} and {@code Pragma} are
   * the browser's business and refuse nothing; {@code private} and {@code no-store}, in
   * {@code Cache-Control} or in a field addressed to this cache ({@code PageCache-Control},
   * {@code CDN-Cache-Control}), still refuse the page, as do {@code Set-Cookie} and the rest.
   */
  public static String refusalIgnoringOrigin(CapturedResponse c, Set<Integer> statuses) {
    String captureRefusal = captureRefusal(c);
    if (captureRefusal != null) {
      return captureRefusal;
    }
    for (String field : new String[] {"Cache-Control", Lifetime.CDN_FIELD, Lifetime.OWN_FIELD}) {
      for (String cc : c.headerValues(field)) {
        String v = cc.toLowerCase(Locale.ROOT);
        if (hasDirective(v, "private")) {
          return "private";
        }
        if (hasDirective(v, "no-store")) {
          return "no-store";
        }
      }
    }
    return commonRefusal(c, statuses);
  }

  /** The default policy's reading of the lifetime fields: only their "do not reuse" signals count. */
  private static String lifetimeRefusal(CapturedResponse c, long nowMillis) {
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
    Long sMaxAge = seconds(c, "s-maxage");
    Long maxAge = seconds(c, "max-age");
    if (sMaxAge != null && sMaxAge == 0) {
      return "s-maxage-0";
    }
    if (sMaxAge == null && maxAge != null && maxAge == 0) {
      return "max-age-0";
    }
    if (sMaxAge == null && maxAge == null && c.header("Expires") != null && expiresInMillis(c, nowMillis) <= 0) {
      return "expires";
    }
    return null;
  }

  /**
   * True when the handler forbids serving the page once it is stale ({@code must-revalidate},
   * {@code proxy-revalidate}): it is then never served STALE, not during its grace, not after a
   * refresh, not when its rebuild fails.
   */
  public static boolean forbidsStale(CapturedResponse c) {
    for (String cc : c.headerValues("Cache-Control")) {
      String v = cc.toLowerCase(Locale.ROOT);
      if (hasDirective(v, "must-revalidate") || hasDirective(v, "proxy-revalidate")) {
        return true;
      }
    }
    return false;
  }

  /** The last value of a delta-seconds directive, or null when absent or not a number. */
  private static Long seconds(CapturedResponse c, String directive) {
    Long found = null;
    for (String cc : c.headerValues("Cache-Control")) {
      for (String d : cc.split(",")) {
        String t = d.trim().toLowerCase(Locale.ROOT);
        if (t.startsWith(directive + "=")) {
          try {
            found = Math.max(0, Long.parseLong(t.substring(directive.length() + 1).replace("\"", "").trim()));
          } catch (NumberFormatException e) {
            // an unreadable lifetime is ignored, as RFC 9111 1.2.2 asks
          }
        }
      }
    }
    return found;
  }

  /**
   * How far in the future {@code Expires} lies, measured from the response's {@code Date} when it
   * has one (so a clock skew between handler and cache does not matter), else from now. An
   * invalid date, such as the servlet idiom {@code Expires: 0}, is in the past.
   */
  private static long expiresInMillis(CapturedResponse c, long nowMillis) {
    Long expires = HttpDates.parse(c.headerValues("Expires"));
    if (expires == null) {
      return -1;
    }
    Long date = HttpDates.parse(c.headerValues("Date"));
    return expires - (date != null ? date : nowMillis);
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
