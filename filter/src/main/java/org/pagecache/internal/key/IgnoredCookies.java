package org.pagecache.internal.key;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Cookies that servers do not read to render a page, so a request carrying only these is served
 * from the cache. The built-in list ({@link #BUILT_IN}) is derived from the Open Cookie Database:
 * first-party analytics and advertising identifiers (set and read by scripts in the browser),
 * consent managers' records, load-balancer stickiness and CDN bot-management cookies (read by the
 * proxy in front, not the application), never a session, sign-in, CSRF, language, currency or cart
 * cookie. {@code cookies.ignore} adds names and {@code prefix*} patterns; a policy's
 * {@code cookies=vary:NAME} keys a page on a cookie even when it is listed here.
 *
 * <p>Names are matched case-sensitively, as RFC 6265 compares them. A lookup is one hash-set probe
 * for the exact names plus one walk of the name's characters for the prefixes ({@code CookiePrefixes}),
 * whatever the length of the list.
 */
public final class IgnoredCookies {
  /**
   * The built-in list, read once from {@code org/pagecache/ignored-cookies.txt}; see docs/safety.md
   * ("The ignore list") for how it is made and what is never on it.
   */
  public static final List<String> BUILT_IN = BuiltInList.load(BuiltInList.COOKIES, CookieNames::valid, "cookie name");

  private final Set<String> exact = new HashSet<>();
  private final CookiePrefixes prefixes = new CookiePrefixes();
  private final List<String> extra;

  private IgnoredCookies(List<String> extra) {
    this.extra = List.copyOf(extra);
    for (String pattern : BUILT_IN) {
      add(pattern);
    }
    extra.forEach(this::add);
  }

  /** The built-in list only. */
  public static IgnoredCookies builtIn() {
    return new IgnoredCookies(List.of());
  }

  /**
   * The built-in list plus the names and {@code prefix*} patterns of {@code cookies.ignore}
   * (separated by commas, {@code |} or spaces).
   */
  public static IgnoredCookies parse(String param, String value) {
    List<String> extra = new ArrayList<>();
    for (String p : value.split("[,|\\s]+")) {
      if (p.isEmpty()) {
        continue;
      }
      String name = p.endsWith("*") ? p.substring(0, p.length() - 1) : p;
      if (!CookieNames.valid(name)) {
        throw new IllegalArgumentException(param + ": '" + p
            + "' is not a cookie name or prefix* pattern (e.g. XSRF-TOKEN, _myanalytics_*)");
      }
      extra.add(p);
    }
    return new IgnoredCookies(extra);
  }

  private void add(String pattern) {
    if (pattern.endsWith("*")) {
      prefixes.add(pattern.substring(0, pattern.length() - 1));
    } else {
      exact.add(pattern);
    }
  }

  public boolean ignored(String name) {
    return exact.contains(name) || prefixes.matches(name);
  }

  /** What {@code cookies.ignore} added to the built-in list. */
  public List<String> extra() {
    return extra;
  }
}
