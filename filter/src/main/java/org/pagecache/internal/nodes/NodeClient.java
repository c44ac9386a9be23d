package org.pagecache.internal.nodes;

import java.net.InetSocketAddress;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import net.rubyeye.xmemcached.exception.MemcachedServerException;
import org.pagecache.store.MemcachedStore;
import org.pagecache.store.Store;
import org.pagecache.store.StoreException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The client of one memcached node, which reconnects only when asked ({@link #reconnect}) and only
 * once the server answers: xmemcached's own reconnect loop logs every failed attempt
 * at ERROR with a stack trace, noise for an outage its breaker already reported in one line. A
 * lost connection is replaced by a new client; a server that was hung keeps its connection.
 *
 * <p>Whether the node answers is judged by a data command (a {@code get} of a key no one writes),
 * which memcached proxies pass on. A node that is a proxy ({@code memcached.proxy}: said, or seen
 * refusing {@code stats}) is never sent {@code stats} (twemproxy would close the connection), and
 * an error it answers is about a server behind it, not about itself ({@link #answeredByProxy}).
 */
final class NodeClient implements Store {
  private static final Logger log = LoggerFactory.getLogger(ClusterStore.class);

  private final String name;
  private final InetSocketAddress address;
  private final MemcachedStore.Settings settings;
  private final ClusterStore.ProxyMode mode;
  private final int probeMillis;
  private final LongAdder retiredRoundTrips = new LongAdder();
  /** Null until the server first accepted a connection. */
  private volatile MemcachedStore client;
  /** Whether the node is a proxy: set from the mode, or once its answer to {@code stats} is known. */
  private volatile boolean proxy;
  private volatile boolean proxyKnown;

  private NodeClient(String name, InetSocketAddress address, MemcachedStore.Settings settings,
      ClusterStore.ProxyMode mode) {
    this.name = name;
    this.address = address;
    this.settings = settings;
    this.mode = mode;
    this.probeMillis = (int) Math.max(1, settings.opTimeout().toMillis());
    this.proxy = mode == ClusterStore.ProxyMode.ON;
    this.proxyKnown = mode != ClusterStore.ProxyMode.AUTO;
  }

  /** Connects now when the server accepts connections; otherwise {@link #connected()} is false. */
  static NodeClient connect(String name, InetSocketAddress address, MemcachedStore.Settings settings,
      ClusterStore.ProxyMode mode) {
    NodeClient node = new NodeClient(name, address, settings, mode);
    if (RawCommands.accepts(address, (int) Math.max(1, settings.connectTimeout().toMillis()))) {
      node.detectProxy();
      node.client = MemcachedStore.withoutReconnecting(settings);
    }
    return node;
  }

  boolean connected() {
    return answers(client);
  }

  /** True when the node is a memcached proxy: it is never flushed, and never asked for stats. */
  boolean proxy() {
    return proxy;
  }

  /**
   * True when {@code e} is an error the node answered while it is a proxy: the server behind it
   * that holds the key failed (twemproxy: "SERVER_ERROR Connection refused"), the proxy did not.
   */
  boolean answeredByProxy(StoreException e) {
    return proxy && e.getCause() instanceof MemcachedServerException;
  }

  /** With {@code memcached.proxy=auto}: a server that answers a get but refuses stats is a proxy. */
  private void detectProxy() {
    if (proxyKnown) {
      return;
    }
    Boolean refuses = RawCommands.refusesStats(address, probeMillis);
    if (refuses == null) {
      return; // did not answer: asked again when it does
    }
    proxy = refuses;
    proxyKnown = true;
    if (refuses) {
      log.info("pagecache: memcached {} answers data commands but refuses stats: a memcached proxy (twemproxy);"
          + " it is never sent stats or flush_all, and its error answers are not outages of its own"
          + " (memcached.proxy=auto; set memcached.proxy=on to say so, as mcrouter needs)", name);
    }
  }

  /** The client answers a data command: memcached's reply, or, from a proxy, any reply. */
  private boolean answers(MemcachedStore c) {
    if (c == null) {
      return false;
    }
    try {
      c.get(RawCommands.PROBE_KEY);
      return true;
    } catch (StoreException e) {
      return answeredByProxy(e);
    }
  }

  /**
   * True when the node answers through a client: the current one (a hung server that resumed),
   * or a new one when the old lost its connection and the server accepts connections again.
   */
  boolean reconnect() {
    MemcachedStore old = client;
    if (answers(old)) {
      return true;
    }
    if (!RawCommands.answers(address, probeMillis)) {
      return false; // down, or still hung: keep the old client and its connection
    }
    detectProxy();
    MemcachedStore fresh = MemcachedStore.withoutReconnecting(settings);
    if (!answers(fresh)) {
      fresh.close();
      return false;
    }
    client = fresh;
    if (old != null) {
      retiredRoundTrips.add(old.roundTrips());
      // xmemcached's shutdown can wait seconds for a dead connection: not on a request's thread.
      Thread closer = new Thread(old::close, "pagecache-close-" + name);
      closer.setDaemon(true);
      closer.start();
    }
    return true;
  }

  InetSocketAddress address() {
    return address;
  }

  private MemcachedStore client() {
    MemcachedStore c = client;
    if (c == null) {
      throw new StoreException("memcached " + name + " failed: not connected");
    }
    return c;
  }

  @Override
  public byte[] get(String key) {
    return client().get(key);
  }

  @Override
  public Map<String, byte[]> getMulti(Collection<String> keys) {
    return client().getMulti(keys);
  }

  @Override
  public Versioned gets(String key) {
    return client().gets(key);
  }

  @Override
  public boolean set(String key, byte[] value, int ttlSeconds) {
    return client().set(key, value, ttlSeconds);
  }

  @Override
  public boolean add(String key, byte[] value, int ttlSeconds) {
    return client().add(key, value, ttlSeconds);
  }

  @Override
  public boolean cas(String key, byte[] value, long casUnique, int ttlSeconds) {
    return client().cas(key, value, casUnique, ttlSeconds);
  }

  @Override
  public boolean delete(String key) {
    return client().delete(key);
  }

  @Override
  public void deleteNoReply(String key) {
    client().deleteNoReply(key);
  }

  /**
   * Pipelined by the client, except through a proxy (or one not known yet not to be): a proxy sends
   * the add and the reads to the servers behind it, which answer in no order between them.
   */
  @Override
  public Map<String, byte[]> addThenGetMulti(String addKey, byte[] value, int ttlSeconds, Collection<String> keys) {
    if (proxy || !proxyKnown) {
      return Store.super.addThenGetMulti(addKey, value, ttlSeconds, keys);
    }
    return client().addThenGetMulti(addKey, value, ttlSeconds, keys);
  }

  @Override
  public long incr(String key, long delta, long initial, int ttlSeconds) {
    return client().incr(key, delta, initial, ttlSeconds);
  }

  @Override
  public long decr(String key, long delta, long initial, int ttlSeconds) {
    return client().decr(key, delta, initial, ttlSeconds);
  }

  @Override
  public boolean touch(String key, int ttlSeconds) {
    return client().touch(key, ttlSeconds);
  }

  /** A proxy's figures are not memcached's (and twemproxy closes the connection on stats): only whether it answers. */
  @Override
  public List<ServerStats> serverStats() {
    MemcachedStore c = client;
    if (c != null && proxy) {
      return List.of(new ServerStats(name, answers(c), Map.of(), Map.of()));
    }
    return c != null ? c.serverStats() : List.of(new ServerStats(name, false, Map.of(), Map.of()));
  }

  @Override
  public long roundTrips() {
    MemcachedStore c = client;
    return retiredRoundTrips.sum() + (c == null ? 0 : c.roundTrips());
  }

  @Override
  public String describe() {
    return "memcached[" + name + "]";
  }

  @Override
  public void close() {
    MemcachedStore c = client;
    if (c != null) {
      c.close();
    }
  }
}
