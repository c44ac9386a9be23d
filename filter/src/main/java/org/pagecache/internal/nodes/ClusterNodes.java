package org.pagecache.internal.nodes;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.pagecache.store.MemcachedStore;
import org.pagecache.store.ServerList;

/**
 * Connects the nodes of every pool (one client per node, each connect bounded by the connect
 * timeout) and gives each its breaker and its way back after an outage: a main node of several
 * and a named pool's node are emptied on return, the gutter's, a lone main node and a proxy are not.
 */
final class ClusterNodes {
  /** The pools, by name: {@code main} first, then {@code gutter} when there is one, then the named ones. */
  final Map<String, Pool> pools = new LinkedHashMap<>();
  final String description;

  ClusterNodes(ClusterStore.Settings s, UnexpectedErrors unexpected) {
    int timeout = (int) Math.max(1, s.opTimeout().toMillis());
    Map<String, ServerList> servers = new LinkedHashMap<>();
    servers.put(ClusterStore.MAIN, s.main());
    if (s.gutter() != null) {
      servers.put(ClusterStore.GUTTER, s.gutter());
    }
    servers.putAll(s.pools());
    StringBuilder d = new StringBuilder();
    servers.forEach((name, list) -> {
      boolean emptied = name.equals(ClusterStore.MAIN) ? list.size() > 1 : !name.equals(ClusterStore.GUTTER);
      pools.put(name, pool(s, name, list, emptied, s.gutter() != null, timeout, unexpected));
      d.append(d.length() == 0 ? "" : " ").append(name.equals(ClusterStore.MAIN) ? "memcached" : name)
          .append('[').append(String.join(",", hostPorts(list))).append(']');
    });
    this.description = d.toString();
  }

  private static Pool pool(ClusterStore.Settings s, String name, ServerList servers, boolean emptied,
      boolean withGutter, int timeout, UnexpectedErrors unexpected) {
    String whileDown = name.equals(ClusterStore.GUTTER) ? "the pages of failed nodes go to their handlers"
        : withGutter ? "its pages live in the gutter" : "its pages go to their handlers";
    List<Node> nodes = new ArrayList<>();
    for (int i = 0; i < servers.size(); i++) {
      InetSocketAddress address = servers.addresses().get(i);
      String hostPort = servers.hostPort(i);
      NodeClient client = NodeClient.connect(hostPort, address, new MemcachedStore.Settings(
          new ServerList(List.of(address), List.of(servers.weightList().get(i))), s.binary(), s.connectTimeout(),
          s.opTimeout(), s.poolSize()), s.proxy());
      // Reachable through a client again (the old connection, or a new one), then emptied, unless it
      // is a proxy: twemproxy refuses flush_all, mcrouter would empty every server behind it.
      BooleanSupplier rejoin = emptied
          ? () -> client.reconnect() && (client.proxy() || RawCommands.flushAll(address, timeout))
          : client::reconnect;
      String label = name.equals(ClusterStore.MAIN) ? hostPort : hostPort + " (" + name + ")";
      NodeHealth health = new NodeHealth(label, s.clock(), s.retryInterval().toMillis(), rejoin, whileDown);
      if (!client.connected()) {
        health.forceDown("not reachable at start-up");
      }
      nodes.add(new Node(hostPort, client, health, name, emptied, unexpected));
    }
    return new Pool(name, List.copyOf(nodes), new NodeRing(hostPorts(servers), servers.weightList()));
  }

  private static List<String> hostPorts(ServerList servers) {
    List<String> names = new ArrayList<>();
    for (int i = 0; i < servers.size(); i++) {
      names.add(servers.hostPort(i));
    }
    return names;
  }
}
