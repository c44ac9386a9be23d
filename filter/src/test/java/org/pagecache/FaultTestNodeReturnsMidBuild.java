package org.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.pagecache.internal.nodes.ClusterStore;
import org.pagecache.testing.Eventually;
import org.pagecache.testing.MemcachedExtension;

/**
 * A build finishes where it started (issue 27): a page whose node is out is rebuilt in the gutter
 * under a lock taken there; when a probe puts the node back in use during that build, the build
 * still stores its page and deletes its lock in the gutter. Before, both were routed afresh to the
 * returning node: the gutter kept the old copy and a lock nobody would delete, so when the node
 * went out again within {@code gutter.ttl} every request got the old copy as STALE with nobody
 * rebuilding it. Nodes 0..2 are the cluster, node 3 the gutter; events and page contents are
 * asserted, never times.
 */
class FaultTestNodeReturnsMidBuild {
  @RegisterExtension
  static MemcachedExtension memcached = MemcachedExtension.nodes(4);

  @RegisterExtension
  final FaultSite sites = new FaultSite();

  private static final int NODE = 1;
  private static final int GUTTER = 3;

  /** The refresh generation the page shows: what the editor last published. */
  private final AtomicInteger generation = new AtomicInteger(1);
  private final SiteServlets.Handler page = SiteServlets.of((req, res, call) -> {
    res.setContentType("text/html;charset=UTF-8");
    res.getWriter().print("<html><body>generation " + generation.get() + "</body></html>");
  });

  @Test
  void aBuildStartedInTheGutterStoresItsPageAndDeletesItsLockThereWhenItsNodeReturnsMidBuild() throws Exception {
    String main = memcached.node(0).address() + "," + memcached.node(1).address() + "," + memcached.node(2).address();
    CachedSite site = sites.on(main).set("memcached.gutter", memcached.node(GUTTER).address())
        .set("near.trust", "0s").set("retry.interval", "100ms").set("gutter.ttl", "60s")
        .set("lock.wait", "20s").set("lock.ttl", "30s").set("rebuild.background", "0") // the visitor builds, as it is held
        .handler("page", page, "/page/*").handler("other", SiteServlets.page(), "/other/*").start();
    ClusterStore cluster = site.cache.engine.store.cluster();
    // Pages of the node, and pages of another handler there to probe it with.
    List<String> onNode = FaultSite.pages(60).stream()
        .filter(path -> cluster.nodeOf(site.pageKey("page", path, null)) == NODE).toList();
    List<String> probes = FaultSite.pages(200).stream().map(path -> "/other" + path.substring("/page".length()))
        .filter(path -> cluster.nodeOf(site.pageKey("other", path, null)) == NODE).toList();

    memcached.node(NODE).stop();
    takeOut(site, probes);
    for (String path : onNode) {
      assertEquals("generation 1", body(site.get(path)), "built into the gutter");
    }
    generation.set(2);
    site.cache.refreshHandler("page");
    // One whose lock for the new token lives on the node too: the lock is taken in the gutter.
    String target = onNode.stream().filter(path -> cluster.nodeOf(site.lockKey("page", path)) == NODE)
        .findFirst().orElseThrow();
    String pageKey = site.pageKey("page", target, null);
    String lockKey = site.lockKey("page", target);
    long gutterDeletes = memcached.text(GUTTER).deleteHits();
    CountDownLatch gate = new CountDownLatch(1);
    page.gate.set(gate);
    int calls = page.calls.get();
    CompletableFuture<HttpResponse<byte[]>> rebuild = CompletableFuture.supplyAsync(() -> site.get(target));
    try {
      Eventually.assertWithin(Duration.ofSeconds(10), "the rebuild started", () -> page.calls.get() == calls + 1);
      assertNotNull(memcached.text(GUTTER).getBytes(lockKey), "its lock taken in the gutter");

      memcached.node(NODE).start();
      Eventually.assertWithin(Duration.ofSeconds(10), "a probe put the node back in use", () -> {
        probes.forEach(site::get);
        return !site.cache.nodeStates().get(NODE).down();
      });
    } finally {
      gate.countDown();
    }
    HttpResponse<byte[]> built = rebuild.get(30, TimeUnit.SECONDS);
    page.gate.set(null);
    assertEquals("generation 2", body(built));
    memcached.text(GUTTER).assertDeletedSince(lockKey, gutterDeletes, "the lock deleted where it was taken: the gutter");
    assertNull(memcached.text(NODE).getBytes(pageKey), "the page not stored on the returning node");

    // The node hangs again within gutter.ttl: its page is the new one, from the gutter, not the old
    // copy served STALE behind a lock nobody holds.
    memcached.node(NODE).pause();
    try {
      takeOut(site, probes);
      int before = page.calls.get();
      HttpResponse<byte[]> again = site.get(target);
      assertEquals("generation 2", body(again), "X-Cache " + again.headers().firstValue("X-Cache").orElse(""));
      assertEquals("HIT", again.headers().firstValue("X-Cache").orElse(""), "served from the gutter as stored");
      assertEquals(before, page.calls.get(), "nothing to rebuild");
    } finally {
      memcached.node(NODE).resume();
    }
  }

  /** Sends requests for the node's pages until its breaker has taken it out. */
  private static void takeOut(CachedSite site, List<String> probes) {
    for (int i = 0; i < 20 && !site.cache.nodeStates().get(NODE).down(); i++) {
      site.get(probes.get(i % probes.size()));
    }
    assertTrue(site.cache.nodeStates().get(NODE).down(), "node taken out: " + site.cache.nodeStates());
  }

  private static String body(HttpResponse<byte[]> r) {
    String html = new String(r.body(), StandardCharsets.UTF_8);
    int at = html.indexOf("generation ");
    return at < 0 ? html : html.substring(at, html.indexOf('<', at));
  }
}
