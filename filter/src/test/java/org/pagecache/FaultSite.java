package org.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The setup the fault tests ({@code FaultTest*}) share: a {@link CachedSite} with production's
 * memcached op timeout (200 ms, not the tests' generous 2 s: how long a failing call may take is
 * part of what they test), closed after each test; the pages they load; and the verdict every one of
 * them asserts on its load, "every request answered: a 200, no 5xx, no failed request".
 *
 * <pre>{@code
 * @RegisterExtension static MemcachedExtension memcached = MemcachedExtension.nodes(1);
 * @RegisterExtension final FaultSite sites = new FaultSite();
 *
 * CachedSite site = sites.on(memcached.servers()).handler("page", handler, "/page/*").start();
 * try (SiteLoad load = SiteLoad.start(site, 4, FaultSite.pages(20), Duration.ofSeconds(30))) {
 *   ... break memcached ...
 *   FaultSite.assertEveryRequestAnswered(load.stop());
 * }
 * }</pre>
 */
final class FaultSite implements AfterEachCallback {
  /** memcached.op.timeout in production (the default). */
  static final Duration PRODUCTION_OP_TIMEOUT = Duration.ofMillis(200);

  private final List<CachedSite> sites = new ArrayList<>();

  /** A site (not started) on these memcached servers, with production's op timeout; closed after the test. */
  CachedSite on(String servers) {
    CachedSite site = new CachedSite(servers).set("memcached.op.timeout", PRODUCTION_OP_TIMEOUT.toMillis() + "ms");
    sites.add(site);
    return site;
  }

  /** {@code /page/0} to {@code /page/<count - 1>}. */
  static List<String> pages(int count) {
    return IntStream.range(0, count).mapToObj(i -> "/page/" + i).toList();
  }

  /** Every request of each tally answered with a 200: none failed outright, none got a 5xx. */
  static void assertEveryRequestAnswered(SiteLoad.Tally... tallies) {
    for (SiteLoad.Tally t : tallies) {
      assertEquals(0, t.serverErrors(), "no 5xx: " + t);
      assertEquals(0, t.failures(), "no failed request: " + t);
      assertEquals(t.requests(), t.status(200), "every answer a 200: " + t);
    }
  }

  /** How many answers of the tally carried this X-Cache label. */
  static long label(SiteLoad.Tally t, String label) {
    return t.labels().getOrDefault(label, 0L);
  }

  @Override
  public void afterEach(ExtensionContext context) {
    sites.forEach(CachedSite::close);
    sites.clear();
  }
}
