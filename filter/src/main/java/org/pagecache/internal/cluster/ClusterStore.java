package org.pagecache.internal.cluster;

import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.pagecache.internal.key.KeyParts;
import org.pagecache.store.MemcachedStore;
import org.pagecache.store.Namespace;
import org.pagecache.store.ServerList;
import org.pagecache.store.Store;
import org.pagecache.store.StoreException;

/**
 * A memcached cluster in which each node is judged on its own (docs/failures.md). Keys are placed
 * by this class's own Ketama ring ({@link NodeRing}) over one single-server client per node, so:
 * <ul>
 *   <li>a node that hangs or refuses is taken out by its own breaker ({@link NodeHealth}); keys on
 *       the other nodes keep their single round trip (xmemcached's multi-get is all or nothing
 *       across servers, so a multi-get is split here per node instead);
 *   <li>its keys are not rehashed onto the healthy nodes: pages and locks go to the gutter pool
 *       with a short lifetime (Facebook's memcache paper, §3.3), or, without one, fail so only
 *       that node's pages reach their handlers; counters fail (they fail open);
 *   <li>control keys (update tokens, tag versions: numbers that only grow) are written to every
 *       node that is up and read from one: the node of the page read with them, so the hit path
 *       stays one round trip. A write raises each node to at least the new value, so replicas
 *       never move backwards;
 *   <li>a node of a cluster of several that comes back is emptied ({@code flush_all}) before it
 *       is used again: it may hold tokens, tag versions and pages older than what was written
 *       on the others meanwhile. That costs its share of the pages once, as a restart would.
 * </ul>
 */
public final class ClusterStore implements Store {
  /**
   * How to build the cluster.
   *
   * @param main the cluster ({@code memcached.servers}): control keys, and the pages of handlers
   *     without a pool
   * @param gutter the gutter pool ({@code memcached.gutter}), or null for none
   * @param gutterTtl the longest an entry lives in the gutter ({@code gutter.ttl})
   * @param pools named pools ({@code memcached.pools}) for the pages of some handlers
   * @param poolByHandler the pool of each handler that has one (policy key {@code pool})
   * @param defaultPool the pool of every other handler; empty for the main cluster
   */
  public record Settings(ServerList main, ServerList gutter, Duration gutterTtl, Map<String, ServerList> pools,
      Map<String, String> poolByHandler, String defaultPool, boolean binary, Duration connectTimeout,
      Duration opTimeout, int poolSize, Namespace namespace, Clock clock, Duration retryInterval) {

    /** A main cluster and a gutter, no named pools. */
    public Settings(ServerList main, ServerList gutter, Duration gutterTtl, boolean binary, Duration connectTimeout,
        Duration opTimeout, int poolSize, Namespace namespace, Clock clock, Duration retryInterval) {
      this(main, gutter, gutterTtl, Map.of(), Map.of(), "", binary, connectTimeout, opTimeout, poolSize, namespace,
          clock, retryInterval);
    }
  }

  /**
   * One node: its name as configured, its weight, its single-server store, what brings it back
   * into use after an outage, and whether it answered at start-up.
   */
  record Member(String name, int weight, Store store, BooleanSupplier rejoin, boolean upAtStart) {}

  /**
   * @param emptiedOnReturn whether the node is emptied before it is used again after an outage
   *     (so a write it missed cannot come back from it)
   */
  private record Node(String name, Store store, NodeHealth health, String pool, boolean emptiedOnReturn) {
    boolean gutter() {
      return pool.equals(GUTTER);
    }
  }

  /** The nodes of one pool with their ring. */
  private record Pool(String name, List<Node> nodes, NodeRing ring) {
    Node owner(String key) {
      return nodes.get(ring.node(key));
    }
  }

  /** A node's state as the admin page and the metrics show it. */
  public record NodeState(String name, String pool, boolean down, long outages) {}

  static final String MAIN = "main";
  static final String GUTTER = "gutter";

