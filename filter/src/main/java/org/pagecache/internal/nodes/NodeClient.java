package org.pagecache.internal.nodes;

import java.net.InetSocketAddress;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import org.pagecache.store.MemcachedStore;
import org.pagecache.store.Store;
import org.pagecache.store.StoreException;

/**
 * The client of one memcached node, which reconnects only when asked ({@link #reconnect}) and only
 * once the server answers: xmemcached's own reconnect loop logs every failed attempt
 * at ERROR with a stack trace, noise for an outage its breaker already reported in one line. A
 * lost connection is replaced by a new client; a server that was hung keeps its connection.
 */
final class NodeClient implements Store {
  private final String name;
  private final InetSocketAddress address;
  private final MemcachedStore.Settings settings;
  private final int probeMillis;
  private final LongAdder retiredRoundTrips = new LongAdder();
  /** Null until the server first accepted a connection. */
  private volatile MemcachedStore client;

  private NodeClient(String name, InetSocketAddress address, MemcachedStore.Settings settings) {
    this.name = name;
    this.address = address;
    this.settings = settings;
    this.probeMillis = (int) Math.max(1, settings.opTimeout().toMillis());
  }

  /** Connects now when the server accepts connections; otherwise {@link #connected()} is false. */
  static NodeClient connect(String name, InetSocketAddress address, MemcachedStore.Settings settings) {
    NodeClient node = new NodeClient(name, address, settings);
    if (RawCommands.accepts(address, (int) Math.max(1, settings.connectTimeout().toMillis()))) {
      node.client = MemcachedStore.withoutReconnecting(settings);
    }
    return node;
  }

  boolean connected() {
    MemcachedStore c = client;
    return c != null && c.serverStats().get(0).up();
  }

  /**
   * True when the node answers through a client: the current one (a hung server that resumed),
   * or a new one when the old lost its connection and the server accepts connections again.
   */
  boolean reconnect() {
    MemcachedStore old = client;
    if (old != null && old.serverStats().get(0).up()) {
      return true;
    }
    if (!RawCommands.answers(address, probeMillis)) {
      return false; // down, or still hung: keep the old client and its connection
    }
    MemcachedStore fresh = MemcachedStore.withoutReconnecting(settings);
    if (!fresh.serverStats().get(0).up()) {
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

  @Override
  public List<ServerStats> serverStats() {
    MemcachedStore c = client;
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
