package org.pagecache.store;

import com.google.code.yanf4j.core.Handler;
import com.google.code.yanf4j.core.impl.AbstractController;
import java.lang.reflect.Field;
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
 * xmemcached itself logs a stack trace on every reconnect attempt and on every connection a dying
 * server resets, which is noise during an outage: the latter is kept out ({@link QuietOutages});
 * applications can silence {@code net.rubyeye}, {@code com.google.code.yanf4j} and
 * {@code remoting} for the former and keep these lines.
 *
 * <p>Counts connections per server because xmemcached opens {@code poolSize} of them: the server
 * is gone when the last one closes and back when the first one opens.
 */
final class ConnectionLog implements MemcachedClientStateListener {
  private static final Logger LOG = LoggerFactory.getLogger(MemcachedStore.class);

  private final ServerList servers;
  /** False when the caller reconnects (and logs outages) itself: lost connections are then DEBUG. */
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
        LOG.debug("memcached {}: connection closed", name(address)); // its breaker logs the outage
      }
    }
  }

  /** Called once after start-up: servers that never answered are reported like lost ones. */
  void downAtStart(InetSocketAddress address) {
    lost.put(address, Boolean.TRUE);
    LOG.warn("memcached {} is down at start-up; reconnecting in the background", name(address));
  }

  /**
   * Called once the client's connector has started and before it connects to any server: every
   * session it makes from then on takes {@link QuietOutages} in front of xmemcached's handler. The
   * connector refuses {@code setHandler} once started and the builder has no hook before, so the
   * field is set directly; should a later xmemcached rename it, nothing changes but the log noise.
   */
  @Override
  public void onStarted(MemcachedClient client) {
    if (!(client.getConnector() instanceof AbstractController controller)) {
      return;
    }
    try {
      Field handler = AbstractController.class.getDeclaredField("handler");
      handler.setAccessible(true);
      Object inner = handler.get(controller);
      if (inner instanceof Handler h && !(inner instanceof QuietOutages)) {
        handler.set(controller, new QuietOutages(h));
      }
    } catch (ReflectiveOperationException | RuntimeException e) {
      LOG.debug("memcached: connection failures will be logged by xmemcached itself ({})", e.toString());
    }
  }

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
