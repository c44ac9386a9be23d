package org.pagecache;

import org.pagecache.stats.TagInvalidation;
import org.pagecache.stats.Refresh;
import org.pagecache.stats.Eviction;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.pagecache.SiteUnderTest.Backend;
import org.pagecache.SiteUnderTest.Response;
import org.pagecache.stats.ClusterStatus;
import org.pagecache.metrics.PageCacheMetrics;
import org.pagecache.testing.Eventually;
import org.pagecache.testing.MemcachedExtension;
import org.pagecache.testing.MutableClock;

/**
 * Two data centres, each with its own memcached cluster and its own PageCache (issue 19): a
 * refresh, tag invalidation or eviction made in one is in force in the other, at once when the
 * other answers, and once it is back when it does not (a hung node: SIGSTOP; a dead one: killed).
 */
class SeveralClustersTest {
  @RegisterExtension
  static MemcachedExtension east = MemcachedExtension.nodes(1);
  @RegisterExtension
  static MemcachedExtension west = MemcachedExtension.nodes(1);
  @RegisterExtension
  final SiteUnderTest.Sites sites = new SiteUnderTest.Sites(east);

  private static final AtomicInteger NAMESPACES = new AtomicInteger();
  /** Long enough for a loaded 2-core machine, short enough that a hung remote costs little. */
  private static final String OP_TIMEOUT = "500ms";
  private static final Duration DELIVERY_BOUND = Duration.ofSeconds(20);

  private final MutableClock clock = new MutableClock();
  /** One namespace per test, the same in both clusters: the same application in two data centres. */
  private final String namespace = "mc" + NAMESPACES.incrementAndGet() + "x" + ProcessHandle.current().pid() % 1000;

  /** The site of one data centre: its own cluster, the other one as remote, no near cache (it has its own test). */
  private SiteUnderTest site(MemcachedExtension here, String remote) {
    return sites.on(Backend.MEMCACHED).cluster(here).clock(clock)
        .set("namespace", namespace)
        .set("near.trust", "0s")
        .set("memcached.op.timeout", OP_TIMEOUT)
        .set("retry.interval", "200ms")
        .set("memcached.remote", remote)
        .handler("page", SiteServlets.of((req, res, call) -> {
          PageCache.tag(req, "article:" + req.getRequestURI().substring("/page/".length()));
          res.setContentType("text/html;charset=UTF-8");
          PrintWriter w = res.getWriter();
          w.print("<p>" + req.getRequestURI() + " call " + call + "</p>");
        }), "/page/*");
  }

  private SiteUnderTest eastSite() {
    return site(east, "west=" + west.servers()).start();
  }

  private SiteUnderTest westSite() {
    return site(west, "east=" + east.servers()).start();
  }

  private String westToken(SiteUnderTest site) {
    return west.text(0).get(site.cache.config().namespace().token("page"));
  }

  private static void assertRebuiltAfterInvalidation(SiteUnderTest site, String path, int callsBefore) {
    Response r = site.get(path);
    assertEquals("MISS", r.xcache(), r.toString());
    assertEquals(callsBefore + 1, site.calls("page"), "rebuilt once, as after a refresh made here");
  }

  @Test
  void aRefreshInOneClusterIsInForceInTheOther() {
    SiteUnderTest eastSite = eastSite();
    SiteUnderTest westSite = westSite();
    westSite.get("/page/a");
    assertEquals("HIT", westSite.get("/page/a").xcache());

    Refresh refresh = eastSite.cache.refreshHandler("page");

    assertEquals(List.of("local", "west"), refresh.clusters().delivered());
    assertTrue(refresh.clusters().complete(), refresh.toString());
    assertTrue(Long.parseLong(westToken(eastSite)) >= refresh.token(), "west's token is the same or newer");
    Response after = westSite.get("/page/a");
    assertEquals("MISS", after.xcache(), after.toString());
    assertTrue(after.header("Cache-Status").contains("fwd=stale"), "the page was there, condemned: " + after);
    assertEquals(2, westSite.calls("page"));
  }

