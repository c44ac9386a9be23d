package org.pagecache.internal.nodes;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.pagecache.internal.freshness.TagVersions;
import org.pagecache.internal.freshness.UpdateTokens;
import org.pagecache.store.Namespace;
import org.pagecache.store.ServerList;
import org.pagecache.store.StoreException;
import org.pagecache.testing.MemcachedExtension;
import org.pagecache.testing.MutableClock;

/**
 * One node of three hangs (SIGSTOP) or dies: the others keep serving their keys in one round trip,
 * control data (tokens, tag versions) is written to the nodes that are up and applies at once, a
 * returning node is emptied before use, and with a gutter the failed node's pages and locks live
 * there briefly. Nodes 0..2 are the cluster, node 3 the gutter. The breaker's retry waits on a
 * test clock, so a node stays down until the test moves it.
 */
class ClusterStoreTest {
  @RegisterExtension
  static MemcachedExtension memcached = MemcachedExtension.nodes(4);

  private static final Duration OP_TIMEOUT = Duration.ofMillis(200);
  private static final int HUNG = 1;
  private static final int GUTTER = 3;

  private final MutableClock clock = new MutableClock();
  /** Each test its own namespace, so data left by another test never meets this one's. */
  private final Namespace ns = new Namespace("t" + UUID.randomUUID().toString().substring(0, 8));
  private ClusterStore store;

  @AfterEach
  void close() {
    memcached.node(HUNG).resume();
    if (store != null) {
      store.close();
    }
  }

  private ClusterStore cluster(boolean withGutter) {
    String main = memcached.node(0).address() + "," + memcached.node(1).address() + "," + memcached.node(2).address();
    ServerList gutter = withGutter ? ServerList.parse("memcached.gutter", memcached.node(GUTTER).address()) : null;
    store = ClusterStore.connect(new ClusterStore.Settings(ServerList.parse("memcached.servers", main), gutter,
        Duration.ofSeconds(3), false, Duration.ofSeconds(1), OP_TIMEOUT, 1, ns, clock, Duration.ofSeconds(1)));
    return store;
  }

  /** A page key of the handler whose owner is node {@code node}. */
  private String pageOn(ClusterStore s, int node) {
    for (int i = 0; i < 10_000; i++) {
      String key = ns.page("h", "/page/" + i);
      if (s.nodeOf(key) == node) {
        return key;
      }
    }
    throw new AssertionError("no page key on node " + node);
  }

  /** Fails calls on the hung node until its breaker opens. */
  private void hang(ClusterStore s, String keyOnHungNode) {
    memcached.node(HUNG).pause();
    for (int i = 0; i < NodeHealth.OPENS_AFTER; i++) {
      assertThrows(StoreException.class, () -> s.get(keyOnHungNode));
    }
    assertTrue(s.nodeStates().get(HUNG).down(), "node 1 down after " + NodeHealth.OPENS_AFTER + " timeouts");
  }

  private static byte[] bytes(String s) {
    return s.getBytes(US_ASCII);
  }

  @Test
  void keysOnTheOtherNodesKeepTheirOneRoundTripWhileOneNodeHangs() {
    ClusterStore s = cluster(false);
    UpdateTokens tokens = new UpdateTokens(s, ns, clock);
    long token = tokens.refresh("h");
    String page0 = pageOn(s, 0);
    String page1 = pageOn(s, HUNG);
    String page2 = pageOn(s, 2);
    List.of(page0, page1, page2).forEach(k -> s.set(k, bytes(k), 0));
    hang(s, page1);

    for (String page : List.of(page0, page2)) {
      long before = s.roundTrips();
      Map<String, byte[]> got = s.getMulti(List.of(tokens.key("h"), page));
      assertEquals(1, s.roundTrips() - before, "the token and the page in one round trip");
      assertArrayEquals(bytes(page), got.get(page));
      assertEquals(token, Long.parseLong(new String(got.get(tokens.key("h")), US_ASCII)));
    }
    // Without a gutter only the hung node's keys fail, at once (no op timeout: its breaker is open).
    long before = s.roundTrips();
    assertThrows(StoreException.class, () -> s.getMulti(List.of(tokens.key("h"), page1)));
    assertEquals(0, s.roundTrips() - before, "the hung node is skipped, not waited for");
    assertFalse(s.nodeStates().get(0).down() || s.nodeStates().get(2).down());
  }