  private final Pool main;
  private final Pool gutter;
  private final Map<String, Pool> pools;
  private final Map<String, String> poolByHandlerPart = new HashMap<>();
  private final String defaultPool;
  private final int gutterTtlSeconds;
  private final KeyKind.Classifier kinds;
  private final UnexpectedErrors unexpected;
  private final LongAdder ownRoundTrips = new LongAdder();
  private final String description;

  private ClusterStore(Settings s, Map<String, List<Member>> members) {
    Clock clock = s.clock();
    long retryMillis = s.retryInterval().toMillis();
    boolean withGutter = members.containsKey(GUTTER);
    Map<String, Pool> named = new LinkedHashMap<>();
    Pool mainPool = null;
    Pool gutterPool = null;
    for (Map.Entry<String, List<Member>> e : members.entrySet()) {
      String pool = e.getKey();
      String whileDown = pool.equals(GUTTER) ? "the pages of failed nodes go to their handlers"
          : withGutter ? "its pages live in the gutter" : "its pages go to their handlers";
      // The main cluster holds control keys, which a node of several may have missed; a named pool
      // holds pages only, but an evict it missed must not come back either.
      boolean emptied = pool.equals(MAIN) ? e.getValue().size() > 1 : !pool.equals(GUTTER);
      List<Node> nodes = new ArrayList<>();
      for (Member m : e.getValue()) {
        String label = pool.equals(MAIN) ? m.name() : m.name() + " (" + pool + ")";
        NodeHealth health = new NodeHealth(label, clock, retryMillis, m.rejoin(), whileDown);
        if (!m.upAtStart()) {
          health.forceDown("not reachable at start-up");
        }
        nodes.add(new Node(m.name(), m.store(), health, pool, emptied));
      }
      Pool p = new Pool(pool, List.copyOf(nodes), new NodeRing(e.getValue().stream().map(Member::name).toList(),
          e.getValue().stream().map(Member::weight).toList()));
      if (pool.equals(MAIN)) {
        mainPool = p;
      } else if (pool.equals(GUTTER)) {
        gutterPool = p;
      } else {
        named.put(pool, p);
      }
    }
    this.main = mainPool;
    this.gutter = gutterPool;
    this.pools = named;
    s.poolByHandler().forEach((handler, pool) -> poolByHandlerPart.put(KeyParts.part(handler), pool));
    this.defaultPool = s.defaultPool();
    this.gutterTtlSeconds = (int) Math.max(1, s.gutterTtl().toSeconds());
    this.kinds = new KeyKind.Classifier(s.namespace());
    this.unexpected = new UnexpectedErrors(clock);
    StringBuilder d = new StringBuilder();
    members.forEach((pool, list) -> d.append(d.length() == 0 ? "" : " ").append(pool.equals(MAIN) ? "memcached" : pool)
        .append('[').append(String.join(",", list.stream().map(Member::name).toList())).append(']'));
    this.description = d.toString();
  }

  /** Connects one client per node (each connect waits at most the connect timeout). */
  public static ClusterStore connect(Settings s) {
    Map<String, List<Member>> members = new LinkedHashMap<>();
    int timeout = (int) Math.max(1, s.opTimeout().toMillis());
    members.put(MAIN, members(s, s.main(), s.main().size() > 1, timeout));
    if (s.gutter() != null) {
      members.put(GUTTER, members(s, s.gutter(), false, timeout));
    }
    s.pools().forEach((name, servers) -> members.put(name, members(s, servers, true, timeout)));
    return new ClusterStore(s, members);
  }

  private static List<Member> members(Settings s, ServerList servers, boolean emptyOnReturn, int timeout) {
    List<Member> members = new ArrayList<>();
    for (int i = 0; i < servers.size(); i++) {
      InetSocketAddress address = servers.addresses().get(i);
      ServerList one = new ServerList(List.of(address), List.of(servers.weightList().get(i)));
      NodeClient node = NodeClient.connect(servers.hostPort(i), address,
          new MemcachedStore.Settings(one, s.binary(), s.connectTimeout(), s.opTimeout(), s.poolSize()));
      // Reachable through a client again (the old connection, or a new one), then emptied.
      BooleanSupplier rejoin = emptyOnReturn ? () -> node.reconnect() && RawCommands.flushAll(address, timeout)
          : node::reconnect;
      members.add(new Member(servers.hostPort(i), servers.weightList().get(i), node, rejoin, node.connected()));
    }
    return members;
  }