  @Test
  void aTagInvalidationAndAnEvictionReachTheOtherCluster() {
    SiteUnderTest eastSite = eastSite();
    SiteUnderTest westSite = westSite();
    westSite.get("/page/tagged");
    westSite.get("/page/evicted");
    assertEquals("HIT", westSite.get("/page/tagged").xcache());
    assertEquals("HIT", westSite.get("/page/evicted").xcache());

    TagInvalidation invalidation = eastSite.cache.invalidateTag("article:tagged");
    assertEquals(List.of("local", "west"), invalidation.clusters().delivered());
    clock.advance(Duration.ofSeconds(2)); // west's JVM re-reads a tag's version after tag.cache (1s), as for its own JVMs
    assertRebuiltAfterInvalidation(westSite, "/page/tagged", 2);

    Eviction eviction = eastSite.cache.evict("http://localhost/page/evicted");
    assertEquals(List.of("local", "west"), eviction.clusters().delivered());
    Response evicted = westSite.get("/page/evicted");
    assertEquals("MISS", evicted.xcache());
    assertTrue(evicted.header("Cache-Status").contains("fwd=uri-miss"), "gone from west: " + evicted);
    assertEquals(4, westSite.calls("page"));
  }

  @Test
  void anEvictionReachesTheSignedInGroupsPagesInTheOtherCluster() {
    SiteUnderTest eastSite = site(east, "west=" + west.servers()).before(SignedInWithoutSessionSpec.ssoHeader())
        .set("policies", "page: signed-in=shared").start();
    SiteUnderTest westSite = site(west, "east=" + east.servers()).before(SignedInWithoutSessionSpec.ssoHeader())
        .set("policies", "page: signed-in=shared").start();
    westSite.get("/page/edited", "X-Sso-User", "margaret");
    westSite.get("/page/other", "X-Sso-User", "margaret");
    assertEquals("HIT", westSite.get("/page/edited", "X-Sso-User", "margaret").xcache());

    Eviction eviction = eastSite.cache.evict("http://localhost/page/edited");
    assertEquals(List.of("local", "west"), eviction.clusters().delivered());
    Response evicted = westSite.get("/page/edited", "X-Sso-User", "margaret");
    assertEquals("MISS", evicted.xcache(), "the signed-in visitors' page is gone from west too: " + evicted);
    assertEquals(3, westSite.calls("page"));
    assertEquals("HIT", westSite.get("/page/other", "X-Sso-User", "margaret").xcache());
  }

  @Test
  void aHungClusterGetsTheRefreshOnceItAnswersAgain() {
    SiteUnderTest eastSite = eastSite();
    SiteUnderTest westSite = westSite();
    westSite.get("/page/h");

    west.node(0).pause();
    Refresh refresh;
    try {
      refresh = eastSite.cache.refreshHandler("page");
      assertEquals(List.of("local"), refresh.clusters().delivered());
      assertEquals(List.of("west"), refresh.clusters().pending());
      ClusterStatus.Remote waiting = eastSite.cache.clusterStatus().remotes().get(0);
      assertEquals(1, waiting.pending(), waiting.toString());
      assertTrue(!waiting.reachable(), waiting.toString());
      // A second refresh while it is hung queues behind the first, without trying: one entry per key.
      assertEquals(List.of("west"), eastSite.cache.refreshHandler("page").clusters().pending());
      assertEquals(1, eastSite.cache.clusterStatus().remotes().get(0).pending());
    } finally {
      west.node(0).resume();
    }

    Eventually.assertWithin(DELIVERY_BOUND, "the backlog delivered after SIGCONT",
        () -> eastSite.cache.clusterStatus().remotes().get(0).pending() == 0);
    assertTrue(Long.parseLong(westToken(eastSite)) > refresh.token(), "the second, later token arrived");
    assertTrue(eastSite.cache.clusterStatus().remotes().get(0).reachable());
    assertRebuiltAfterInvalidation(westSite, "/page/h", 1);
  }

