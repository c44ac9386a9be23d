package org.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.pagecache.testing.DelayingProxy;
import org.pagecache.testing.Eventually;
import org.pagecache.testing.MemcachedExtension;

/**
 * Fault: memcached answers, but later than the op timeout (a proxy holds every reply 500 ms; the
 * op timeout is 200 ms). Every request must still get its 200 in about handler time plus one op
 * timeout: the probe that times out opens the circuit and the others skip memcached. The bound
 * asserted is deliberately generous (3 s): this is not a timing test, it catches a request that
 * waits on memcached once per call, or forever.
 */
class FaultTestSlowMemcached {
  @RegisterExtension
  static MemcachedExtension memcached = MemcachedExtension.nodes(1);

  private static final int PAGES = 10;
  private static final Duration REPLY_DELAY = Duration.ofMillis(500);
  private static final long BOUND_MILLIS = 3000;

  private CachedSite site;

  @AfterEach
  void stop() {
    if (site != null) {
      site.close();
    }
  }

  @Test
  void memcachedSlowerThanTheOpTimeoutStillLetsEveryRequestAnswerInTime() {
    try (DelayingProxy proxy = DelayingProxy.start(memcached.node(0).socketAddress())) {
      SiteServlets.Handler handler = SiteServlets.of((req, res, call) -> {
        sleep(20); // a handler with a cost of its own
        res.setContentType("text/html;charset=UTF-8");
        res.getWriter().print("<p>page " + req.getRequestURI() + " call " + call + "</p>");
      });
      site = new CachedSite(proxy.address()).set("memcached.op.timeout", "200ms")
          .handler("page", handler, "/page/*").start();
      List<String> paths = IntStream.range(0, PAGES).mapToObj(i -> "/page/" + i).toList();
      paths.forEach(site::get);
      assertEquals("HIT", site.get("/page/0").headers().firstValue("X-Cache").orElse(null), "cached while fast");

      proxy.delayReplies(REPLY_DELAY);
      SiteLoad.Tally slow;
      try (SiteLoad load = SiteLoad.start(site, 4, paths, Duration.ofSeconds(20))) {
        Eventually.assertWithin(Duration.ofSeconds(15), "200 requests answered while memcached is slow",
            () -> load.tally().requests() >= 200);
        slow = load.stop();
      }
      System.out.println("FaultTestSlowMemcached: replies delayed " + REPLY_DELAY.toMillis() + " ms, op timeout 200 ms: " + slow);
      assertEquals(0, slow.failures(), "no failed request: " + slow);
      assertEquals(slow.requests(), slow.status(200), "every answer a 200: " + slow);
      assertTrue(slow.slowestMillis() < BOUND_MILLIS, "every request answered within " + BOUND_MILLIS
          + " ms (handler 20 ms + op timeout 200 ms + a generous margin): " + slow);

      proxy.delayReplies(Duration.ZERO);
      Eventually.assertWithin(Duration.ofSeconds(10), "hits once memcached is fast again",
          () -> "HIT".equals(site.get("/page/1").headers().firstValue("X-Cache").orElse(null)));
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