  // ---- routing ----

  /** The index, within its pool, of the node that owns the key (tests and benchmarks place keys with it). */
  public int nodeOf(String key) {
    return poolOf(key).ring.node(key);
  }

  /** The pool that owns the key: a page of a handler with a pool is there, everything else in the main cluster. */
  private Pool poolOf(String key) {
    if (pools.isEmpty()) {
      return main;
    }
    String part = kinds.handlerPartOfPage(key);
    if (part == null) {
      return main;
    }
    Pool p = pools.get(poolByHandlerPart.getOrDefault(part, defaultPool));
    return p != null ? p : main;
  }

  /** Where a page, lock or counter key is read and written now; null when nowhere. */
  private Node target(String key) {
    Node owner = poolOf(key).owner(key);
    if (owner.health.admits()) {
      return owner;
    }
    if (gutter != null && kinds.of(key) == KeyKind.GUTTERABLE) {
      Node g = gutter.owner(key);
      return g.health.admits() ? g : null;
    }
    return null;
  }

  private Node required(String key) {
    Node node = target(key);
    if (node == null) {
      Node owner = poolOf(key).owner(key);
      throw new StoreException("memcached " + owner.name + " is down" + (gutter == null ? "" : " and so is its gutter"));
    }
    return node;
  }

  /** The main nodes that are up, in the key's ring order: where a control key's replicas are. */
  private List<Node> replicas(String key) {
    List<Node> up = new ArrayList<>(main.nodes.size());
    for (int i : main.ring.order(key)) {
      Node n = main.nodes.get(i);
      if (n.health.admits()) {
        up.add(n);
      }
    }
    if (up.isEmpty()) {
      throw new StoreException(description + ": every node is down");
    }
    return up;
  }

  private int ttlIn(Node node, int ttlSeconds) {
    if (!node.gutter()) {
      return ttlSeconds;
    }
    return ttlSeconds == 0 ? gutterTtlSeconds : Math.min(ttlSeconds, gutterTtlSeconds);
  }

  private <T> T call(Node node, Supplier<T> op) {
    try {
      T result = op.get();
      node.health.succeeded();
      return result;
    } catch (StoreException e) {
      if (UnexpectedErrors.unexpected(e)) {
        unexpected.maybeLog(node.name, e);
      }
      node.health.failed(cause(e));
      throw e;
    }
  }

  /** The reason without the key (the log line names the node). */
  private static String cause(StoreException e) {
    String message = String.valueOf(e.getMessage());
    int at = message.indexOf("failed: ");
    return at >= 0 ? message.substring(at + "failed: ".length()) : message;
  }

  // ---- reads ----

  @Override
  public byte[] get(String key) {
    if (kinds.of(key) == KeyKind.CONTROL) {
      return getMulti(List.of(key)).get(key);
    }
    Node node = required(key);
    return call(node, () -> node.store.get(key));
  }

