package org.pagecache;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.pagecache.testing.MemcachedExtension;

/**
 * Fault: memcached is full. With {@code -m 2} (the least memcached 1.6 accepts with its default
 * 1 MB item limit: {@code -m 1} refuses to start, "Cannot set item size limit higher than 1/2 of
 * memory max") and 16 KB pages that do not compress, a few dozen pages fit; the test writes
 * hundreds. memcached evicts, and the site must not notice beyond a lower hit ratio: every answer a
 * 200. The hit ratio under skewed popularity goes to the log, not into an assertion.
 */
class FaultTestMemcachedFull {
  @RegisterExtension
  static MemcachedExtension memcached = MemcachedExtension.nodes(1).memoryMb(2);

  private static final int PAGES = 400;
  private static final int PAGE_BYTES = 16 * 1024;

  @RegisterExtension
  final FaultSite sites = new FaultSite();

  private CachedSite site;

  @Test
  void aFullMemcachedEvictsAndEveryRequestIsStillAnswered() {
    SiteServlets.Handler handler = SiteServlets.of((req, res, call) -> {
      // Random bytes (seeded by the path): gzip cannot shrink them, so each entry really takes 16 KB.
      byte[] body = new byte[PAGE_BYTES];
      new Random(req.getRequestURI().hashCode()).nextBytes(body);
      res.setContentType("application/octet-stream");
      res.getOutputStream().write(body);
    });
    site = sites.on(memcached.servers()).handler("page", handler, "/page/*").start();
    long evictionsBefore = memcached.text(0).statLong("evictions");

    SiteLoad.Tally fill = runOnce(FaultSite.pages(PAGES));

    // Skewed popularity (page = PAGES * u^3): a few pages are hot, as on a real site.
    Random random = new Random(7);
    List<String> skewed = new ArrayList<>();
    for (int i = 0; i < 2000; i++) {
      double u = random.nextDouble();
      skewed.add("/page/" + (int) (PAGES * u * u * u));
    }
    SiteLoad.Tally skewedRun = runOnce(skewed);

    long evictions = memcached.text(0).statLong("evictions") - evictionsBefore;
    System.out.printf("FaultTestMemcachedFull: -m 2, %d pages of %d KB: %d evictions; skewed run hit ratio %.1f %%"
        + " (%s); fill run: %s%n", PAGES, PAGE_BYTES / 1024, evictions,
        100.0 * skewedRun.hits() / skewedRun.requests(), skewedRun, fill);
    assertTrue(evictions > 0, "memcached evicted (the test really filled it): " + evictions);
    FaultSite.assertEveryRequestAnswered(fill, skewedRun);
  }

  /** Every path once, by four clients. */
  private SiteLoad.Tally runOnce(List<String> paths) {
    try (SiteLoad load = SiteLoad.once(site, 4, paths)) {
      return load.awaitDone(Duration.ofSeconds(30));
    }
  }
}
