package org.pagecache.internal.key;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@link ParameterRecord} of each {@code params=read} handler in this JVM: the parameters its
 * builds read, grown by every build that read one its key left out, or the whole query once a build
 * saw every parameter at once ({@code getParameterMap}, {@code getQueryString}...). Records only grow;
 * each JVM learns from its own builds (a JVM that has not learned a name yet never stores a page that
 * read it under a key without it).
 */
public final class ParameterRecords {
  private final ConcurrentHashMap<String, ParameterRecord> byHandler = new ConcurrentHashMap<>();
  private final ParameterRecord first;

  /**
   * @param keyed the names every handler's keys hold from the start ({@code params.keep}): parameters
   *              the application reads where PageCache cannot see it (a filter before PageCache's)
   */
  public ParameterRecords(Set<String> keyed) {
    this.first = ParameterRecord.NONE_READ.reading(keyed);
  }

  /** The handler's record now. */
  public ParameterRecord of(String handler) {
    ParameterRecord r = byHandler.get(handler);
    return r == null ? first : r;
  }

  /**
   * The handler's builds read these names: its keys hold them from now on.
   *
   * @return the names the record did not hold yet (empty when the record was the whole query already)
   */
  public List<String> read(String handler, Set<String> names) {
    ParameterRecord before = of(handler);
    byHandler.merge(handler, first.reading(names), this::union);
    List<String> added = new ArrayList<>();
    if (!before.wholeQuery()) {
      for (String n : names) {
        if (!before.keys(n)) {
          added.add(n);
        }
      }
    }
    return added;
  }

  /** A build of the handler saw every parameter at once: its keys hold the whole query from now on. */
  public boolean readWholeQuery(String handler) {
    ParameterRecord before = byHandler.put(handler, new ParameterRecord(true, List.of()));
    return before == null || !before.wholeQuery();
  }

  private ParameterRecord union(ParameterRecord a, ParameterRecord b) {
    return a.wholeQuery() ? a : b.wholeQuery() ? b : a.reading(b.names());
  }
}
