package org.pagecache.store;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.pagecache.store.MemcachedStore.Settings;
import org.pagecache.testing.Eventually;
import org.pagecache.testing.MemcachedExtension;

/**
 * What {@link MemcachedStore} does when memcached crashes, hangs or is not there yet, with real
 * processes killed and frozen. Callers fail open on {@link StoreException}, so what matters is
 * that every failure is one, that it names its cause (the op timeout, a server that is not there),
 * and that the store recovers by itself. Nothing here measures elapsed time: a call that hung
 * instead of failing never returns, and the class's {@code @Timeout} (a hang guard, far above any
 * op or connect timeout) fails the test.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class MemcachedStoreFailureTest {
  @RegisterExtension
  static final MemcachedExtension single = MemcachedExtension.nodes(1);

  @RegisterExtension
  static final MemcachedExtension cluster = MemcachedExtension.nodes(3);

  /** xmemcached retries after 1 s, 2 s, 3 s...: a short outage heals in a few seconds. */
  private static final Duration RECONNECTS_WITHIN = Duration.ofSeconds(15);

  @Test
  void everyOperationFailsFastWithAStoreExceptionWhileTheOnlyServerIsDown() {
    try (Store store = new MemcachedStore(Settings.defaults(single.servers()))) {
      store.set("k", bytes("v"), 0);

      single.node(0).stop();

      operations().forEach((name, operation) -> {
        StoreException e = assertFailsFast(store, operation);
        assertTrue(e.getMessage().contains(store.describe()), name + ": " + e.getMessage());
        assertTrue(e.getMessage().contains(name), name + ": " + e.getMessage());
      });
    }
  }

  @Test
  void aRestartedServerIsUsedAgainWithoutRebuildingTheStore() {
    try (Store store = new MemcachedStore(Settings.defaults(single.servers()))) {
      single.node(0).stop();
      assertFailsFast(store, s -> s.get("k"));

      single.node(0).start();

      Eventually.assertWithin(RECONNECTS_WITHIN, "store reconnected", () -> works(store));
      assertTrue(store.set("k", bytes("back"), 0));
      assertArrayEquals(bytes("back"), store.get("k"));
    }
  }

  @Test
  void aStoreBuiltAgainstAPortNobodyListensOnStartsAndThenFails() {
    int deadPort = MemcachedExtension.freePort();

    try (Store store = new MemcachedStore(Settings.defaults("127.0.0.1:" + deadPort))) {
      assertEquals("memcached[127.0.0.1:" + deadPort + "]", store.describe());

      operations().values().forEach(operation -> assertFailsFast(store, operation));
      List<Store.ServerStats> stats = store.serverStats();
      assertEquals(1, stats.size());
      assertFalse(stats.get(0).up());
      assertTrue(stats.get(0).stats().isEmpty());
    }
  }

  /** A black-holed address: the TCP handshake never completes, so build() waits connectTimeout. */
  @Test
  void aStoreBuiltAgainstAServerThatNeverAcceptsReturnsAfterTheConnectTimeout() throws IOException {
    try (ServerSocket silent = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      List<Socket> backlog = fillBacklog(silent);

      try (Store store = new MemcachedStore(Settings.defaults("127.0.0.1:" + silent.getLocalPort()))) {
        assertFailsFast(store, s -> s.get("k"));
      } finally {
        for (Socket socket : backlog) {
          socket.close();
        }
      }
    }
  }

  @Test
  void aStoreBuiltBeforeMemcachedStartsConnectsOnceItIsUp() {
    single.node(0).stop();

    try (Store store = new MemcachedStore(Settings.defaults(single.servers()))) {
      assertFailsFast(store, s -> s.get("k"));

      single.node(0).start();

      Eventually.assertWithin(RECONNECTS_WITHIN, "store connected", () -> works(store));
    }
  }

  @Test
  void aHungServerTimesOutInsteadOfBlockingAndAnswersCorrectlyAfterwards() {
    try (Store store = new MemcachedStore(Settings.defaults(single.servers()))) {
      store.set("a", bytes("a1"), 0);

      single.node(0).pause();
      StoreException e = assertFailsFast(store, s -> s.get("a"));
      assertTrue(e.getMessage().contains("timed out after 200 ms"), e.getMessage());
      assertFailsFast(store, s -> s.set("b", bytes("b-while-hung"), 0));
      single.node(0).resume();

      // The connection survived: replies of timed-out commands must not be taken for later ones.
      Eventually.assertWithin(RECONNECTS_WITHIN, "store answers", () -> works(store));
      store.set("a", bytes("a2"), 0);
      store.set("c", bytes("c1"), 0);
      assertArrayEquals(bytes("a2"), store.get("a"));
      assertArrayEquals(bytes("c1"), store.get("c"));
      // The timed-out set had been sent, and memcached ran it when it woke up: a StoreException
      // on a write does not mean the write did not happen (think of an add used as a lock).
      assertArrayEquals(bytes("b-while-hung"), store.get("b"));
    }
  }

  @Test
  void serverStatsReportsAStoppedServerDownAndTheOthersUp() {
    try (Store store = new MemcachedStore(Settings.defaults(cluster.servers()))) {
      cluster.node(1).stop();

      Eventually.assertWithin(RECONNECTS_WITHIN, "node 1 reported down",
          () -> upByAddress(store).equals(expectedUp(1)));

      cluster.node(1).start();
      Eventually.assertWithin(RECONNECTS_WITHIN, "node 1 reported up again",
          () -> upByAddress(store).equals(expectedUp(-1)));
    }
  }

  /**
   * With the tests' generous op timeout (2 s), not the 200 ms default: the hung node is down because
   * its stats never come, and a healthy node's stats delayed by a loaded machine are not taken for
   * a hang (the default made this test fail under load). First every node is seen up, so a
   * connection still being set up is not mistaken for the hang either.
   */
  @Test
  void serverStatsReportsAHungServerDownWithoutFailing() {
    Settings settings = new Settings(cluster.servers(), false, Duration.ofSeconds(1), MemcachedExtension.TEST_OP_TIMEOUT, 1);
    try (Store store = new MemcachedStore(settings)) {
      Eventually.assertWithin(RECONNECTS_WITHIN, "every node up", () -> upByAddress(store).equals(expectedUp(-1)));
      cluster.node(2).pause();

      Map<String, Boolean> up = upByAddress(store);

      assertEquals(expectedUp(2), up);
      cluster.node(2).resume(); // else close() waits 5 s for the hung server's reply to "quit"
    }
  }

  /** failureMode=false: a dead server leaves the Ketama ring and its keys move to the others. */
  @Test
  void keysOfAStoppedServerMoveToTheOthers() {
    try (Store store = new MemcachedStore(Settings.defaults(cluster.servers()))) {
      List<String> keys = keys(30);

      cluster.node(0).stop();

      // Written and read back in one attempt: under load a write can still reach the dead server's
      // connection while xmemcached takes it off the ring, and that key is then missing once.
      Eventually.assertWithin(RECONNECTS_WITHIN, "every key written and read back on the two live servers", () -> {
        try {
          keys.forEach(k -> store.set(k, bytes(k), 0));
          return store.getMulti(keys).size() == keys.size();
        } catch (StoreException e) {
          return false;
        }
      });
    }
  }

  /** xmemcached's multi-get is all or nothing: one hung server fails it for every key. */
  @Test
  void aHungServerFailsTheWholeMultiGetButNotSingleKeysElsewhere() {
    try (Store store = new MemcachedStore(Settings.defaults(cluster.servers()))) {
      List<String> keys = keys(30);
      keys.forEach(k -> store.set(k, bytes(k), 0));
      String elsewhere = keys.stream().filter(k -> cluster.text(0).get(k) == null).findFirst().orElseThrow();

      cluster.node(0).pause();

      assertFailsFast(store, s -> s.getMulti(keys));
      assertArrayEquals(bytes(elsewhere), store.get(elsewhere));
      cluster.node(0).resume(); // else close() waits 5 s for the hung server's reply to "quit"
    }
  }

  private static Map<String, Consumer<Store>> operations() {
    Map<String, Consumer<Store>> operations = new LinkedHashMap<>();
    operations.put("get", s -> s.get("k"));
    operations.put("getMulti", s -> s.getMulti(List.of("k", "j")));
    operations.put("gets", s -> s.gets("k"));
    operations.put("set", s -> s.set("k", bytes("v"), 0));
    operations.put("add", s -> s.add("k", bytes("v"), 0));
    operations.put("cas", s -> s.cas("k", bytes("v"), 1, 0));
    operations.put("delete", s -> s.delete("k"));
    operations.put("incr", s -> s.incr("n", 1, 0, 0));
    operations.put("decr", s -> s.decr("n", 1, 0, 0));
    operations.put("touch", s -> s.touch("k", 10));
    return operations;
  }

  /**
   * The operation fails with a {@link StoreException} instead of hanging (a hang is caught by the
   * class's {@code @Timeout}) or throwing anything a caller would not catch.
   */
  private static StoreException assertFailsFast(Store store, Consumer<Store> operation) {
    return assertThrows(StoreException.class, () -> operation.accept(store));
  }

  /** Connections nobody accepts, until the kernel stops completing handshakes (Linux: backlog + 1). */
  private static List<Socket> fillBacklog(ServerSocket server) throws IOException {
    List<Socket> sockets = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      Socket socket = new Socket();
      sockets.add(socket);
      try {
        socket.connect(server.getLocalSocketAddress(), 200);
      } catch (SocketTimeoutException e) {
        break; // the queue is full: the next handshake will not complete either
      }
    }
    return sockets;
  }

  private static boolean works(Store store) {
    try {
      store.set("probe", bytes("p"), 0);
      return true;
    } catch (StoreException e) {
      return false;
    }
  }

  private static Map<String, Boolean> upByAddress(Store store) {
    Map<String, Boolean> up = new LinkedHashMap<>();
    store.serverStats().forEach(s -> up.put(s.address(), s.up()));
    return up;
  }

  /** Every cluster node up except {@code down} (-1 for none). */
  private static Map<String, Boolean> expectedUp(int down) {
    Map<String, Boolean> up = new LinkedHashMap<>();
    for (int i = 0; i < cluster.size(); i++) {
      up.put(cluster.node(i).address(), i != down);
    }
    return up;
  }

  private static List<String> keys(int count) {
    List<String> keys = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      keys.add("failure:" + i);
    }
    return keys;
  }

  private static byte[] bytes(String text) {
    return text.getBytes(US_ASCII);
  }
}
