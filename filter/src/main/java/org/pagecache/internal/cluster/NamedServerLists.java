package org.pagecache.internal.cluster;

import java.util.LinkedHashMap;
import java.util.Map;
import org.pagecache.store.ServerList;

/**
 * The one-line form of several named memcached clusters, {@code NAME=host:port,...; NAME=host:port,...}
 * (the grammar {@code memcached.remote} shares with {@code memcached.pools}): each list is a
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
    String[] entries = value.strip().split(";", -1);
    for (int i = 0; i < entries.length; i++) {
      String entry = entries[i].strip();
      if (entry.isEmpty() && i == entries.length - 1 && i > 0) {
        continue; // a trailing ';'
      }
      int eq = entry.indexOf('=');
      String name = eq < 0 ? entry : entry.substring(0, eq).strip();
      if (eq < 0 || !name.matches(NAME)) {
        throw new IllegalArgumentException(param + ": '" + value + "' is not a list of named clusters ('" + entry
            + "' is not NAME=servers); " + FORMAT);
      }
      if (lists.containsKey(name)) {
        throw new IllegalArgumentException(param + ": '" + value + "' names cluster '" + name + "' twice; " + FORMAT);
      }
      ServerList servers;
      try {
        servers = ServerList.parse(param, entry.substring(eq + 1));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(param + ": cluster '" + name + "': " + e.getMessage()
            .substring(param.length() + 2));
      }
      lists.put(name, servers);
    }
    return lists;
  }
}
