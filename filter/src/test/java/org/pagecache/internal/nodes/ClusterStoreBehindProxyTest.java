package org.pagecache.internal.nodes;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.pagecache.store.Namespace;
import org.pagecache.store.ServerList;
import org.pagecache.store.StoreException;
import org.pagecache.testing.MemcachedExtension;
import org.pagecache.testing.MutableClock;
import org.pagecache.testing.NutcrackerExtension;

/**
 * The cluster store in front of a real twemproxy that keeps a dead server in its ring
 * ({@code auto_eject_hosts: false}), so it answers "SERVER_ERROR" for that server's keys: an
 * error the proxy answers is the call's, not an outage of the proxy, unless
 * {@code memcached.proxy=off} says the server is memcached itself.
 */
class ClusterStoreBehindProxyTest {
  @RegisterExtension
  static NutcrackerExtension proxy = NutcrackerExtension.inFrontOf(2).withoutEjecting();

  private final Namespace ns = new Namespace("x" + UUID.randomUUID().toString().substring(0, 8));
  private ClusterStore store;

  @AfterEach
  void close() {
    if (store != null) {
      store.close();
    }
  }

  private ClusterStore behindProxy(ClusterStore.ProxyMode mode) {
    store = ClusterStore.connect(new ClusterStore.Settings(ServerList.parse("memcached.servers", proxy.server()),
        null, Duration.ofSeconds(10), Map.of(), Map.of(), "", false, Duration.ofSeconds(1),
        MemcachedExtension.TEST_OP_TIMEOUT, 1, ns, new MutableClock(), Duration.ofSeconds(1), mode));
    return store;
  }

  /** A page key the proxy placed on server {@code server} (written through the store, found on the server). */
  private String keyOn(int server, String prefix) {
    for (int i = 0; i < 1000; i++) {
      String key = ns.page("h", prefix + i);
      store.set(key, bytes("v"), 60);
      if (proxy.memcached().text(server).getBytes(key) != null) {
        return key;
      }
    }
    throw new AssertionError("no key on server " + server);
  }

  @Test
  void twemproxyIsRecognisedAndItsErrorAnswersDoNotTakeItOut() {
    behindProxy(ClusterStore.ProxyMode.AUTO);
    assertTrue(store.isProxy(0), "twemproxy refuses stats: recognised as a proxy");
    String onDead = keyOn(1, "/dead/");
    String onLive = keyOn(0, "/live/");
    proxy.memcached().node(1).stop();

    for (int i = 0; i < 2 * NodeHealth.OPENS_AFTER; i++) {
      assertThrows(StoreException.class, () -> store.get(onDead), "the proxy answers SERVER_ERROR for the dead server");
    }
    assertFalse(store.nodeStates().get(0).down(), "the proxy is not taken out: " + store.nodeStates());
    assertArrayEquals(bytes("v"), store.get(onLive), "keys on the live server are still served");
    assertTrue(store.serverStats().get(0).up(), "stats report the proxy up without asking it for stats");
  }

  @Test
  void withProxyOffTheSameErrorsTakeTheServerOut() {
    behindProxy(ClusterStore.ProxyMode.OFF);
    assertFalse(store.isProxy(0));
    String onDead = keyOn(1, "/dead/");
    String onLive = keyOn(0, "/live/");
    proxy.memcached().node(1).stop();

    for (int i = 0; i < NodeHealth.OPENS_AFTER; i++) {
      assertThrows(StoreException.class, () -> store.get(onDead));
    }
    assertTrue(store.nodeStates().get(0).down(), "taken for memcached, its errors are outages: " + store.nodeStates());
    assertThrows(StoreException.class, () -> store.get(onLive), "so every key fails until it is back");
  }

  @Test
  void plainMemcachedIsNotTakenForAProxyUnlessSaid() {
    ServerList memcached = ServerList.parse("memcached.servers", proxy.memcached().node(0).address());
    store = ClusterStore.connect(new ClusterStore.Settings(memcached, null, Duration.ofSeconds(10), false,
        Duration.ofSeconds(1), MemcachedExtension.TEST_OP_TIMEOUT, 1, ns, new MutableClock(), Duration.ofSeconds(1)));
    assertFalse(store.isProxy(0), "memcached answers stats");
    store.close();
    store = ClusterStore.connect(new ClusterStore.Settings(memcached, null, Duration.ofSeconds(10), Map.of(), Map.of(),
        "", false, Duration.ofSeconds(1), MemcachedExtension.TEST_OP_TIMEOUT, 1, ns, new MutableClock(),
        Duration.ofSeconds(1), ClusterStore.ProxyMode.ON));
    assertTrue(store.isProxy(0), "memcached.proxy=on says so");
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }
}
