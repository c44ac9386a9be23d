package org.pagecache.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.pagecache.testing.Eventually;
import org.pagecache.testing.MemcachedExtension;
import org.pagecache.testing.MemcachedText;

/**
 * The contract on real memcached, plus what only memcached can show: what the bytes look like
 * inside memcached, seen through a raw text-protocol client rather than the code under test.
 */
abstract class AbstractMemcachedStoreContractTest extends StoreContractTest {
  /** memcached's clock ticks once a second: an item may live up to about a second past its ttl. */
  private static final Duration EXPIRY_SLACK = Duration.ofSeconds(2);

  protected abstract MemcachedExtension memcached();

  protected abstract MemcachedStore.Settings settings();

  @Override
  protected Store newStore() {
    Store store = new MemcachedStore(settings());
    // Talk to every server once: xmemcached's shutdown() sometimes waits 5 s for "quit" replies
    // when a multi-server client is closed microseconds after it was built (seen in tests that
    // only check arguments). Any real use of the store avoids it.
    store.serverStats();
    return store;
  }

  @Override
  protected boolean letTtlPass(Duration ttl, BooleanSupplier expired) {
    return Eventually.within(ttl.plus(EXPIRY_SLACK), expired);
  }

  @Override
  protected int serverCount() {
    return memcached().size();
  }

  @Test
  void valuesAreStoredAsTheRawBytesWithFlagsZero() {
    byte[] value = {0, 1, 2, (byte) 0xff};

    store.set(key("raw"), value, 0);

    assertArrayEquals(value, holderOf(key("raw")).getBytes(key("raw")));
  }

  @Test
  void counterIsPlainDecimalAsciiInsideMemcached() {
    store.incr(key("views"), 1, 1234, 0);
    store.incr(key("views"), 1, 1234, 0);

    assertEquals("1235", holderOf(key("views")).get(key("views")).trim());
  }

  @Test
  void bytesPlantedByAnotherClientAreReturnedAsTheyAre() {
    // A serialized-and-compressed flag with bytes that are neither: a transcoder that tried to
    // decode them would throw and fail the whole multi-get.
    byte[] garbage = {(byte) 0xac, (byte) 0xed, 0, 5, 42};
    store.set(key("fine"), bytes("ok"), 0);
    memcachedNodeFor(key("garbage")).setRaw(key("garbage"), garbage, 3, 0);

    Map<String, byte[]> found = store.getMulti(List.of(key("fine"), key("garbage")));

    assertArrayEquals(garbage, found.get(key("garbage")));
    assertArrayEquals(bytes("ok"), found.get(key("fine")));
    assertArrayEquals(garbage, store.get(key("garbage")));
  }

  @Test
  void serverStatsNamesTheConfiguredServersInOrderWithTheirSlabs() {
    store.set(key("k"), bytes("v"), 0);
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < memcached().size(); i++) {
      expected.add(memcached().node(i).address());
    }

    List<Store.ServerStats> servers = store.serverStats();

    assertEquals(expected, servers.stream().map(Store.ServerStats::address).toList());
    servers.forEach(s -> assertTrue(s.slabs().containsKey("active_slabs"), s.address() + ": " + s.slabs()));
    assertEquals("memcached[" + String.join(",", expected) + "]", store.describe());
  }

  @Test
  void theStoreNeverFlushesMemcached() {
    store.set(key("k"), bytes("v"), 0);
    store.serverStats();
    store.close();

    for (int i = 0; i < memcached().size(); i++) {
      assertEquals(0, memcached().text(i).statLong("cmd_flush"), memcached().node(i).toString());
    }
  }

  /** The node holding {@code key}: set it through the store first, then ask every node. */
  protected MemcachedText holderOf(String key) {
    for (int i = 0; i < memcached().size(); i++) {
      if (memcached().text(i).getBytes(key) != null) {
        return memcached().text(i);
      }
    }
    throw new AssertionError(key + " is on no node");
  }

  /** The node the store hashes {@code key} to, found by storing a probe under it. */
  private MemcachedText memcachedNodeFor(String key) {
    store.set(key, bytes("probe"), 0);
    return holderOf(key);
  }
}
