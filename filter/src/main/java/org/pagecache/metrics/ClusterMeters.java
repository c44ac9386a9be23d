package org.pagecache.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.function.ToDoubleFunction;
import org.pagecache.PageCache;
import org.pagecache.stats.ClusterStatus;

/**
 * The meters of the other memcached clusters (issue 19), tagged {@code cluster=<name>}:
 * {@code pagecache.cluster.backlog} (gauge: invalidations waiting for it in this cluster's
 * memcached, the same on every frontend: issue 37), {@code pagecache.cluster.backlog.oldest}
 * (gauge: seconds the oldest has waited), {@code pagecache.cluster.reachable} (gauge, 0 or 1),
 * {@code pagecache.cluster.delivered}, {@code pagecache.cluster.lost} and
 * {@code pagecache.cluster.overflows} (counters; an overflow empties that cluster); and, while warming,
 * {@code pagecache.warmup.pages} tagged {@code result=copied|built|refused}.
 */
final class ClusterMeters {
  private ClusterMeters() {}

  static void bind(MeterRegistry registry, PageCache cache) {
    ClusterStatus status = cache.clusterStatus();
    for (ClusterStatus.Remote r : status.remotes()) {
      String name = r.name();
      gauge(registry, cache, "pagecache.cluster.backlog", name, x -> x.pending(),
          "invalidations waiting for a cluster that did not answer, in this cluster's memcached (every frontend)");
      gauge(registry, cache, "pagecache.cluster.backlog.oldest", name, x -> x.oldestPendingMillis() / 1000.0,
          "seconds the oldest invalidation waiting for the cluster has waited; 0 when none waits");
      gauge(registry, cache, "pagecache.cluster.reachable", name, x -> x.reachable() ? 1 : 0,
          "0 while the cluster does not answer");
      counter(registry, cache, "pagecache.cluster.delivered", name, x -> x.delivered(),
          "invalidations delivered to the cluster");
      counter(registry, cache, "pagecache.cluster.lost", name, x -> x.lost(),
          "invalidations not delivered one by one: an overflowing backlog (the cluster is emptied instead), or none");
      counter(registry, cache, "pagecache.cluster.overflows", name, x -> x.overflows(),
          "times this JVM found the backlog overflowing or lost: the cluster is emptied when it answers");
    }
    if (status.warmUp() != null) {
      warmUp(registry, cache, "copied", ClusterStatus.WarmUpProgress::copied);
      warmUp(registry, cache, "built", ClusterStatus.WarmUpProgress::built);
      warmUp(registry, cache, "refused", ClusterStatus.WarmUpProgress::refused);
    }
  }

  private static ClusterStatus.Remote remote(PageCache cache, String name) {
    return cache.clusterStatus().remotes().stream().filter(r -> r.name().equals(name)).findFirst().orElseThrow();
  }

  private static void gauge(MeterRegistry registry, PageCache cache, String meter, String name,
      ToDoubleFunction<ClusterStatus.Remote> value, String description) {
    Gauge.builder(meter, cache, c -> value.applyAsDouble(remote(c, name)))
        .tags("cache.manager", "pagecache", "cluster", name)
        .description(description)
        .register(registry);
  }

  private static void counter(MeterRegistry registry, PageCache cache, String meter, String name,
      ToDoubleFunction<ClusterStatus.Remote> value, String description) {
    FunctionCounter.builder(meter, cache, c -> value.applyAsDouble(remote(c, name)))
        .tags("cache.manager", "pagecache", "cluster", name)
        .description(description)
        .register(registry);
  }

  private static void warmUp(MeterRegistry registry, PageCache cache, String result,
      ToDoubleFunction<ClusterStatus.WarmUpProgress> value) {
    FunctionCounter.builder("pagecache.warmup.pages", cache, c -> value.applyAsDouble(c.clusterStatus().warmUp()))
        .tags("cache.manager", "pagecache", "result", result)
        .description("missing pages during the warm-up: copied from the warm cluster, built here, or copies refused")
        .register(registry);
  }
}
