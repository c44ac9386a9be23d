package org.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.ObservationView;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.pagecache.testing.Eventually;
import org.pagecache.testing.MemcachedExtension;

/**
 * Micrometer Observation in a plain Jakarta application: the registry is a ServletContext
 * attribute, requests go through real HTTP on Jetty to real memcached, and each request is an
 * observation with its handler, cache status and whether it waited, its lookup, wait, build and
 * store its children (and the handler's own observations children of the build).
 */
class ObservationTest {
  @RegisterExtension
  static MemcachedExtension memcached = MemcachedExtension.nodes(1);

  @RegisterExtension
  final CachedSite.Sites sites = new CachedSite.Sites(memcached);

  private final ObservationRegistry registry = ObservationRegistry.create();
  private final Recorder recorded = new Recorder();

  private CachedSite site(SiteServlets.Handler page) {
    registry.observationConfig().observationHandler(recorded);
    return sites.open()
        .set("lock.wait", "20s").set("lock.ttl", "30s") // a waiter waits for the build however slow the machine
        .handler("page", page, "/page/*")
        .with(ctx -> ctx.setAttribute("io.micrometer.observation.ObservationRegistry", registry))
        .start();
  }

  @Test
  void eachRequestIsObservedWithItsHandlerAndCacheStatusAndItsStepsAsChildren() {
    CachedSite site = site(SiteServlets.of((req, res, call) -> {
      // the handler's own observation (a database query, say) nests under the build
      Observation.createNotStarted("app.query", registry).observe(() -> { });
      res.setContentType("text/html");
      res.getWriter().print("page " + call);
    }));
    assertEquals("MISS", site.get("/page/a").headers().firstValue("X-Cache").orElseThrow());
    Observation.Context miss = recorded.request(0);
    assertEquals("HIT", site.get("/page/a").headers().firstValue("X-Cache").orElseThrow());
    Observation.Context hit = recorded.request(1);

    assertEquals("miss", value(miss, "pagecache.status"));
    assertEquals("page", value(miss, "pagecache.handler"));
    assertEquals("false", value(miss, "pagecache.waited"));
    assertEquals("pagecache page", miss.getContextualName());
    assertEquals(List.of("pagecache.request.lookup", "pagecache.request.build", "pagecache.request.store"),
        recorded.childrenOf(miss), "the miss looked up, built and stored");
    assertEquals("pagecache.request.build", parentName(recorded.stopped("app.query").get(0)),
        "the handler's observation is a child of the build");
    assertEquals("hit", value(hit, "pagecache.status"));
    assertEquals(List.of("pagecache.request.lookup"), recorded.childrenOf(hit), "the hit only looked up");
    assertEquals("page", value(recorded.stopped("pagecache.request.lookup").get(0), "pagecache.handler"));
  }

  @Test
  void aRequestThatWaitsForAnothersBuildSaysSo() {
    SiteServlets.Handler page = SiteServlets.page();
    CountDownLatch gate = new CountDownLatch(1);
    page.gate.set(gate);
    CachedSite site = site(page);
    CompletableFuture<HttpResponse<byte[]>> builder = CompletableFuture.supplyAsync(() -> site.get("/page/w"));
    Eventually.assertWithin(Duration.ofSeconds(10), "the first request is building", () -> page.calls.get() == 1);
    CompletableFuture<HttpResponse<byte[]>> waiter = CompletableFuture.supplyAsync(() -> site.get("/page/w"));
    Eventually.assertWithin(Duration.ofSeconds(10), "the second request is waiting",
        () -> recorded.started.stream().anyMatch(c -> c.getName().equals("pagecache.request.wait")));
    gate.countDown();
    assertEquals("MISS", builder.join().headers().firstValue("X-Cache").orElseThrow());
    assertEquals("HIT", waiter.join().headers().firstValue("X-Cache").orElseThrow(), "served the page built meanwhile");
    assertEquals(1, page.calls.get());

    Eventually.assertWithin(Duration.ofSeconds(10), "both requests observed", () -> recorded.stopped("pagecache.request").size() == 2);
    Observation.Context waited = recorded.stopped("pagecache.request").stream()
        .filter(c -> value(c, "pagecache.waited").equals("true")).findFirst().orElseThrow();
    assertEquals("hit", value(waited, "pagecache.status"));
    assertTrue(recorded.childrenOf(waited).contains("pagecache.request.wait"), recorded.childrenOf(waited).toString());
    assertEquals(1, recorded.stopped("pagecache.request").stream()
        .filter(c -> value(c, "pagecache.waited").equals("false")).count(), "the builder did not wait");
  }

  private static String value(Observation.Context c, String key) {
    return c.getLowCardinalityKeyValue(key).getValue();
  }

  private static String parentName(Observation.Context c) {
    ObservationView parent = c.getParentObservation();
    return parent == null ? null : parent.getContextView().getName();
  }

  /** Records every observation started and stopped, as a tracing handler would see them. */
  private static final class Recorder implements ObservationHandler<Observation.Context> {
    final List<Observation.Context> started = new CopyOnWriteArrayList<>();
    final List<Observation.Context> stopped = new CopyOnWriteArrayList<>();

    @Override
    public void onStart(Observation.Context context) {
      started.add(context);
    }

    @Override
    public void onStop(Observation.Context context) {
      stopped.add(context);
    }

    @Override
    public boolean supportsContext(Observation.Context context) {
      return true;
    }

    List<Observation.Context> stopped(String name) {
      return stopped.stream().filter(c -> c.getName().equals(name)).toList();
    }

    /** The {@code i}-th request observation, once it has ended (after the response went out). */
    Observation.Context request(int i) {
      Eventually.assertWithin(Duration.ofSeconds(10), "request " + i + " observed", () -> stopped("pagecache.request").size() > i);
      return stopped("pagecache.request").get(i);
    }

    List<String> childrenOf(Observation.Context parent) {
      return stopped.stream().filter(c -> c.getParentObservation() != null
              && c.getParentObservation().getContextView() == parent)
          .map(Observation.Context::getName).toList();
    }
  }
}
