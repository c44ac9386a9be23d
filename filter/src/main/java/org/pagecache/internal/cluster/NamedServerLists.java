package org.pagecache.internal.cluster;

import java.util.LinkedHashMap;
import java.util.Map;
import org.pagecache.internal.config.Specs;
import org.pagecache.store.ServerList;

/**
 * The one-line form of several named memcached clusters, {@code NAME=host:port,...; NAME=host:port,...}
 * (the grammar {@code memcached.remote} and {@code memcached.pools} share; split by {@link Specs#namedValues}): each list is a
 * {@link ServerList}, names are unique and short enough to show and to tag metrics with.
 */
public final class NamedServerLists {
  private static final String NAME = "[A-Za-z0-9_-]{1,32}";
  private static final String FORMAT = "use NAME=host:port[:weight],...; NAME=..., e.g. us=10.1.0.1:11211,10.1.0.2:11211; asia=10.2.0.1:11211"
      + " (names of 1 to 32 letters, digits, _ or -)";

  private NamedServerLists() {}

  /**
   * The lists by name, in the order written; empty for a blank value.
   *
   * @throws IllegalArgumentException naming {@code param}, the value, what is wrong and the format
   */
  public static Map<String, ServerList> parse(String param, String value) {
    Map<String, ServerList> lists = new LinkedHashMap<>();
    if (value == null || value.isBlank()) {
      return lists;
    }
    for (Specs.Item entry : Specs.namedValues(value)) {
      String name = entry.name();
      if (!entry.wellFormed() || !name.matches(NAME)) {
        throw new IllegalArgumentException(param + ": '" + value + "' is not a list of named server lists ('" + entry.text()
            + "' does not start with NAME=); " + FORMAT);
      }
      if (lists.containsKey(name)) {
        throw new IllegalArgumentException(param + ": '" + value + "' names '" + name + "' twice; " + FORMAT);
      }
      ServerList servers;
      try {
        servers = ServerList.parse(param, entry.value());
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(param + ": cluster '" + name + "': " + e.getMessage()
            .substring(param.length() + 2));
      }
      lists.put(name, servers);
    }
    return lists;
  }
}
