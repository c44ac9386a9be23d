package org.pagecache.counters;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.pagecache.store.MemcachedStore;
import org.pagecache.store.Namespace;
import org.pagecache.store.Store;
import org.pagecache.testing.MemcachedExtension;
import org.pagecache.testing.MutableClock;

/**
 * View counters with two data centres (issue 19, docs/counters.md): each counts its visitors' views
 * in its own memcached cluster, the one database (CountSink) gets every view exactly once, and a
 * reader in each data centre sees the database's count at load plus that data centre's views,
 * until the counter is reloaded from the database.
 */
class CountersAcrossClustersTest {
  @RegisterExtension
  static MemcachedExtension east = MemcachedExtension.nodes(1);
  @RegisterExtension
  static MemcachedExtension west = MemcachedExtension.nodes(1);

  private static final Namespace NAMESPACE = new Namespace("cx" + ProcessHandle.current().pid() % 1000);
  private static final String ARTICLE = "article:7";

  /** The one database both data centres write their counts to. */
  private final Map<String, Long> database = new ConcurrentHashMap<>(Map.of(ARTICLE, 100L));
  private final MutableClock clock = new MutableClock();

  private Counters counters(Store store) {
    return Counters.builder(store, NAMESPACE).clock(clock)
        .settings(CountersSettings.builder().localAggregation(Duration.ZERO).flushInterval(Duration.ofHours(1)).build())
        .source(key -> database.getOrDefault(key, 0L))
        .sink(increments -> increments.forEach((key, n) -> database.merge(key, n, Long::sum)))
        .build();
  }

  private static Store store(MemcachedExtension cluster) {
    return new MemcachedStore(new MemcachedStore.Settings(cluster.servers(), false, Duration.ofSeconds(1),
        MemcachedExtension.TEST_OP_TIMEOUT, 1));
  }

  @Test
  void eachDataCentreCountsItsOwnViewsAndTheDatabaseGetsEveryViewOnce() {
    try (Store eastStore = store(east); Store westStore = store(west);
        Counters eastCounters = counters(eastStore); Counters westCounters = counters(westStore)) {
      for (int i = 0; i < 3; i++) {
        eastCounters.viewed(ARTICLE);
      }
      for (int i = 0; i < 2; i++) {
        westCounters.viewed(ARTICLE);
      }

      assertEquals(103, eastCounters.views(ARTICLE), "east: the database's 100 and east's 3 views");
      assertEquals(102, westCounters.views(ARTICLE), "west: the database's 100 and west's 2 views");

      assertTrue(eastCounters.flushNow());
      assertTrue(westCounters.flushNow());
      assertTrue(eastCounters.flushNow());
      assertEquals(105L, database.get(ARTICLE), "every view once, whichever data centre counted it");

      // The counter expires (counters ttl) or is evicted in east: it is loaded again from the database.
      east.text(0).delete(NAMESPACE.views(ARTICLE));
      assertEquals(105, eastCounters.views(ARTICLE), "after its reload, east sees west's views too");
      assertEquals(102, westCounters.views(ARTICLE), "west still shows its own until its counter is reloaded");
    }
  }
}
