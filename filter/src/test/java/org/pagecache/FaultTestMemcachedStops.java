package org.pagecache;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.pagecache.testing.Eventually;
import org.pagecache.testing.MemcachedExtension;

/**
 * Fault: the only memcached server is killed in the middle of a load run and started again. The
 * site must keep answering from its handlers (no 5xx, no failed request) and go back to serving
 * hits by itself once memcached is back. Throughput during the outage is the benchmark's business
 * (BENCHMARKS.md), not this test's.
 */
class FaultTestMemcachedStops {
  @RegisterExtension
  static MemcachedExtension memcached = MemcachedExtension.nodes(1);

  private static final int PAGES = 20;
  /** xmemcached reconnects about 1 s after a failure, the breaker probes every retry.interval (1 s). */
  private static final Duration RESUMES_WITHIN = Duration.ofSeconds(10);

  @RegisterExtension
  final FaultSite sites = new FaultSite();

  @Test
  void memcachedStoppedMidLoadCausesNo5xxAndHitsResumeWhenItReturns() {
    SiteServlets.Handler handler = SiteServlets.page();
    CachedSite site = sites.on(memcached.servers()).handler("page", handler, "/page/*").start();
    List<String> paths = FaultSite.pages(PAGES);

    try (SiteLoad load = SiteLoad.start(site, 4, paths, Duration.ofSeconds(40))) {
      Eventually.assertWithin(Duration.ofSeconds(5), "hits before the outage", () -> load.tally().hits() >= 100);

      memcached.node(0).stop();
      int callsAtStop = handler.calls.get();
      Eventually.assertWithin(Duration.ofSeconds(5), "handlers answer while memcached is down",
          () -> handler.calls.get() >= callsAtStop + 100);

      long hitsBeforeRestart = load.tally().hits();
      memcached.node(0).start();
      long restarted = System.nanoTime();
      Eventually.assertWithin(RESUMES_WITHIN, "hits resume after memcached returns",
          () -> load.tally().hits() >= hitsBeforeRestart + 100);
      System.out.printf("FaultTestMemcachedStops: hits resumed %d ms after memcached was back; handler calls during"
          + " the outage and until then: %d%n", (System.nanoTime() - restarted) / 1_000_000, handler.calls.get() - callsAtStop);

      SiteLoad.Tally tally = load.stop();
      System.out.println("FaultTestMemcachedStops: " + tally);
      FaultSite.assertEveryRequestAnswered(tally);
    }
  }
}