  @Test
  void theMetricsShowEachClustersBacklog() {
    SiteUnderTest eastSite = eastSite();
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    new PageCacheMetrics(eastSite.cache).bindTo(registry);
    west.node(0).pause();
    try {
      eastSite.cache.invalidateTag("metered");
      assertEquals(1, registry.get("pagecache.cluster.backlog").tag("cluster", "west").gauge().value());
      clock.advance(Duration.ofSeconds(7));
      assertEquals(7, registry.get("pagecache.cluster.backlog.oldest").tag("cluster", "west").gauge().value(),
          "the oldest one's age, in seconds");
      assertEquals(0, registry.get("pagecache.cluster.reachable").tag("cluster", "west").gauge().value());
    } finally {
      west.node(0).resume();
    }
    Eventually.assertWithin(DELIVERY_BOUND, "delivered after SIGCONT",
        () -> registry.get("pagecache.cluster.delivered").tag("cluster", "west").functionCounter().count() == 1);
    assertEquals(0, registry.get("pagecache.cluster.backlog").tag("cluster", "west").gauge().value());
    assertEquals(0, registry.get("pagecache.cluster.backlog.oldest").tag("cluster", "west").gauge().value());
  }

  @Test
  void everyFrontendOfAClusterShowsItsBacklogAndAnyOfThemDeliversIt() {
    SiteUnderTest eastOne = eastSite();
    SiteUnderTest eastTwo = eastSite();
    west.node(0).pause();
    try {
      assertEquals(List.of("west"), eastOne.cache.refreshHandler("page").clusters().pending());
      Eventually.assertWithin(DELIVERY_BOUND, "the other east frontend reads the shared backlog",
          () -> eastTwo.cache.clusterStatus().remotes().get(0).pending() == 1);
      eastOne.close(); // gone before west answers again
    } finally {
      west.node(0).resume();
    }
    Eventually.assertWithin(DELIVERY_BOUND, "delivered by the other east frontend",
        () -> westToken(eastTwo) != null && eastTwo.cache.clusterStatus().remotes().get(0).pending() == 0);
    assertEquals(1, eastTwo.cache.clusterStatus().remotes().get(0).delivered());
  }

  @Test
  void aKilledClusterGetsTheRefreshAfterItsRestart() {
    SiteUnderTest eastSite = eastSite();
    west.node(0).stop();
    Refresh refresh;
    try {
      refresh = eastSite.cache.refreshHandler("page");
      assertEquals(List.of("west"), refresh.clusters().pending());
    } finally {
      west.node(0).start();
    }
    Eventually.assertWithin(DELIVERY_BOUND, "the backlog delivered after the restart",
        () -> westToken(eastSite) != null);
    assertEquals(refresh.token(), Long.parseLong(westToken(eastSite)), "the originating token (west had none)");
    Eventually.assertWithin(DELIVERY_BOUND, "the backlog emptied",
        () -> eastSite.cache.clusterStatus().remotes().get(0).pending() == 0);
  }

  @Test
  void aFullBacklogEmptiesTheOtherClusterOnceItAnswers() {
    SiteUnderTest eastSite = site(east, "west=" + west.servers()).set("memcached.remote.backlog", "2").start();
    SiteUnderTest westSite = westSite();
    westSite.get("/page/kept-too-long");
    assertEquals("HIT", westSite.get("/page/kept-too-long").xcache());
    west.node(0).pause();
    try {
      assertEquals(List.of("west"), eastSite.cache.invalidateTag("a").clusters().pending());
      assertEquals(List.of("west"), eastSite.cache.invalidateTag("b").clusters().pending());
      TagInvalidation third = eastSite.cache.invalidateTag("c");
      assertEquals(List.of("west"), third.clusters().pending(), "covered by the emptying: " + third);
      ClusterStatus.Remote w = eastSite.cache.clusterStatus().remotes().get(0);
      assertEquals(1, w.pending(), "one emptying in place of the invalidations: " + w);
      assertEquals(1, w.overflows(), w.toString());
      assertTrue(w.lost() >= 3, "not delivered one by one: " + w);
    } finally {
      west.node(0).resume();
    }
    Eventually.assertWithin(DELIVERY_BOUND, "the emptying delivered",
        () -> eastSite.cache.clusterStatus().remotes().get(0).pending() == 0);
    assertNull(west.text(0).get(eastSite.cache.config().namespace().tag("a")), "emptied: no tag delivered one by one");
    Response after = westSite.get("/page/kept-too-long");
    assertEquals("MISS", after.xcache(), "west serves nothing the lost invalidations covered: " + after);
  }
}
