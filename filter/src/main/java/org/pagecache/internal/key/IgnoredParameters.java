package org.pagecache.internal.key;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

/**
 * Query parameters that no page reads: campaign and click identifiers ({@code utm_*}, {@code fbclid},
 * {@code gclid}, {@code msclkid}, {@code mc_eid}...) that analytics scripts read in the browser. They
 * are left out of a page's key, so a visit from a newsletter or an ad is served the page everyone
 * gets. The built-in list ({@link #BUILT_IN}) is derived from tidy-url's global rules (MIT; see
 * docs/safety.md, "Tracking parameters"); {@code params.ignore} adds names and {@code prefix*}
 * patterns, {@code params.keep} takes names off ({@code *}: ignore none).
 *
 * <p>A handler that reads one of them by name while building a page shows that its pages depend on
 * it: from then on the parameter is part of that handler's keys ({@link #keep}), in this JVM, and
 * the page that read it is not stored under a key without it (see {@link RequestParts}).
 *
 * <p>Names are matched as the application sees them: decoded from the query
 * ({@code utm%5Fsource} is {@code utm_source}), case-sensitively.
 */
public final class IgnoredParameters {
  /** The built-in list, read once from {@code org/pagecache/ignored-parameters.txt}. */
  public static final List<String> BUILT_IN =
      BuiltInList.load(BuiltInList.PARAMETERS, IgnoredParameters::validName, "parameter name");

  private final Set<String> exact = new HashSet<>();
  private final CookiePrefixes prefixes = new CookiePrefixes();
  private final Set<String> kept;
  private final boolean keepAll;
  private final List<String> extra;
  /** Per handler, the listed parameters its builds were seen reading: part of its keys from then on. */
  private final ConcurrentHashMap<String, Set<String>> keyedByHandler = new ConcurrentHashMap<>();

  private IgnoredParameters(List<String> extra, Set<String> kept, boolean keepAll) {
    this.extra = List.copyOf(extra);
    this.kept = Set.copyOf(kept);
    this.keepAll = keepAll;
    if (!keepAll) {
      BUILT_IN.forEach(this::add);
      extra.forEach(this::add);
    }
  }

  /** The same list with no handler's evidence yet: each cache learns its own handlers' reads. */
  public IgnoredParameters withoutEvidence() {
    return new IgnoredParameters(extra, kept, keepAll);
  }

  /** The built-in list only. */
  public static IgnoredParameters builtIn() {
    return new IgnoredParameters(List.of(), Set.of(), false);
  }

  /** None: every parameter keys the page (what {@code params.keep=*} says). */
  public static IgnoredParameters none() {
    return new IgnoredParameters(List.of(), Set.of(), true);
  }

  /**
   * The built-in list plus the names and {@code prefix*} patterns of {@code params.ignore}, less the
   * names of {@code params.keep} ({@code *} alone: no parameter is ignored). Both are separated by
   * commas, {@code |} or spaces.
   */
  public static IgnoredParameters parse(String ignoreParam, String ignoreValue, String keepParam, String keepValue) {
    List<String> extra = new ArrayList<>();
    for (String p : ignoreValue.split("[,|\\s]+")) {
      if (p.isEmpty()) {
        continue;
      }
      String name = p.endsWith("*") ? p.substring(0, p.length() - 1) : p;
      if (!validName(name)) {
        throw new IllegalArgumentException(ignoreParam + ": '" + p
            + "' is not a query parameter name or prefix* pattern (e.g. ref, cmp_*)");
      }
      extra.add(p);
    }
    Set<String> kept = new HashSet<>();
    boolean keepAll = false;
    for (String p : keepValue.split("[,|\\s]+")) {
      if (p.isEmpty()) {
        continue;
      }
      if (p.equals("*")) {
        keepAll = true;
      } else if (!validName(p)) {
        throw new IllegalArgumentException(keepParam + ": '" + p
            + "' is not a query parameter name (e.g. utm_source), or * to ignore none");
      } else {
        kept.add(p);
      }
    }
    return new IgnoredParameters(extra, kept, keepAll);
  }

  /** A name as written in the settings and the list: 1 to 128 characters, none that a query splits on. */
  static boolean validName(String name) {
    if (name.isEmpty() || name.length() > 128) {
      return false;
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (c <= 0x20 || c == 0x7f || "&=#%+;*".indexOf(c) >= 0) {
        return false;
      }
    }
    return true;
  }

  private void add(String pattern) {
    if (pattern.endsWith("*")) {
      prefixes.add(pattern.substring(0, pattern.length() - 1));
    } else {
      exact.add(pattern);
    }
  }

  /** Whether the list leaves this (decoded) name out of keys, before any handler's evidence. */
  public boolean ignored(String name) {
    return !keepAll && (exact.contains(name) || prefixes.matches(name)) && !kept.contains(name);
  }

  /** Whether a raw {@code name=value} segment of a query is an ignored parameter. */
  public boolean ignoredSegment(String segment) {
    return !keepAll && ignored(QueryParams.name(segment));
  }

  /** Nothing is ignored ({@code params.keep=*}): keys are made from the whole query, as before. */
  public boolean ignoresNone() {
    return keepAll;
  }

  /** The listed parameters this handler's builds read: part of its keys. */
  public Set<String> keyedBy(String handler) {
    Set<String> keyed = keyedByHandler.get(handler);
    return keyed == null ? Set.of() : keyed;
  }

  /**
   * Makes these parameters part of the handler's keys from now on: a build read them.
   *
   * @return the names that were not part of them yet
   */
  public List<String> keep(String handler, Set<String> names) {
    List<String> added = new ArrayList<>(names.size());
    Set<String> keyed = keyedByHandler.computeIfAbsent(handler, h -> ConcurrentHashMap.newKeySet());
    for (String name : names) {
      if (ignored(name) && keyed.add(name)) {
        added.add(name);
      }
    }
    return added;
  }

  /** What the handler's build is not shown of the query: listed names that are not part of the request's key. */
  public Predicate<String> hiddenFrom(Set<String> keyedNames) {
    return keepAll ? null : name -> name != null && ignored(name) && !keyedNames.contains(name);
  }

  /** What {@code params.ignore} added to the built-in list. */
  public List<String> extra() {
    return extra;
  }

  /** What {@code params.keep} took off the list. */
  public Set<String> kept() {
    return kept;
  }
}
