package org.pagecache;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.pagecache.internal.cluster.NamedServerLists;
import org.pagecache.store.ServerList;

/**
 * The {@code memcached.pools} setting, {@code NAME=host:port,...; NAME=host:port,...}: named pools
 * of memcached servers for the pages of some handlers (policy key {@code pool=NAME}), so big or
 * rarely-read pages cannot evict the small hot ones (Facebook's memcache paper, §3.2.3). Checked
 * at start-up with the servers and the policies: every pool a policy names exists, and no server
 * is in two places.
 */
final class MemcachedPools {
  private static final String FORMAT = "use NAME=host:port,...; NAME=host:port,... e.g. big=10.0.0.5:11211,10.0.0.6:11211";

  private MemcachedPools() {}

  /** The pools by name, in the order written; empty when {@code value} is blank. */
  static Map<String, ServerList> parse(String value) {
    Map<String, ServerList> pools = NamedServerLists.parse("memcached.pools", value);
    for (String name : pools.keySet()) {
      if (!name.matches("[a-z0-9_-]{1,32}") || name.equals("main") || name.equals("gutter")) {
        throw new IllegalArgumentException("memcached.pools: '" + name + "' is not a pool name"
            + " (1 to 32 of a-z 0-9 _ -, not main or gutter); " + FORMAT);
      }
    }
    return pools;
  }

  /**
   * What is wrong with the pools given the cluster, the gutter and the policies, or null: a pool
   * without a cluster, a server in two places, a policy naming a pool that is not defined.
   */
  static String problem(Map<String, ServerList> pools, ServerList cluster, ServerList gutter, Policies policies) {
    Map<String, String> pooled = new LinkedHashMap<>(policies.pools());
    if (!policies.defaultPool().isEmpty()) {
      pooled.put("default", policies.defaultPool());
    }
    for (Map.Entry<String, String> e : pooled.entrySet()) {
      if (!pools.containsKey(e.getValue())) {
        return "policies[" + e.getKey() + "].pool: '" + e.getValue() + "' is not a pool of memcached.pools ("
            + (pools.isEmpty() ? "none defined" : "defined: " + String.join(", ", pools.keySet())) + ")";
      }
    }
    if (pools.isEmpty()) {
      return null;
    }
    if (cluster == null) {
      return "memcached.pools: pools need memcached.servers, which keeps the tokens and tag versions; set it too";
    }
    Map<InetSocketAddress, String> placed = new LinkedHashMap<>();
    List<String> clashes = new ArrayList<>();
    place(placed, clashes, "memcached.servers", cluster);
    if (gutter != null) {
      place(placed, clashes, "memcached.gutter", gutter);
    }
    pools.forEach((name, servers) -> place(placed, clashes, "memcached.pools[" + name + "]", servers));
    return clashes.isEmpty() ? null : "memcached.pools: " + String.join("; ", clashes)
        + "; each memcached server belongs to one pool";
  }

  private static void place(Map<InetSocketAddress, String> placed, List<String> clashes, String where, ServerList servers) {
    for (int i = 0; i < servers.size(); i++) {
      String before = placed.putIfAbsent(servers.addresses().get(i), where);
      if (before != null) {
        clashes.add("'" + servers.hostPort(i) + "' is in " + before + " and in " + where);
      }
    }
  }
}
