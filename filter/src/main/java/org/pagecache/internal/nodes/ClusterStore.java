package org.pagecache.internal.nodes;

import org.pagecache.stats.NodeState;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.LongAdder;
import org.pagecache.internal.text.KeyParts;
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
 *       across servers, so a multi-get is split here per node instead: one round trip per node
 *       involved, one after the other; the page lookup involves one);
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
      Duration opTimeout, int poolSize, Namespace namespace, Clock clock, Duration retryInterval, ProxyMode proxy) {

    /** Servers seen refusing {@code stats} are taken for proxies ({@code memcached.proxy=auto}). */
    public Settings(ServerList main, ServerList gutter, Duration gutterTtl, Map<String, ServerList> pools,
        Map<String, String> poolByHandler, String defaultPool, boolean binary, Duration connectTimeout,
        Duration opTimeout, int poolSize, Namespace namespace, Clock clock, Duration retryInterval) {
      this(main, gutter, gutterTtl, pools, poolByHandler, defaultPool, binary, connectTimeout, opTimeout, poolSize,
          namespace, clock, retryInterval, ProxyMode.AUTO);
    }

    /** A main cluster and a gutter, no named pools. */
    public Settings(ServerList main, ServerList gutter, Duration gutterTtl, boolean binary, Duration connectTimeout,
        Duration opTimeout, int poolSize, Namespace namespace, Clock clock, Duration retryInterval) {
      this(main, gutter, gutterTtl, Map.of(), Map.of(), "", binary, connectTimeout, opTimeout, poolSize, namespace,
          clock, retryInterval, ProxyMode.AUTO);
    }
  }

  /**
   * Whether the servers are memcached proxies (twemproxy, mcrouter) rather than memcached itself
   * ({@code memcached.proxy}): a proxy is never sent {@code stats} or {@code flush_all}, and an
   * error it answers is about a server behind it, so it does not count against the proxy's breaker.
   */
  public enum ProxyMode {
    /** A server that answers data commands but refuses {@code stats} is a proxy (twemproxy does). */
    AUTO,
    /** Every server is a proxy (mcrouter answers stats of its own, so it is not recognised). */
    ON,
    /** No server is a proxy. */
    OFF
  }


  /** True when the node is a memcached proxy (said, or recognised): never flushed, never asked for stats. */
  public boolean isProxy(int mainNode) {
    return main.nodes().get(mainNode).store.proxy();
  }

  static final String MAIN = "main";
  static final String GUTTER = "gutter";

  private final Pool main;
  private final Pool gutter;
  private final Map<String, Pool> pools = new LinkedHashMap<>();
  private final List<Node> all = new ArrayList<>();
  private final ControlReplicas control;
  private final Map<String, String> poolByHandlerPart = new HashMap<>();
  private final String defaultPool;
  private final int gutterTtlSeconds;
  private final KeyKind.Classifier kinds;
  private final LongAdder ownRoundTrips;
  private final String description;
  /**
   * Main or pool nodes whose gutterable keys this view keeps in the gutter even once they are
   * back: empty for the cluster itself, set for a build's view ({@link #placedFor}).
   */
  private final Set<Node> keptInGutter;
  private final int opTimeoutMillis;

  private ClusterStore(Settings s, ClusterNodes nodes) {
    this.main = nodes.pools.get(MAIN);
    this.gutter = nodes.pools.get(GUTTER);
    nodes.pools.forEach((name, pool) -> {
      all.addAll(pool.nodes());
      if (!name.equals(MAIN) && !name.equals(GUTTER)) {
        pools.put(name, pool);
      }
    });
    this.control = new ControlReplicas(main);
    s.poolByHandler().forEach((handler, pool) -> poolByHandlerPart.put(KeyParts.part(handler), pool));
    this.defaultPool = s.defaultPool();
    this.gutterTtlSeconds = (int) Math.max(1, s.gutterTtl().toSeconds());
    this.kinds = new KeyKind.Classifier(s.namespace());
    this.description = nodes.description;
    this.ownRoundTrips = new LongAdder();
    this.keptInGutter = Set.of();
    this.opTimeoutMillis = (int) Math.max(1, s.opTimeout().toMillis());
  }

  /** The same cluster, keeping the keys of {@code keptInGutter}'s nodes in the gutter. */
  private ClusterStore(ClusterStore c, Set<Node> keptInGutter) {
    this.main = c.main;
    this.gutter = c.gutter;
    this.pools.putAll(c.pools);
    this.all.addAll(c.all);
    this.control = c.control;
    this.poolByHandlerPart.putAll(c.poolByHandlerPart);
    this.defaultPool = c.defaultPool;
    this.gutterTtlSeconds = c.gutterTtlSeconds;
    this.kinds = c.kinds;
    this.ownRoundTrips = c.ownRoundTrips;
    this.description = c.description;
    this.keptInGutter = keptInGutter;
    this.opTimeoutMillis = c.opTimeoutMillis;
  }

  /** Connects one client per node (each connect waits at most the connect timeout). */
  public static ClusterStore connect(Settings s) {
    return new ClusterStore(s, new ClusterNodes(s, new UnexpectedErrors(s.clock())));
  }

  // ---- routing ----

  /** The index, within its pool, of the node that owns the key (tests and benchmarks place keys with it). */
  public int nodeOf(String key) {
    return poolOf(key).ring().node(key);
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

  /**
   * A view of the cluster for one build, placed where its keys are served now: the keys of a node
   * that is in the gutter now stay in the gutter for this view, even if a probe brings the node
   * back meanwhile. A build that took its lock in the gutter then stores its page and deletes its
   * lock there, rather than store on the returning node (whose flush by another frontend would
   * wipe the page) and strand the lock in the gutter, where it would hold the page until it
   * expires if the node went out again (docs/failures.md, "A build finishes where it started").
   * Keys of nodes that are in use now are routed afresh, as by the cluster.
   */
  public ClusterStore placedFor(String... keys) {
    if (gutter == null) {
      return this;
    }
    Set<Node> inGutter = new java.util.HashSet<>(keptInGutter);
    for (String key : keys) {
      Node at = target(key);
      if (at != null && at.gutter()) {
        inGutter.add(poolOf(key).owner(key));
      }
    }
    return inGutter.equals(keptInGutter) ? this : new ClusterStore(this, Set.copyOf(inGutter));
  }

  /** Where a page, lock or counter key is read and written now; null when nowhere. */
  private Node target(String key) {
    Node owner = poolOf(key).owner(key);
    boolean gutterable = gutter != null && kinds.of(key) == KeyKind.GUTTERABLE;
    if (gutterable && keptInGutter.contains(owner)) {
      Node g = gutter.owner(key);
      return g.health.admits() ? g : null;
    }
    if (owner.health.admits()) {
      return owner;
    }
    if (gutterable) {
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

  private int ttlIn(Node node, int ttlSeconds) {
    if (!node.gutter()) {
      return ttlSeconds;
    }
    return ttlSeconds == 0 ? gutterTtlSeconds : Math.min(ttlSeconds, gutterTtlSeconds);
  }

  private boolean isControl(String key) {
    return kinds.of(key) == KeyKind.CONTROL;
  }

  // ---- reads ----

  @Override
  public byte[] get(String key) {
    if (isControl(key)) {
      return getMulti(List.of(key)).get(key);
    }
    Node node = required(key);
    return node.call(() -> node.store.get(key));
  }

  /**
   * One call per node involved. Control keys are read from the node of the call's first other
   * key when it is a main node, so a page and its handler's token are one round trip; a control
   * key that node lacks (emptied or evicted) is read from the other nodes.
   */
  @Override
  public Map<String, byte[]> getMulti(Collection<String> keys) {
    if (keys.isEmpty()) {
      ownRoundTrips.increment();
      return new HashMap<>();
    }
    String anchorKey = keys.stream().filter(k -> !isControl(k)).findFirst().orElse(null);
    String firstControl = keys.stream().filter(this::isControl).findFirst().orElse(null);
    Node anchor = anchorKey == null ? null : required(anchorKey);
    Node controlNode = firstControl == null ? null : anchor != null && anchor.main() ? anchor : control.up(firstControl).get(0);
    Map<Node, List<String>> groups = new LinkedHashMap<>();
    List<String> controlKeys = new ArrayList<>();
    for (String key : keys) {
      boolean isControl = isControl(key);
      if (isControl) {
        controlKeys.add(key);
      }
      groups.computeIfAbsent(isControl ? controlNode : required(key), n -> new ArrayList<>()).add(key);
    }
    Map<String, byte[]> found = new HashMap<>();
    groups.forEach((node, group) -> found.putAll(node.call(() -> node.store.getMulti(group))));
    controlKeys.removeIf(found::containsKey);
    found.putAll(control.fillIn(controlKeys, controlNode));
    return found;
  }

  /** For a control key: the largest value any node that is up holds, that value also as its cas unique. */
  @Override
  public Versioned gets(String key) {
    if (isControl(key)) {
      return control.largest(key);
    }
    Node node = required(key);
    return node.call(() -> node.store.gets(key));
  }

  // ---- writes ----

  @Override
  public boolean set(String key, byte[] value, int ttlSeconds) {
    if (isControl(key)) {
      return control.everywhere(key, n -> n.store.set(key, value, ttlSeconds));
    }
    Node node = required(key);
    return node.call(() -> node.store.set(key, value, ttlIn(node, ttlSeconds)));
  }

  @Override
  public boolean add(String key, byte[] value, int ttlSeconds) {
    if (isControl(key)) {
      return control.everywhere(key, n -> n.store.add(key, value, ttlSeconds));
    }
    Node node = required(key);
    return node.call(() -> node.store.add(key, value, ttlIn(node, ttlSeconds)));
  }

  /**
   * For a control key {@code casUnique} is the value {@link #gets} returned: each node still at
   * most that value is raised to {@code value}; false when a node already holds more (another
   * writer won: read again). A node that missed earlier writes is raised with the others.
   */
  @Override
  public boolean cas(String key, byte[] value, long casUnique, int ttlSeconds) {
    if (isControl(key)) {
      return control.raise(key, value, casUnique, ttlSeconds);
    }
    Node node = required(key);
    return node.call(() -> node.store.cas(key, value, casUnique, ttlIn(node, ttlSeconds)));
  }

  /**
   * Deleting a page whose node is down succeeds when that node is emptied before it is used
   * again (a cluster of several, a named pool): the page cannot come back. Its gutter copy, if
   * any, is deleted too. A lone node that is down fails the delete, as before.
   */
  @Override
  public boolean delete(String key) {
    if (isControl(key)) {
      return control.everywhere(key, n -> n.store.delete(key));
    }
    Node owner = poolOf(key).owner(key);
    Node node = target(key);
    if (node != owner && !owner.emptiedOnReturn()) {
      throw new StoreException("memcached " + owner.name + " is down: the entry would come back with it");
    }
    return node != null && node.call(() -> node.store.delete(key));
  }

  /** To the node the key is on now, as {@link #delete} (a page's lock: never a control key). */
  @Override
  public void deleteNoReply(String key) {
    Node owner = poolOf(key).owner(key);
    Node node = target(key);
    if (isControl(key) || node != owner && !owner.emptiedOnReturn()) {
      delete(key); // everywhere, or refused with delete's reason
      return;
    }
    if (node != null) {
      node.call(() -> {
        node.store.deleteNoReply(key);
        return null;
      });
    }
  }

  /**
   * One exchange with one node when the added key and every non-control key read live on the same
   * node (a one-node cluster, or a page and its lock that hash together; the control keys are then
   * read from it, as {@link #getMulti} reads them from the page's node): memcached answers one
   * connection's commands in order, so the reads see the add. Otherwise the add, then the reads.
   */
  @Override
  public Map<String, byte[]> addThenGetMulti(String addKey, byte[] value, int ttlSeconds, Collection<String> keys) {
    if (isControl(addKey)) {
      return Store.super.addThenGetMulti(addKey, value, ttlSeconds, keys);
    }
    Node node = required(addKey);
    List<String> controlKeys = new ArrayList<>();
    for (String key : keys) {
      if (isControl(key)) {
        controlKeys.add(key);
      } else if (target(key) != node) {
        return Store.super.addThenGetMulti(addKey, value, ttlSeconds, keys);
      }
    }
    if (!controlKeys.isEmpty() && !node.main()) {
      return Store.super.addThenGetMulti(addKey, value, ttlSeconds, keys);
    }
    Map<String, byte[]> found = node.call(() -> node.store.addThenGetMulti(addKey, value, ttlIn(node, ttlSeconds), keys));
    if (found == null) {
      return null;
    }
    controlKeys.removeIf(found::containsKey);
    found.putAll(control.fillIn(controlKeys, node));
    return found;
  }

  @Override
  public long incr(String key, long delta, long initial, int ttlSeconds) {
    Node node = required(key);
    return node.call(() -> node.store.incr(key, delta, initial, ttlIn(node, ttlSeconds)));
  }

  @Override
  public long decr(String key, long delta, long initial, int ttlSeconds) {
    Node node = required(key);
    return node.call(() -> node.store.decr(key, delta, initial, ttlIn(node, ttlSeconds)));
  }

  @Override
  public boolean touch(String key, int ttlSeconds) {
    Node node = required(key);
    return node.call(() -> node.store.touch(key, ttlIn(node, ttlSeconds)));
  }

  // ---- emptying ----

  /**
   * Empties every node of the main cluster ({@code flush_all}), as a node coming back from an
   * outage is: what another cluster uses when the invalidations it owed this one were lost
   * (issue 37). Proxies are left alone (twemproxy refuses {@code flush_all}; what mcrouter would
   * do depends on its routes).
   *
   * @return the nodes not emptied because they are proxies; empty when the whole cluster was emptied
   * @throws StoreException when a node does not answer (try again later)
   */
  public List<String> emptyMain() {
    List<String> proxies = new ArrayList<>();
    for (Node n : main.nodes()) {
      if (n.store.proxy()) {
        proxies.add(n.name);
      } else if (!RawCommands.flushAll(n.store.address(), opTimeoutMillis)) {
        throw new StoreException("memcached " + n.name + " did not answer flush_all");
      }
    }
    return proxies;
  }

  // ---- state ----

  /** Every node's state: the main cluster first, then the gutter, then the named pools. */
  public List<NodeState> nodeStates() {
    return all.stream().map(n -> new NodeState(n.name, n.pool, n.health.isDown(), n.health.outages())).toList();
  }

  /** True when every node of the main cluster is down. */
  public boolean allDown() {
    return main.nodes().stream().allMatch(n -> n.health.isDown());
  }

  /** A node that its breaker holds down is reported down, whatever its connection says. */
  @Override
  public List<ServerStats> serverStats() {
    List<ServerStats> stats = new ArrayList<>();
    for (Node n : all) {
      for (ServerStats s : n.store.serverStats()) {
        stats.add(n.health.isDown() ? new ServerStats(s.address(), false, Map.of(), Map.of()) : s);
      }
    }
    return stats;
  }

  @Override
  public long roundTrips() {
    long sum = ownRoundTrips.sum();
    for (Node n : all) {
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
    all.forEach(n -> n.store.close());
  }
}
