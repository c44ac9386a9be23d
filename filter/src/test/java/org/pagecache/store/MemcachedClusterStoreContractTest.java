package org.pagecache.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.pagecache.testing.MemcachedExtension;

/**
 * The contract on a cluster of three real memcached servers, Ketama-hashed with weights 1, 1, 2
 * keys of one multi-get live on different servers.
 */
class MemcachedClusterStoreContractTest extends AbstractMemcachedStoreContractTest {
  @RegisterExtension
  static final MemcachedExtension memcached = MemcachedExtension.nodes(3);

  @Override
  protected MemcachedExtension memcached() {
    return memcached;
  }

  @Override
  protected MemcachedStore.Settings settings() {
    return new MemcachedStore.Settings(memcached.weightedServers(1, 1, 2), false, Duration.ofSeconds(1),
        MemcachedExtension.TEST_OP_TIMEOUT, 1);
  }

  /** Several servers: the add, then the reads (the key added and those read may live apart). */
  @Override
  protected int addThenGetRoundTrips() {
    return 2;
  }

  @Test
  void fiftyKeysOfOneGetMultiLiveOnEveryServer() {
    List<String> keys = fiftyKeys();
    keys.forEach(k -> store.set(k, bytes(k), 0));
    long before = store.roundTrips();

    assertEquals(50, store.getMulti(keys).size());

    assertEquals(1, store.roundTrips() - before);
    int[] held = new int[memcached.size()];
    for (String k : keys) {
      for (int i = 0; i < held.length; i++) {
        held[i] += memcached.text(i).getBytes(k) == null ? 0 : 1;
      }
    }
    assertEquals(50, Arrays.stream(held).sum(), "each key on exactly one server: " + Arrays.toString(held));
    assertTrue(Arrays.stream(held).allMatch(n -> n > 0), "keys per server: " + Arrays.toString(held));
  }

  @Test
  void theServerWithWeightTwoHoldsTheMostKeys() {
    long[] before = currItems();
    for (int i = 0; i < 1000; i++) {
      store.set(key("weighted-" + i), bytes("v"), 0);
    }
    long[] after = currItems();

    long[] added = new long[after.length];
    Arrays.setAll(added, i -> after[i] - before[i]);
    assertEquals(1000, Arrays.stream(added).sum());
    // About 250/250/500; Ketama's ring is uneven, so only the clear signal is asserted.
    assertTrue(added[2] > 400 && added[2] > added[0] && added[2] > added[1],
        "keys per server (weights 1,1,2): " + Arrays.toString(added));
  }

  private long[] currItems() {
    long[] items = new long[memcached.size()];
    Arrays.setAll(items, i -> memcached.text(i).statLong("curr_items"));
    return items;
  }
}
