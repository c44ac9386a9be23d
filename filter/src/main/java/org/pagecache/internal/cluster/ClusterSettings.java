package org.pagecache.internal.cluster;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Map;
import org.pagecache.internal.config.Durations;
import org.pagecache.store.ServerList;

/**
 * The settings of several memcached clusters (issue 19), validated at start-up:
 * {@code memcached.remote} (the other clusters, by name), {@code memcached.remote.backlog} (how
 * many invalidations one unreachable cluster may have waiting), {@code memcached.warm.from} and
 * {@code memcached.warm.for} (a cold cluster reads its misses from a warm one for a while).
 *
 * @param remotes the other clusters' servers by name; empty for one cluster
 * @param backlogLimit invalidations kept per unreachable cluster, at most
 * @param warmFrom the cluster misses are read from during warm-up; null for none
 * @param warmFor how long after start-up
 */
public record ClusterSettings(Map<String, ServerList> remotes, int backlogLimit, String warmFrom, Duration warmFor) {
  /** One cluster: nothing to broadcast, nothing to warm from. */
  public static final ClusterSettings NONE = new ClusterSettings(Map.of(), 10_000, null, Duration.ZERO);

  public ClusterSettings {
    remotes = Map.copyOf(remotes);
  }

  /**
   * Reads and checks the four settings against each other and against this cluster's servers.
   *
   * @param local {@code memcached.servers} parsed, or null (in-process or given store)
   * @throws IllegalArgumentException naming the setting, its value and what is accepted
   */
  public static ClusterSettings parse(String remote, String backlog, String warmFrom, String warmFor, ServerList local) {
    Map<String, ServerList> remotes = NamedServerLists.parse("memcached.remote", remote);
    if (local != null) {
      for (Map.Entry<String, ServerList> e : remotes.entrySet()) {
        for (InetSocketAddress a : e.getValue().addresses()) {
          if (local.addresses().contains(a)) {
            throw new IllegalArgumentException("memcached.remote: cluster '" + e.getKey() + "' lists "
                + a.getHostString() + ":" + a.getPort() + ", a server of this cluster (memcached.servers); remote"
                + " clusters are the other data centres' servers only");
          }
        }
      }
    }
    int limit = backlogLimit(backlog);
    String from = warmFrom == null ? "" : warmFrom.strip();
    Duration during = Durations.parse("memcached.warm.for", warmFor);
    if (!from.isEmpty() && !remotes.containsKey(from)) {
      throw new IllegalArgumentException("memcached.warm.from: '" + warmFrom + "' is not a cluster of memcached.remote"
          + (remotes.isEmpty() ? " (none is set)" : " (" + String.join(", ", remotes.keySet()) + ")")
          + "; name one of them, or leave it empty");
    }
    if (!from.isEmpty() && during.isZero()) {
      throw new IllegalArgumentException("memcached.warm.for: '" + warmFor + "' must be more than 0 when"
          + " memcached.warm.from is set; use e.g. 30m");
    }
    return new ClusterSettings(remotes, limit, from.isEmpty() ? null : from, from.isEmpty() ? Duration.ZERO : during);
  }

  private static int backlogLimit(String value) {
    String v = value == null ? "" : value.strip();
    if (v.matches("[0-9]{1,7}") && Integer.parseInt(v) >= 1) {
      return Integer.parseInt(v);
    }
    throw new IllegalArgumentException("memcached.remote.backlog: '" + value
        + "' is not a count; use 1 to 9999999 (invalidations kept per unreachable cluster)");
  }

  /** True when there is another cluster to write to. */
  public boolean several() {
    return !remotes.isEmpty();
  }
}
