package org.pagecache.internal.key;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;

/**
 * The canonical identity of a page: everything that makes two requests get different pages, in a
 * form where equivalent requests are equal. {@code ?b=2&a=1} and {@code ?a=1&b=2} are one page.
 * The result is hashed into the key by {@link Namespace#page}, so no URL, however long or strange,
 * can make an invalid memcached key.
 *
 * <p>Parts are length-prefixed, so no choice of path, query or header value can make two different
 * requests produce the same canonical text.
 */
public final class PageKey {
  private PageKey() {}

  /**
   * @param vary header names (lower case) with the request's values, null for an absent header
   */
  public static String canonical(String scheme, String host, int port, String path, String query,
      List<String[]> vary) {
    return canonical(scheme, host, port, path, query, null, vary);
  }

  /**
   * As above, leaving out the query segments {@code dropped} matches (ignored tracking parameters,
   * {@link IgnoredParameters#ignoredSegment}); null drops none.
   */
  public static String canonical(String scheme, String host, int port, String path, String query,
      Predicate<String> dropped, List<String[]> vary) {
    StringBuilder sb = new StringBuilder(64 + path.length() + (query == null ? 0 : query.length()));
    part(sb, scheme == null ? "" : scheme.toLowerCase(Locale.ROOT));
    part(sb, host == null ? "" : host.toLowerCase(Locale.ROOT));
    part(sb, Integer.toString(port));
    part(sb, path);
    List<String> params = sortedParams(query, dropped);
    part(sb, Integer.toString(params.size()));
    params.forEach(p -> part(sb, p));
    for (String[] h : vary) {
      part(sb, h[0]);
      part(sb, h[1] == null ? "\u0000absent" : h[1]);
    }
    return sb.toString();
  }

  /**
   * Query parameters as raw {@code name=value} strings, sorted by name; empty segments dropped.
   * The sort is stable and looks at names only: {@code ?b=2&a=1} is {@code ?a=1&b=2}, but
   * {@code ?t=b&t=a} stays apart from {@code ?t=a&t=b}, since an application reading
   * {@code getParameterValues("t")} sees the values in their order.
   */
  static List<String> sortedParams(String query, Predicate<String> dropped) {
    if (query == null || query.isEmpty()) {
      return List.of();
    }
    List<String> params = new ArrayList<>();
    for (String p : query.split("&")) {
      if (!p.isEmpty() && (dropped == null || !dropped.test(p))) {
        params.add(p);
      }
    }
    params.sort(Comparator.comparing(PageKey::name));
    return params;
  }

  private static String name(String param) {
    int eq = param.indexOf('=');
    return eq < 0 ? param : param.substring(0, eq);
  }

  private static void part(StringBuilder sb, String s) {
    sb.append(s.length()).append(':').append(s).append('|');
  }
}
