package org.pagecache.bench;

import static org.pagecache.bench.Table.num;
import static org.pagecache.bench.Table.percent;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.pagecache.store.Namespace;
import org.pagecache.internal.key.PageKey;
import org.pagecache.store.MemcachedStore;
import org.pagecache.store.Store;

/**
 * Scale-out with {@link MemcachedStore} (Ketama): how page keys spread over three memcached nodes
 * by weight, and how many move when a fourth node is added. Measured on the real servers: keys are
 * written through the store and counted with each node's {@code curr_items}; a key has "moved"
 * when the four-node store no longer finds it where the three-node store put it.
 */
final class ScaleOutScenario {
  static final int KEYS = 30_000;
  private static final int FIRST_NODE = 1; // nodes 1 to 4; node 0 belongs to the load scenarios
  private static final byte[] VALUE = "0123456789".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

  private final BenchMemcached memcached;

  ScaleOutScenario(BenchMemcached memcached) {
    this.memcached = memcached;
  }

  MacroBench.Section run() {
    MacroBench.progress("scale-out: key distribution over 3 nodes and movement to a 4th");
    List<String> summary = new ArrayList<>();
    Table distribution = new Table("weights", "node", "keys", "share", "expected", "deviation from expected");
    for (int[] weights : List.of(new int[] {1, 1, 1}, new int[] {1, 1, 2})) {
      long[] counts = write(keys("w" + join(weights, "")), weights);
      int total = Arrays.stream(weights).sum();
      double worst = 0;
      for (int i = 0; i < weights.length; i++) {
        double share = counts[i] / (double) KEYS;
        double expected = weights[i] / (double) total;
        worst = Math.max(worst, Math.abs(share / expected - 1));
        distribution.row(join(weights, ","), "node " + (i + 1), counts[i], percent(share, 1), percent(expected, 1),
            (share >= expected ? "+" : "") + percent(share / expected - 1, 1));
      }
      summary.add("distribution " + join(weights, ",") + ": " + Arrays.toString(counts)
          + " worst deviation " + percent(worst, 1));
    }

    List<String> keys = keys("move");
    write(keys, new int[] {1, 1, 1});
    Movement m = addFourthNode(keys);
    Table movement = new Table("keys", "still found with 4 nodes", "moved", "share moved", "expected",
        "moved keys that went to the new node");
    movement.row(KEYS, KEYS - m.moved(), m.moved(), percent(m.moved() / (double) KEYS, 1), "25.0 %",
        m.toNewNode() + " of " + m.moved());
    summary.add("adding a 4th node (1,1,1 -> 1,1,1,1): " + m.moved() + " of " + KEYS + " keys moved ("
        + percent(m.moved() / (double) KEYS, 1) + "), " + m.toNewNode() + " of them to the new node");

    String markdown = KEYS + " page keys (`Namespace.page` of `/article/<i>`), written through `MemcachedStore`"
        + " (Ketama, xmemcached) to memcached nodes on loopback, counted with each node's `curr_items`."
        + " Ketama places each server on its ring by hashing its address, and the nodes here listen on ports picked"
        + " at random for each run, so the shares, and how far they are from even, change from run to run.\n\n"
        + distribution + "\nAdding a fourth node (weights 1,1,1 then 1,1,1,1): every key is read back through a store"
        + " that knows four nodes; a key it no longer finds has moved. The missing keys are then written through it,"
        + " and the new node's `curr_items` says where they went.\n\n" + movement;
    return new MacroBench.Section("scaleout", markdown, summary);
  }

  private record Movement(long moved, long toNewNode) {}

  private Movement addFourthNode(List<String> keys) {
    try (Store four = new MemcachedStore(MemcachedStore.Settings.defaults(servers(new int[] {1, 1, 1, 1})))) {
      List<String> missing = new ArrayList<>();
      for (int from = 0; from < keys.size(); from += 500) {
        List<String> batch = keys.subList(from, Math.min(keys.size(), from + 500));
        var found = four.getMulti(batch);
        batch.stream().filter(k -> !found.containsKey(k)).forEach(missing::add);
      }
      long before = memcached.stat(FIRST_NODE + 3, "curr_items");
      missing.forEach(k -> four.set(k, VALUE, 3600));
      return new Movement(missing.size(), memcached.stat(FIRST_NODE + 3, "curr_items") - before);
    }
  }

  /** Writes the keys through a store over the first {@code weights.length} nodes; returns each node's new items. */
  private long[] write(List<String> keys, int[] weights) {
    long[] before = new long[weights.length];
    for (int i = 0; i < weights.length; i++) {
      before[i] = memcached.stat(FIRST_NODE + i, "curr_items");
    }
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try (Store store = new MemcachedStore(MemcachedStore.Settings.defaults(servers(weights)))) {
      List<Future<?>> parts = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        int part = t;
        parts.add(pool.submit(() -> {
          for (int k = part; k < keys.size(); k += 4) {
            store.set(keys.get(k), VALUE, 3600);
          }
        }));
      }
      for (Future<?> f : parts) {
        f.get();
      }
    } catch (Exception e) {
      throw new IllegalStateException("writing keys with weights " + join(weights, ",") + " failed", e);
    } finally {
      pool.shutdown();
    }
    long[] counts = new long[weights.length];
    for (int i = 0; i < weights.length; i++) {
      counts[i] = memcached.stat(FIRST_NODE + i, "curr_items") - before[i];
    }
    return counts;
  }

  private String servers(int[] weights) {
    return IntStream.range(0, weights.length)
        .mapToObj(i -> memcached.node(FIRST_NODE + i).address() + ":" + weights[i])
        .collect(Collectors.joining(","));
  }

  private static List<String> keys(String namespace) {
    Namespace ns = new Namespace(namespace);
    List<String> keys = new ArrayList<>(KEYS);
    for (int i = 0; i < KEYS; i++) {
      keys.add(ns.page("article", PageKey.canonical("https", "www.example.com", 443, "/article/" + i, null, List.of())));
    }
    return keys;
  }

  private static String join(int[] values, String separator) {
    return Arrays.stream(values).mapToObj(Integer::toString).collect(Collectors.joining(separator));
  }
}