  /**
   * One call per node involved. Control keys are read from the node of the call's first other
   * key, so a page and its handler's token are one round trip; a control key that node lacks
   * (emptied or evicted) is read from the other nodes.
   */
  @Override
  public Map<String, byte[]> getMulti(Collection<String> keys) {
    if (keys.isEmpty()) {
      ownRoundTrips.increment();
      return new HashMap<>();
    }
    String anchorKey = null;
    String firstControl = null;
    for (String key : keys) {
      if (kinds.of(key) != KeyKind.CONTROL) {
        anchorKey = anchorKey == null ? key : anchorKey;
      } else {
        firstControl = firstControl == null ? key : firstControl;
      }
    }
    Node anchor = anchorKey == null ? null : required(anchorKey);
    Node controlNode = firstControl == null ? null
        : anchor != null && anchor.pool.equals(MAIN) ? anchor : replicas(firstControl).get(0);
    Map<Node, List<String>> groups = new LinkedHashMap<>();
    List<String> control = new ArrayList<>();
    for (String key : keys) {
      boolean isControl = kinds.of(key) == KeyKind.CONTROL;
      if (isControl) {
        control.add(key);
      }
      groups.computeIfAbsent(isControl ? controlNode : required(key), n -> new ArrayList<>()).add(key);
    }
    Map<String, byte[]> found = new HashMap<>();
    groups.forEach((node, group) -> found.putAll(call(node, () -> node.store.getMulti(group))));
    control.removeIf(found::containsKey);
    if (!control.isEmpty() && main.nodes.size() > 1) {
      Map<String, byte[]> elsewhere = largestElsewhere(control, controlNode);
      found.putAll(elsewhere);
      // Read repair: put it back where it was missing (add: never over a newer one written meanwhile).
      elsewhere.forEach((key, value) -> {
        try {
          call(controlNode, () -> controlNode.store.add(key, value, 0));
        } catch (StoreException e) {
          // the next read repairs it
        }
      });
    }
    return found;
  }

  /** The largest value of each control key on the nodes that are up other than {@code except}. */
  private Map<String, byte[]> largestElsewhere(List<String> keys, Node except) {
    Map<String, byte[]> largest = new HashMap<>();
    for (Node n : replicas(keys.get(0))) {
      if (n == except) {
        continue;
      }
      try {
        call(n, () -> n.store.getMulti(keys)).forEach((key, value) -> largest.merge(key, value,
            (a, b) -> ControlValues.parse(a) >= ControlValues.parse(b) ? a : b));
      } catch (StoreException e) {
        // the value from the nodes that answered; none at all reads as missing, as before
      }
    }
    return largest;
  }

  /** For a control key: the largest value any node that is up holds, its own value as cas unique. */
  @Override
  public Versioned gets(String key) {
    if (kinds.of(key) != KeyKind.CONTROL) {
      Node node = required(key);
      return call(node, () -> node.store.gets(key));
    }
    Versioned best = null;
    long bestValue = -1;
    StoreException failure = null;
    int answered = 0;
    for (Node n : replicas(key)) {
      try {
        Versioned v = call(n, () -> n.store.gets(key));
        answered++;
        long value = v == null ? -1 : ControlValues.parse(v.value());
        if (v != null && value > bestValue) {
          bestValue = value;
          best = new Versioned(v.value(), value);
        }
      } catch (StoreException e) {
        failure = e;
      }
    }
    if (answered == 0) {
      throw failure;
    }
    return best;
  }

  // ---- writes ----

  @Override
  public boolean set(String key, byte[] value, int ttlSeconds) {
    if (kinds.of(key) == KeyKind.CONTROL) {
      return everywhere(key, n -> n.store.set(key, value, ttlSeconds));
    }
    Node node = required(key);
    return call(node, () -> node.store.set(key, value, ttlIn(node, ttlSeconds)));
  }

  @Override
  public boolean add(String key, byte[] value, int ttlSeconds) {
    if (kinds.of(key) == KeyKind.CONTROL) {
      return everywhere(key, n -> n.store.add(key, value, ttlSeconds));
    }
    Node node = required(key);
    return call(node, () -> node.store.add(key, value, ttlIn(node, ttlSeconds)));
  }

  /**
   * For a control key {@code casUnique} is the value {@link #gets} returned: each node still at
   * most that value is raised to {@code value}; false when a node already holds more (another
   * writer won: read again). A node that missed earlier writes is raised with the others.
   */
  @Override
  public boolean cas(String key, byte[] value, long casUnique, int ttlSeconds) {
    if (kinds.of(key) != KeyKind.CONTROL) {
      Node node = required(key);
      return call(node, () -> node.store.cas(key, value, casUnique, ttlIn(node, ttlSeconds)));
    }
    boolean raised = false;
    StoreException failure = null;
    for (Node n : replicas(key)) {
      try {
        Raise r = call(n, () -> ControlValues.raise(n.store, key, value, casUnique, ttlSeconds));
        if (r == Raise.OVERTAKEN) {
          return raised;
        }
        raised = true;
      } catch (StoreException e) {
        missedControlWrite(n, e);
        failure = e;
      }
    }
    if (!raised && failure != null) {
      throw failure;
    }
    return raised;
  }

