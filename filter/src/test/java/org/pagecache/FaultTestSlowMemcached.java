package org.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.pagecache.store.MemcachedStore;
import org.pagecache.testing.DelayingProxy;
import org.pagecache.testing.Eventually;
import org.pagecache.testing.MemcachedExtension;
import org.pagecache.testing.StoreCallsPerRequest;

/**
 * Fault: memcached answers, but later than the op timeout (a proxy holds every reply 1.5 s; the op
 * timeout is production's 200 ms). Every request must still get its 200 after paying the op
 * timeout at most once: the lookups that time out open the circuit and the others skip memcached.
 *
 * <p>Counted in round trips, not timed: every call that reaches memcached while the replies are
 * late times out, so "paid the op timeout twice" is "two failed store calls in one request". What
 * one request costs, from the code path (PageFlow.handle, GuardedStore):
 * <ul>
 *   <li>circuit closed: its lookup (one getMulti of token and page) times out, and the request
 *       bypasses to the handler. That is its only memcached call: a bypass takes no lock, stores
 *       nothing, and this handler declares no view counters.
 *   <li>circuit open (after {@code GuardedStore.OPENS_AFTER} = 3 failures in a row; with 4 clients,
 *       within the first round of timed-out lookups): no memcached call at all, just the handler.
 *   <li>the single probe per retry.interval (1 s): one timed-out call again, then the handler.
 * </ul>
 * A request that paid the op timeout on every one of its calls on any other path (a build is
 * lookup, lock with the second look, store, the unlock sent noreply; waiting for a builder is lookup,
 * lock and polls) has
 * two or more failed calls. And since the circuit opens, most requests reach memcached not at all.
 */
class FaultTestSlowMemcached {
  @RegisterExtension
  static MemcachedExtension memcached = MemcachedExtension.nodes(1);

  @RegisterExtension
  final FaultSite sites = new FaultSite();

  private static final int PAGES = 10;
  private static final Duration REPLY_DELAY = Duration.ofMillis(1500);

  @Test
  void memcachedSlowerThanTheOpTimeoutCostsEachRequestAtMostOneTimedOutCall() {
    try (DelayingProxy proxy = DelayingProxy.start(memcached.node(0).socketAddress())) {
      SiteServlets.Handler handler = SiteServlets.page();
      CachedSite site = sites.on(proxy.address());
      StoreCallsPerRequest calls = new StoreCallsPerRequest(new MemcachedStore(new MemcachedStore.Settings(
          proxy.address(), false, Duration.ofSeconds(1), FaultSite.PRODUCTION_OP_TIMEOUT, 1)));
      site.store(calls).with(ctx -> ctx.addEventListener(calls))
          .set("near.trust", "0s") // every request reaches memcached, not the JVM's copy of the page
          .handler("page", handler, "/page/*").start();
      List<String> paths = FaultSite.pages(PAGES);
      paths.forEach(site::get);
      assertEquals("HIT", site.get("/page/0").headers().firstValue("X-Cache").orElse(null), "cached while fast");

      proxy.delayReplies(REPLY_DELAY);
      calls.clear();
      SiteLoad.Tally slow;
      try (SiteLoad load = SiteLoad.start(site, 4, paths, Duration.ofSeconds(30))) {
        Eventually.assertWithin(Duration.ofSeconds(25), "200 requests answered while memcached is slow",
            () -> load.tally().requests() >= 200);
        slow = load.stop();
      }
      List<StoreCallsPerRequest.Request> requests = calls.requests();
      long timedOut = requests.stream().filter(r -> r.failed() > 0).count();
      long skipped = requests.stream().filter(r -> r.calls() == 0).count();
      int mostFailed = requests.stream().mapToInt(StoreCallsPerRequest.Request::failed).max().orElse(0);
      System.out.printf("FaultTestSlowMemcached: replies delayed %d ms, op timeout %d ms: %s; %d requests, %d of them"
          + " with a timed-out call, %d skipped memcached%n", REPLY_DELAY.toMillis(), FaultSite.PRODUCTION_OP_TIMEOUT.toMillis(),
          slow, requests.size(), timedOut, skipped);
      FaultSite.assertEveryRequestAnswered(slow);
      assertTrue(requests.size() >= 200, "every request counted: " + requests.size());
      assertTrue(mostFailed <= 1, "no request paid the op timeout twice: at most one timed-out call each; the most: "
          + mostFailed);
      assertTrue(timedOut > 0, "memcached was really slow: some calls timed out");
      assertTrue(skipped > requests.size() / 2, "the circuit opened: most requests skipped memcached; "
          + skipped + " of " + requests.size() + " did, " + timedOut + " paid the op timeout");

      proxy.delayReplies(Duration.ZERO);
      Eventually.assertWithin(Duration.ofSeconds(10), "hits once memcached is fast again",
          () -> "HIT".equals(site.get("/page/1").headers().firstValue("X-Cache").orElse(null)));
    }
  }
}
