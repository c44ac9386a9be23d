package org.pagecache.examples;

import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Map;
import org.pagecache.PageCacheConfig;
import org.pagecache.store.Store;

/**
 * A cluster of three memcached servers with weights: {@code memcached.servers=h:p1:1,h:p2:1,h:p3:2}.
 * Keys are spread with consistent (Ketama) hashing in proportion to the weights, so the third
 * server, twice the weight, holds about half of the pages. Caches 400 pages and counts where
 * they went.
 *
 * <pre>
 *   scripts/example.sh WeightedClusterExample 10.0.0.1:11211:1,10.0.0.2:11211:1,10.0.0.3:11211:2
 *
 *   memcached.servers = 127.0.0.1:40001:1,127.0.0.1:40002:1,127.0.0.1:40003:2
 *   cached 400 pages (400 MISS), then read them again (400 HIT)
 *   127.0.0.1:40001  weight 1  +103 items  26%
 *   127.0.0.1:40002  weight 1   +96 items  24%
 *   127.0.0.1:40003  weight 2  +201 items  50%
 * </pre>
 */
public final class WeightedClusterExample {
  private WeightedClusterExample() {}

  public static void main(String[] args) throws Exception {
    run(args.length > 0 ? args[0] : "127.0.0.1:11211:1,127.0.0.1:11212:1,127.0.0.1:11213:2", 400, System.out);
  }

  /** Caches {@code pages} pages, reads them again; returns the items each server gained, by address. */
  public static Map<String, Long> run(String weightedServers, int pages, PrintStream out) throws Exception {
    PageCacheConfig config = PageCacheConfig.builder()
        .set("memcached.servers", weightedServers)
        // generous: a busy laptop should show caching, not fail-open misses (the default is 200ms)
        .set("memcached.op.timeout", "1s")
        .set("namespace", Namespaces.fresh("ring"))
        .ignoreEnvironment()
        .build();
    try (ExampleServer server = new ExampleServer(config).servlet("page", new SlowServlet(0), "/page/*").start()) {
      Store store = server.pageCache().store();
      Map<String, Long> before = items(store);
      int misses = 0;
      int hits = 0;
      for (int i = 0; i < pages; i++) {
        misses += server.get("/page/" + i).xCache().equals("MISS") ? 1 : 0;
      }
      for (int i = 0; i < pages; i++) {
        hits += server.get("/page/" + i).xCache().equals("HIT") ? 1 : 0;
      }
      Map<String, Long> gained = new LinkedHashMap<>();
      items(store).forEach((address, n) -> gained.put(address, n - before.getOrDefault(address, 0L)));
      long total = gained.values().stream().mapToLong(Long::longValue).sum();

      out.println("memcached.servers = " + weightedServers);
      out.println("cached " + pages + " pages (" + misses + " MISS), then read them again (" + hits + " HIT)");
      Map<String, String> weights = weights(weightedServers);
      gained.forEach((address, n) -> out.printf("%-22s weight %-2s %+5d items %3d%%%n", address,
          weights.getOrDefault(address, "?"), n, total == 0 ? 0 : Math.round(100.0 * n / total)));
      return gained;
    }
  }

  /** Items per server, as each reports in {@code stats curr_items}. */
  private static Map<String, Long> items(Store store) {
    Map<String, Long> items = new LinkedHashMap<>();
    for (Store.ServerStats s : store.serverStats()) {
      items.put(s.address(), s.up() ? Long.parseLong(s.stats().getOrDefault("curr_items", "0").trim()) : 0L);
    }
    return items;
  }

  /** {@code h:p:w,...} → {@code h:p → w}. */
  private static Map<String, String> weights(String servers) {
    Map<String, String> weights = new LinkedHashMap<>();
    for (String server : servers.split(",")) {
      String[] parts = server.trim().split(":");
      weights.put(parts[0] + ":" + parts[1], parts.length > 2 ? parts[2] : "1");
    }
    return weights;
  }
}
