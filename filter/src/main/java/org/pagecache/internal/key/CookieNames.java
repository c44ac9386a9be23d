package org.pagecache.internal.key;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Cookie names and values as a request carries them, read from its {@code Cookie} headers the way
 * an application's own parser would (name before the first {@code =}, pairs split on {@code ;}).
 * Names only ever reach stats and logs; values reach nothing but a hashed key.
 */
public final class CookieNames {
  /** Shown instead of a name that is not a valid cookie name (it may hold anything). */
  public static final String INVALID = "(invalid name)";

  private CookieNames() {}

  /** Every cookie of the request, name to its values in order; names are as sent. */
  public static Map<String, List<String>> parse(List<String> cookieHeaders) {
    Map<String, List<String>> cookies = new LinkedHashMap<>();
    for (String header : cookieHeaders) {
      for (String pair : header.split(";")) {
        String p = pair.trim();
        if (p.isEmpty()) {
          continue;
        }
        int eq = p.indexOf('=');
        String name = (eq < 0 ? p : p.substring(0, eq)).trim();
        String value = eq < 0 ? "" : p.substring(eq + 1).trim();
        cookies.computeIfAbsent(valid(name) ? name : INVALID, n -> new ArrayList<>(1)).add(value);
      }
    }
    return cookies.isEmpty() ? Collections.emptyMap() : cookies;
  }

  /** An RFC 6265 cookie name: 1 to 128 token characters. */
  public static boolean valid(String name) {
    if (name.isEmpty() || name.length() > 128) {
      return false;
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (c <= 0x20 || c >= 0x7f || "()<>@,;:\\\"/[]?={}".indexOf(c) >= 0) {
        return false;
      }
    }
    return true;
  }
}
