package org.pagecache.testing;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The harness itself: other modules rely on what it promises. */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class MemcachedExtensionTest {
  @RegisterExtension
  static final MemcachedExtension memcached = MemcachedExtension.nodes(2).memoryMb(8);

  @Test
  void nodesListenOnTheirOwnPortsWithTheMemoryAsked() {
    assertEquals(memcached.node(0).address() + "," + memcached.node(1).address(), memcached.servers());
    assertEquals(memcached.node(0).address() + ":1," + memcached.node(1).address() + ":3",
        memcached.weightedServers(1, 3));
    assertEquals(8L * 1024 * 1024, memcached.text(0).statLong("limit_maxbytes"));
    assertTrue(memcached.text(1).version().startsWith("1."));
  }

  @Test
  void textClientStoresAndReadsExactBytes() {
    MemcachedText text = memcached.text(0);
    byte[] value = {0, '\r', '\n', 'E', 'N', 'D', (byte) 0xff};

    text.setRaw("harness:bytes", value, 42, 0);

    assertArrayEquals(value, text.getBytes("harness:bytes"));
    assertEquals(new String(value, ISO_8859_1), text.get("harness:bytes"));
    assertTrue(text.delete("harness:bytes"));
    assertFalse(text.delete("harness:bytes"));
    assertNull(text.get("harness:bytes"));
  }

  @Test
  @Order(1)
  void aStoppedNodeRefusesConnectionsAndRestartsEmptyOnTheSamePort() {
    MemcachedExtension.Node node = memcached.node(1);
    int port = node.port();
    node.text().setRaw("harness:lost", new byte[] {1}, 0, 0);

    node.stop();
    assertFalse(node.isRunning());
    assertThrows(UncheckedIOException.class, () -> node.text().version());

    node.start();
    assertEquals(port, node.port());
    assertNull(node.text().get("harness:lost"));
  }

  @Test
  @Order(2)
  void leavesNodeZeroStoppedForTheNextTest() {
    memcached.node(0).stop();

    assertFalse(memcached.node(0).isRunning());
  }

  @Test
  @Order(3)
  void everyTestStartsWithAllNodesRunning() {
    assertTrue(memcached.node(0).isRunning());
    assertTrue(memcached.text(0).version().startsWith("1."));
  }

  @Test
  void aPausedNodeHoldsConnectionsButDoesNotAnswerUntilResumed() {
    MemcachedExtension.Node node = memcached.node(0);

    node.pause();
    Instant start = Instant.now();
    assertThrows(UncheckedIOException.class, () -> node.text().version(), "answers while paused");
    assertTrue(Duration.between(start, Instant.now()).toMillis() >= 1000, "timed out, not refused");
    node.resume();

    assertTrue(node.text().version().startsWith("1."));
    assertTrue(ProcessHandle.of(node.pid()).orElseThrow().isAlive());
  }

  @Test
  void clearEmptiesEveryNodeWithoutFlushAll() {
    memcached.text(0).setRaw("harness:a", new byte[] {1}, 0, 0);
    memcached.text(1).setRaw("harness:b", new byte[] {1}, 0, 0);

    memcached.clear();

    assertNull(memcached.text(0).get("harness:a"));
    assertNull(memcached.text(1).get("harness:b"));
    assertEquals(0, memcached.text(0).statLong("cmd_flush"));
    assertEquals(0, memcached.text(1).statLong("cmd_flush"));
  }

  @Test
  void freePortIsNotListenedOn() {
    int port = MemcachedExtension.freePort();

    assertThrows(UncheckedIOException.class, () -> new MemcachedText("127.0.0.1", port).version());
  }
}
