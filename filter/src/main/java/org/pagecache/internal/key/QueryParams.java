package org.pagecache.internal.key;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.function.Predicate;

/**
 * The raw query string, read as an application's container reads it: {@code name=value} segments
 * split on {@code &}, names percent-decoded (and {@code +} a space) as UTF-8. Used to leave tracking
 * parameters out of keys and out of what a build is shown, without decoding values.
 */
public final class QueryParams {
  private QueryParams() {}

  /** The decoded name of a raw segment; the raw name when it does not decode (it then matches no list entry). */
  public static String name(String segment) {
    int eq = segment.indexOf('=');
    String raw = eq < 0 ? segment : segment.substring(0, eq);
    if (raw.indexOf('%') < 0 && raw.indexOf('+') < 0) {
      return raw;
    }
    try {
      return URLDecoder.decode(raw, StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      return raw;
    }
  }

  /** The query without the segments whose decoded name {@code drop} matches; the same string when none does. */
  public static String without(String query, Predicate<String> drop) {
    if (query == null || query.isEmpty()) {
      return query;
    }
    StringBuilder kept = null;
    int from = 0;
    while (from <= query.length()) {
      int amp = query.indexOf('&', from);
      int end = amp < 0 ? query.length() : amp;
      String segment = query.substring(from, end);
      boolean dropped = !segment.isEmpty() && drop.test(name(segment));
      if (dropped && kept == null) {
        kept = new StringBuilder(query.length()).append(query, 0, from == 0 ? 0 : from - 1);
      } else if (!dropped && kept != null && !segment.isEmpty()) {
        if (kept.length() > 0) {
          kept.append('&');
        }
        kept.append(segment);
      }
      from = end + 1;
    }
    return kept == null ? query : kept.length() == 0 ? null : kept.toString();
  }

  /** The raw segments of the query whose decoded name is {@code name}, joined with {@code &} in order; null when none. */
  public static String rawValues(String query, String name) {
    if (query == null || query.isEmpty()) {
      return null;
    }
    StringBuilder found = null;
    for (String segment : query.split("&")) {
      if (!segment.isEmpty() && name(segment).equals(name)) {
        found = found == null ? new StringBuilder() : found.append('&');
        found.append(segment);
      }
    }
    return found == null ? null : found.toString();
  }
}
