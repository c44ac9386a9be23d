package org.pagecache.examples;

import java.io.PrintStream;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.pagecache.counters.CountSink;
import org.pagecache.counters.CountSource;
import org.pagecache.counters.Counters;
import org.pagecache.counters.CountersSettings;
import org.pagecache.store.Namespace;
import org.pagecache.store.MemcachedStore;

/**
 * The counters on their own, without page caching: two "frontends" (two Counters on two
 * connections to the same memcached) count views of one article at once. memcached keeps the
 * live count, which starts from the database's (the {@link CountSource}); the views reach the
 * database summed, once per flush interval (the {@link CountSink}), not once per view. Then three
 * visits by two visitors make an online count of 2.
 *
 * <pre>
 *   database: article:42 has 1000 views
 *   8 threads on 2 frontends counted 1000 views; live count 2000
 *   database: article:42 has 2000 views, written in 2 flushes
 *   online after alice, bob, alice: 2
 * </pre>
 */
public final class CountersExample {
  static final String ARTICLE = "article:42";

  private CountersExample() {}

  /** What the example saw. */
  public record Result(long liveCount, long databaseCount, int flushes, long online) {}

  public static void main(String[] args) throws Exception {
    run(args.length > 0 ? args[0] : "127.0.0.1:11211", 1000, System.out);
  }

  public static Result run(String memcachedServers, int views, PrintStream out) throws Exception {
    // The "database": the durable views column, and how many times it was written.
    Map<String, Long> database = new ConcurrentHashMap<>(Map.of(ARTICLE, 1000L));
    int[] flushes = {0};
    CountSource source = key -> database.getOrDefault(key, 0L);
    CountSink sink = increments -> {
      synchronized (flushes) {
        increments.forEach((key, n) -> database.merge(key, n, Long::sum));
        flushes[0]++;
      }
    };
    // One-second online buckets over a 2 s window, read fresh: the example needs no minute-long wait.
    CountersSettings settings = CountersSettings.parse("flush-interval=1m, window=2s, buckets=3, online-cache-for=0s");
    Namespace namespace = new Namespace(Namespaces.fresh("count"));
    out.println("database: " + ARTICLE + " has " + database.get(ARTICLE) + " views");

    try (MemcachedStore storeA = new MemcachedStore(MemcachedStore.Settings.defaults(memcachedServers));
        MemcachedStore storeB = new MemcachedStore(MemcachedStore.Settings.defaults(memcachedServers))) {
      Counters frontendA = Counters.builder(storeA, namespace).settings(settings).source(source).sink(sink).build();
      Counters frontendB = Counters.builder(storeB, namespace).settings(settings).source(source).sink(sink).build();
      ExecutorService threads = Executors.newFixedThreadPool(8);
      for (int i = 0; i < views; i++) {
        Counters frontend = i % 2 == 0 ? frontendA : frontendB;
        threads.execute(() -> frontend.viewed(ARTICLE));
      }
      threads.shutdown();
      if (!threads.awaitTermination(60, TimeUnit.SECONDS)) {
        throw new IllegalStateException("counting did not finish in 60 s");
      }
      long live = frontendA.views(ARTICLE);
      out.println("8 threads on 2 frontends counted " + views + " views; live count " + live);

      frontendA.close(); // a normal shutdown flushes what is not in the database yet
      frontendB.close();
      out.println("database: " + ARTICLE + " has " + database.get(ARTICLE) + " views, written in " + flushes[0] + " flushes");

      Counters visitors = Counters.builder(storeA, namespace).settings(settings).build();
      visitors.visit("alice");
      visitors.visit("bob");
      visitors.visit("alice");
      long online = awaitOnline(visitors, 2, Duration.ofSeconds(5));
      out.println("online after alice, bob, alice: " + online);
      visitors.close();
      return new Result(live, database.get(ARTICLE), flushes[0], online);
    }
  }

  /** A visitor shows once the bucket they were counted in is complete (here within a second). */
  private static long awaitOnline(Counters counters, long expected, Duration atMost) throws InterruptedException {
    long deadline = System.nanoTime() + atMost.toNanos();
    long online = counters.online();
    while (online < expected && System.nanoTime() < deadline) {
      Thread.sleep(100);
      online = counters.online();
    }
    return online;
  }
}