  @Test
  void aRefreshAndATagInvalidationDuringAHangApplyAtOnceAndOutliveTheNodesReturn() {
    ClusterStore s = cluster(false);
    UpdateTokens tokens = new UpdateTokens(s, ns, clock);
    TagVersions tags = new TagVersions(s, ns, clock, 0);
    long oldToken = tokens.refresh("h");
    long oldTag = tags.invalidate("article:1");
    String page1 = pageOn(s, HUNG);
    s.set(page1, bytes("built before the refresh"), 0);
    hang(s, page1);

    clock.advance(Duration.ofMillis(5));
    long newToken = tokens.refresh("h");
    long newTag = tags.invalidate("article:1");

    assertTrue(newToken > oldToken && newTag > oldTag);
    // Another JVM (no memory of tokens or tags) reads them from a node that stayed up.
    for (int node : List.of(0, 2)) {
      String page = pageOn(s, node);
      Map<String, byte[]> got = s.getMulti(List.of(tokens.key("h"), page));
      assertEquals(newToken, Long.parseLong(new String(got.get(tokens.key("h")), US_ASCII)), "token on node " + node);
    }
    assertEquals(newTag, new TagVersions(s, ns, clock, 0).current(List.of("article:1")).get("article:1"));

    memcached.node(HUNG).resume();
    assertEquals(String.valueOf(oldToken), memcached.text(HUNG).get(tokens.key("h")), "node 1 kept its old token");
    clock.advance(Duration.ofSeconds(2)); // the breaker's retry time: the next call brings node 1 back
    byte[] page = s.get(page1);

    assertNull(page, "the page built before the refresh is gone from the returning node");
    assertFalse(s.nodeStates().get(HUNG).down());
    assertEquals(1, memcached.text(HUNG).statLong("cmd_flush"), "node 1 emptied once, before its first use");
    // A JVM that never saw the refresh reads the token with node 1's pages: node 1 lacks it, so
    // it comes from the others (and is put back on node 1).
    UpdateTokens other = new UpdateTokens(s, ns, clock);
    Map<String, byte[]> got = s.getMulti(List.of(tokens.key("h"), page1));
    assertNull(got.get(page1));
    assertEquals(newToken, other.effective("h", got.get(tokens.key("h"))));
    assertEquals(String.valueOf(newToken), memcached.text(HUNG).get(tokens.key("h")), "read repair");
    assertEquals(newTag, new TagVersions(s, ns, clock, 0).current(List.of("article:1")).get("article:1"));
  }

  @Test
  void anEvictDuringAHangSucceedsAndThePageDoesNotComeBack() {
    ClusterStore s = cluster(false);
    String page1 = pageOn(s, HUNG);
    s.set(page1, bytes("evict me"), 0);
    hang(s, page1);

    s.delete(page1); // no exception: the node is emptied before it is used again

    memcached.node(HUNG).resume();
    clock.advance(Duration.ofSeconds(2));
    assertNull(s.get(page1));
  }

  @Test
  void aFailedNodesPagesAndLocksLiveInTheGutterForGutterTtlAtMost() {
    ClusterStore s = cluster(true);
    String page1 = pageOn(s, HUNG);
    String lock1 = lockOn(s, HUNG);
    hang(s, page1);
    // Another JVM, started during the hang: it finds node 1 not answering.
    ClusterStore other = ClusterStore.connect(new ClusterStore.Settings(ServerList.parse("memcached.servers",
        memcached.node(0).address() + "," + memcached.node(1).address() + "," + memcached.node(2).address()),
        ServerList.parse("memcached.gutter", memcached.node(GUTTER).address()), Duration.ofSeconds(3), false,
        Duration.ofSeconds(1), OP_TIMEOUT, 1, ns, clock, Duration.ofSeconds(1)));
    try {
      assertTrue(other.nodeStates().get(HUNG).down(), "down from the start: " + other.nodeStates());

      assertNull(s.get(page1), "a miss in the gutter, not a failure");
      assertTrue(s.set(page1, bytes("built during the hang"), 600));
      assertTrue(s.add(lock1, bytes("this JVM"), 10), "the rebuild lock, taken in the gutter");
      assertFalse(other.add(lock1, bytes("the other JVM"), 10), "one builder across JVMs");

      assertArrayEquals(bytes("built during the hang"), other.get(page1), "the other JVM reads it there too");
      assertArrayEquals(bytes("built during the hang"), memcached.text(GUTTER).getBytes(page1));
      long ttl = memcached.text(GUTTER).secondsToLive(page1);
      assertTrue(ttl > 0 && ttl <= 3, "gutter.ttl caps the page's 600 s: " + ttl);
      // Counters do not move to the gutter: a count kept there would be lost after gutter.ttl.
      String counter = counterOn(s, HUNG);
      assertThrows(StoreException.class, () -> s.incr(counter, 1, 1, 0));
    } finally {
      other.close();
    }
  }

  /** A rebuild lock key whose owner is node {@code node}. */
  private String lockOn(ClusterStore s, int node) {
    for (int i = 0; i < 10_000; i++) {
      String key = ns.lock(ns.page("h", "/locked/" + i));
      if (s.nodeOf(key) == node) {
        return key;
      }
    }
    throw new AssertionError("no lock key on node " + node);
  }

  @Test
  void aDeadNodesKeysAreNotRehashedOntoTheOthers() {
    ClusterStore s = cluster(false);
    String page1 = pageOn(s, HUNG);
    memcached.node(HUNG).stop();
    try {
      for (int i = 0; i < NodeHealth.OPENS_AFTER; i++) {
        assertThrows(StoreException.class, () -> s.set(page1, bytes("x"), 0));
      }
      assertThrows(StoreException.class, () -> s.set(page1, bytes("x"), 0));
      assertNull(memcached.text(0).getBytes(page1));
      assertNull(memcached.text(2).getBytes(page1));
    } finally {
      memcached.node(HUNG).start();
    }
  }

  private String counterOn(ClusterStore s, int node) {
    for (int i = 0; i < 10_000; i++) {
      String key = ns.views("article:" + i);
      if (s.nodeOf(key) == node) {
        return key;
      }
    }
    throw new AssertionError("no counter key on node " + node);
  }
}
