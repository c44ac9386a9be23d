package org.pagecache.internal.key;

import java.util.Collection;
import java.util.List;
import java.util.TreeSet;

/**
 * What of a query a handler's page keys hold, at one moment: either the parameters its builds were
 * seen reading by name ({@code params=read}), each keyed by its raw values or as absent, every other
 * parameter left out; or the whole query less the ignored tracking parameters ({@code params=all},
 * and a {@code params=read} handler whose build saw every parameter at once), with the listed
 * parameters its builds read by name keyed beside it.
 *
 * <p>Like a {@code Vary} record for headers, it names the inputs a page was chosen by; unlike one it
 * is kept per handler in the JVM, not in memcached, so a hit costs no extra round trip. It only
 * grows, and the names are part of every key made from it, so a page stored under one record is
 * never found through another: see docs/safety.md ("Keys hold the parameters pages read").
 *
 * @param wholeQuery true: the query less the ignored parameters keys the page; false: only {@code names}
 * @param names      sorted: the parameters read by name (for {@code wholeQuery}, the ignored ones read)
 */
public record ParameterRecord(boolean wholeQuery, List<String> names) {
  /**
   * The most names a handler's record holds while keyed on reads; a build that reads more (a handler
   * that reads names taken from the request) keys the handler on the whole query instead.
   */
  public static final int MAX_NAMES = 64;

  /** A {@code params=read} handler none of whose builds has read a parameter yet. */
  public static final ParameterRecord NONE_READ = new ParameterRecord(false, List.of());

  public ParameterRecord {
    names = List.copyOf(new TreeSet<>(names));
  }

  /** The whole query, with these ignored parameters (read by name) keyed beside it. */
  public static ParameterRecord wholeQuery(Collection<String> keyedIgnored) {
    return new ParameterRecord(true, List.copyOf(keyedIgnored));
  }

  /** This record with {@code more} names read; the whole query once it would hold more than {@link #MAX_NAMES}. */
  ParameterRecord reading(Collection<String> more) {
    TreeSet<String> all = new TreeSet<>(names);
    if (!all.addAll(more)) {
      return this;
    }
    return all.size() > MAX_NAMES ? new ParameterRecord(true, List.of()) : new ParameterRecord(false, List.copyOf(all));
  }

  /** Whether a build of a page keyed by this record that reads {@code name} by name read something its key left out. */
  public boolean keys(String name) {
    return names.contains(name);
  }

  /**
   * Whether the raw query carries a parameter this record leaves out of the key: any name it does not
   * hold; for the whole query, an ignored one ({@code ignored}) it does not hold.
   */
  public boolean leavesOut(String rawQuery, IgnoredParameters ignored) {
    if (rawQuery == null || rawQuery.isEmpty() || wholeQuery && ignored.ignoresNone()) {
      return false;
    }
    int from = 0;
    while (from < rawQuery.length()) {
      int amp = rawQuery.indexOf('&', from);
      int end = amp < 0 ? rawQuery.length() : amp;
      if (end > from) {
        String name = QueryParams.name(rawQuery.substring(from, end));
        if (!names.contains(name) && (!wholeQuery || ignored.ignored(name))) {
          return true;
        }
      }
      from = end + 1;
    }
    return false;
  }

  /** As shown on the admin page and in {@code api/stats}: {@code read: page, q}, or {@code all} ({@code all + utm_source}). */
  public String describe() {
    if (wholeQuery) {
      return names.isEmpty() ? "all" : "all + " + String.join(", ", names);
    }
    return "read: " + (names.isEmpty() ? "none" : String.join(", ", names));
  }
}
