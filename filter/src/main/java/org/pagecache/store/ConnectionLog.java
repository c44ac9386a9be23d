package org.pagecache.store;

import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import net.rubyeye.xmemcached.MemcachedClient;
import net.rubyeye.xmemcached.MemcachedClientStateListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One log line when a memcached server goes away and one when it comes back, for operators.
 * xmemcached itself logs a stack trace on every reconnect attempt, which is noise during an
 * outage; applications can silence {@code net.rubyeye}, {@code com.google.code.yanf4j} and
 * {@code remoting} and keep these lines.
 *
 * <p>Counts connections per server because xmemcached opens {@code poolSize} of them: the server
 * is gone when the last one closes and back when the first one opens.
 */
final class ConnectionLog implements MemcachedClientStateListener {
  private static final Logger LOG = LoggerFactory.getLogger(MemcachedStore.class);

  private final ServerList servers;
  /** False when the caller reconnects (and logs outages) itself: lost connections are then INFO. */
  private final boolean reconnecting;
  private final Map<InetSocketAddress, AtomicInteger> open = new ConcurrentHashMap<>();
  private final Map<InetSocketAddress, Boolean> lost = new ConcurrentHashMap<>();

  ConnectionLog(ServerList servers, boolean reconnecting) {
    this.servers = servers;
    this.reconnecting = reconnecting;
  }

  @Override
  public void onConnected(MemcachedClient client, InetSocketAddress address) {
    if (counter(address).incrementAndGet() == 1 && lost.remove(address) != null) {
      LOG.info("memcached {} is back", name(address));
    }
  }

  @Override
  public void onDisconnected(MemcachedClient client, InetSocketAddress address) {
    if (counter(address).decrementAndGet() == 0 && !client.isShutdown()) {
      lost.put(address, Boolean.TRUE);
      if (reconnecting) {
        LOG.warn("memcached {} went away; reconnecting in the background", name(address));
      } else {
        LOG.info("memcached {}: connection closed", name(address));
      }
    }
  }

  /** Called once after start-up: servers that never answered are reported like lost ones. */
  void downAtStart(InetSocketAddress address) {
    lost.put(address, Boolean.TRUE);
    LOG.warn("memcached {} is down at start-up; reconnecting in the background", name(address));
  }

  @Override
  public void onStarted(MemcachedClient client) {}

  @Override
  public void onShutDown(MemcachedClient client) {}

  @Override
  public void onException(MemcachedClient client, Throwable error) {}

  private AtomicInteger counter(InetSocketAddress address) {
    return open.computeIfAbsent(address, a -> new AtomicInteger());
  }

  /** The server as the operator configured it (xmemcached reports resolved addresses). */
  private String name(InetSocketAddress address) {
    int i = servers.addresses().indexOf(address);
    return i >= 0 ? servers.hostPort(i) : address.getHostString() + ":" + address.getPort();
  }
}