  /**
   * Deleting a page whose node is down succeeds when that node is emptied before it is used
   * again (a cluster of several, a named pool): the page cannot come back. Its gutter copy, if
   * any, is deleted too. A lone node that is down fails the delete, as before.
   */
  @Override
  public boolean delete(String key) {
    if (kinds.of(key) == KeyKind.CONTROL) {
      return everywhere(key, n -> n.store.delete(key));
    }
    Node owner = poolOf(key).owner(key);
    Node node = target(key);
    if (node != owner && !owner.emptiedOnReturn()) {
      throw new StoreException("memcached " + owner.name + " is down: the entry would come back with it");
    }
    if (node == null) {
      return false;
    }
    return call(node, () -> node.store.delete(key));
  }

  @Override
  public long incr(String key, long delta, long initial, int ttlSeconds) {
    Node node = required(key);
    return call(node, () -> node.store.incr(key, delta, initial, ttlIn(node, ttlSeconds)));
  }

  @Override
  public long decr(String key, long delta, long initial, int ttlSeconds) {
    Node node = required(key);
    return call(node, () -> node.store.decr(key, delta, initial, ttlIn(node, ttlSeconds)));
  }

  @Override
  public boolean touch(String key, int ttlSeconds) {
    Node node = required(key);
    return call(node, () -> node.store.touch(key, ttlIn(node, ttlSeconds)));
  }

  /** Runs a write on every node that is up; the first node's answer; fails only if all fail. */
  private boolean everywhere(String key, java.util.function.Predicate<Node> op) {
    Boolean first = null;
    StoreException failure = null;
    for (Node n : replicas(key)) {
      try {
        boolean result = call(n, () -> op.test(n));
        if (first == null) {
          first = result;
        }
      } catch (StoreException e) {
        missedControlWrite(n, e);
        failure = e;
      }
    }
    if (first == null) {
      throw failure;
    }
    return first;
  }

  /**
   * A node that missed a control write would answer an older token or tag version: in a cluster
   * of several it is taken down at once, and emptied before it is read again.
   */
  private void missedControlWrite(Node n, StoreException e) {
    if (main.nodes.size() > 1) {
      n.health.forceDown(cause(e));
    }
  }

  // ---- state ----

  /** Every node's state: the main cluster first, then the gutter, then the named pools. */
  public List<NodeState> nodeStates() {
    List<NodeState> states = new ArrayList<>();
    for (Node n : all()) {
      states.add(new NodeState(n.name, n.pool, n.health.isDown(), n.health.outages()));
    }
    return states;
  }

  /** True when every node of the main cluster is down. */
  public boolean allDown() {
    return main.nodes.stream().allMatch(n -> n.health.isDown());
  }

  /** A node that its breaker holds down is reported down, whatever its connection says. */
  @Override
  public List<ServerStats> serverStats() {
    List<ServerStats> stats = new ArrayList<>();
    for (Node n : all()) {
      for (ServerStats s : n.store.serverStats()) {
        stats.add(n.health.isDown() ? new ServerStats(s.address(), false, Map.of(), Map.of()) : s);
      }
    }
    return stats;
  }

  @Override
  public long roundTrips() {
    long sum = ownRoundTrips.sum();
    for (Node n : all()) {
      sum += n.store.roundTrips();
    }
    return sum;
  }

  @Override
  public String describe() {
    return description;
  }

  @Override
  public void close() {
    all().forEach(n -> n.store.close());
  }

  private List<Node> all() {
    List<Node> all = new ArrayList<>(main.nodes);
    if (gutter != null) {
      all.addAll(gutter.nodes);
    }
    pools.values().forEach(p -> all.addAll(p.nodes));
    return all;
  }

  /** How a conditional raise of one replica ended. */
  enum Raise { RAISED, OVERTAKEN }
}
