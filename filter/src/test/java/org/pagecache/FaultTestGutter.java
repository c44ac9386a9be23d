package org.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.pagecache.FaultSite.label;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.pagecache.internal.nodes.ClusterStore;
import org.pagecache.testing.Eventually;
import org.pagecache.testing.MemcachedExtension;

/**
 * Fault: one node of three hangs (SIGSTOP), with and without a gutter pool (issue 18; Facebook's
 * memcache paper, §3.3). With a gutter the hung node's pages are built once each into it and
 * served from it, a stampede on one of them costs one build, and the other nodes' pages stay hits;
 * without one, only the hung node's pages go to their handlers. Nodes 0..2 are the cluster, node 3
 * the gutter. Handler calls and answers are counted, never times.
 */
class FaultTestGutter {
  @RegisterExtension
  static MemcachedExtension memcached = MemcachedExtension.nodes(4);

  @RegisterExtension
  final FaultSite sites = new FaultSite();

  private static final int HUNG = 1;
  private static final int PAGES = 300;
  private static final int CLIENTS = 4;

  private CachedSite site(SiteServlets.Handler handler, boolean gutter) {
    String main = memcached.node(0).address() + "," + memcached.node(1).address() + "," + memcached.node(2).address();
    CachedSite site = sites.on(main).set("near.trust", "0s").set("lock.wait", "20s").set("lock.ttl", "30s")
        .set("gutter.ttl", "60s"); // longer than the test: each page is built into the gutter once
    if (gutter) {
      site.set("memcached.gutter", memcached.node(3).address());
    }
    return site.handler("page", handler, "/page/*").start();
  }

  private static ClusterStore cluster(CachedSite site) {
    return site.cache.engine.store.cluster();
  }

  private static List<String> pathsOn(CachedSite site, List<String> paths, int node) {
    return paths.stream().filter(p -> cluster(site).nodeOf(site.pageKey("page", p, null)) == node).toList();
  }

  /** Pauses the node and sends requests for its pages until its breaker has taken it out. */
  private static void hang(CachedSite site, List<String> onHung) {
    memcached.node(HUNG).pause();
    for (int i = 0; i < 10 && !site.cache.nodeStates().get(HUNG).down(); i++) {
      site.get(onHung.get(i % onHung.size()));
    }
    assertTrue(site.cache.nodeStates().get(HUNG).down(), "node 1 down: " + site.cache.nodeStates());
  }

  @Test
  void withAGutterAHungNodesPagesAreBuiltOnceIntoItAndEveryOtherRequestIsAHit() {
    SiteServlets.Handler handler = SiteServlets.page();
    CachedSite site = site(handler, true);
    List<String> paths = FaultSite.pages(PAGES);
    paths.forEach(site::get);
    List<String> onHung = pathsOn(site, paths, HUNG);
    assertTrue(!onHung.isEmpty() && onHung.size() < PAGES, "pages spread over the nodes: " + onHung.size());

    try (SiteLoad load = SiteLoad.start(site, CLIENTS, paths, Duration.ofSeconds(60))) {
      Eventually.assertWithin(Duration.ofSeconds(10), "a full pass of hits", () -> load.tally().hits() >= PAGES);
      hang(site, onHung);
      SiteLoad.Tally atDown = load.tally();
      int callsAtDown = handler.calls.get();
      Eventually.assertWithin(Duration.ofSeconds(30), "three passes over every page with node 1 hung",
          () -> load.tally().requests() >= atDown.requests() + 3L * PAGES);
      SiteLoad.Tally hung = load.tally();
      int built = handler.calls.get() - callsAtDown;
      long requests = hung.requests() - atDown.requests();
      long bypassed = label(hung, "BYPASS") - label(atDown, "BYPASS");
      System.out.printf("FaultTestGutter: node 1 holds %d of %d pages; after it was taken out: %d requests,"
          + " %d handler calls (%.1f %%), %d bypasses%n", onHung.size(), PAGES, requests, built,
          100.0 * built / requests, bypassed);
      // Requests in flight when node 1 was taken out (one per client) may still time out and bypass.
      assertTrue(built <= onHung.size() + CLIENTS, "each page of the hung node built about once into the gutter: " + built);
      assertTrue(bypassed <= CLIENTS, "only requests caught by the hang itself bypassed: " + bypassed);
      // From then on, every page is served from the gutter or its own node: nothing is built, nothing bypasses.
      int callsThen = handler.calls.get();
      Eventually.assertWithin(Duration.ofSeconds(30), "two more passes over every page",
          () -> load.tally().requests() >= hung.requests() + 2L * PAGES);
      SiteLoad.Tally later = load.tally();
      assertEquals(0, handler.calls.get() - callsThen, "no more builds: " + later);
      assertEquals(0, label(later, "BYPASS") - label(hung, "BYPASS"), "no more bypasses: " + later);
      FaultSite.assertEveryRequestAnswered(load.stop());
    } finally {
      memcached.node(HUNG).resume();
    }
    for (String path : onHung) {
      Long ttl = memcached.text(3).secondsToLive(site.pageKey("page", path, null));
      assertTrue(ttl != null && ttl > 0 && ttl <= 60, path + " lives in the gutter for gutter.ttl at most: " + ttl);
    }
  }

  @Test
  void aStampedeOnAHungNodesPageCostsOneBuildWithAGutter() throws Exception {
    assertEquals(1, stampede(true), "one build, the others wait for it");
  }

  @Test
  void aStampedeOnAHungNodesPageCostsABuildPerRequestWithoutAGutter() throws Exception {
    assertEquals(20, stampede(false), "no cache for that page: each request runs its handler");
  }

  /** 20 concurrent requests for one page of the hung node while its build is held; the handler calls. */
  private int stampede(boolean gutter) throws Exception {
    SiteServlets.Handler handler = SiteServlets.page();
    CachedSite site = site(handler, gutter);
    List<String> onHung = pathsOn(site, FaultSite.pages(100), HUNG);
    String target = onHung.get(0);
    ExecutorService pool = Executors.newFixedThreadPool(20);
    try {
      hang(site, onHung.subList(1, onHung.size()));
      int before = handler.calls.get();
      long waitsBefore = site.cache.stats().handler("page").lockWaits();
      CountDownLatch gate = new CountDownLatch(1);
      handler.gate.set(gate);
      List<Future<HttpResponse<byte[]>>> answers = new ArrayList<>();
      for (int i = 0; i < 20; i++) {
        answers.add(pool.submit(() -> site.get(target)));
      }
      // Held: the builder (and, without a gutter, every request) is in the handler; the rest wait for it.
      Eventually.assertWithin(Duration.ofSeconds(15), "all 20 requests arrived",
          () -> handler.calls.get() - before + site.cache.stats().handler("page").lockWaits() - waitsBefore >= 20);
      gate.countDown();
      for (Future<HttpResponse<byte[]>> answer : answers) {
        assertEquals(200, answer.get(30, TimeUnit.SECONDS).statusCode());
      }
      return handler.calls.get() - before;
    } finally {
      pool.shutdownNow();
      memcached.node(HUNG).resume();
    }
  }
}
