package org.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.pagecache.SiteUnderTest.Backend;
import org.pagecache.SiteUnderTest.BothStores;
import org.pagecache.SiteUnderTest.Response;
import org.pagecache.testing.ForwardingStore;
import org.pagecache.testing.MemcachedExtension;
import org.pagecache.testing.MutableClock;

/**
 * Specification, on both stores: with {@code cache-control=honor} the response's
 * {@code stale-while-revalidate} and {@code stale-if-error} (RFC 5861) bound how long its stale
 * copy is served, and only 500, 502, 503 and 504 are hidden behind it; the default mode keeps the
 * policy's grace.
 */
class StaleDirectivesSpec {
  @RegisterExtension
  static MemcachedExtension memcached = MemcachedExtension.nodes(1);

  @RegisterExtension
  final SiteUnderTest.Sites sites = new SiteUnderTest.Sites(memcached);

  private final MutableClock clock = new MutableClock();
  private final AtomicInteger status = new AtomicInteger(200);

  private SiteUnderTest site(Backend backend, String mode, String cacheControl, SiteServlets.Handler.Body inside) {
    return sites.on(backend).clock(clock).set("policies", "page: ttl=60s, grace=10m" + mode).set("lock.wait", "200ms")
        .handler("page", SiteServlets.of((req, res, call) -> {
          res.setHeader("Cache-Control", cacheControl);
          inside.write(req, res, call);
          res.setStatus(status.get());
          res.getWriter().print("call " + call);
        }), "/page/*").start();
  }

  /** Set while another builder (another JVM, say) holds every page's rebuild lock. */
  private final AtomicBoolean lockedElsewhere = new AtomicBoolean();

  /** A site whose pages say stale-while-revalidate=30; its store refuses the lock while {@link #lockedElsewhere}. */
  private SiteUnderTest revalidating(Backend backend) {
    return sites.on(backend).clock(clock).set("policies", "page: ttl=60s, grace=10m, cache-control=honor")
        .set("lock.wait", "200ms")
        .wrapStore(store -> new ForwardingStore(store) {
          @Override
          public boolean add(String key, byte[] value, int ttlSeconds) {
            return !lockedElsewhere.get() && super.add(key, value, ttlSeconds);
          }

          @Override // the lock's add with the build's second look
          public Map<String, byte[]> addThenGetMulti(String key, byte[] value, int ttlSeconds, Collection<String> keys) {
            return lockedElsewhere.get() ? null : super.addThenGetMulti(key, value, ttlSeconds, keys);
          }
        })
        .handler("page", SiteServlets.of((req, res, call) -> {
          res.setHeader("Cache-Control", "max-age=60, stale-while-revalidate=30");
          res.getWriter().print("call " + call);
        }), "/page/*").start();
  }

  @BothStores
  void aStalePageIsServedWhileItIsRebuiltWithinItsStaleWhileRevalidate(Backend backend) {
    SiteUnderTest site = revalidating(backend);
    site.get("/page/swr");
    clock.advance(Duration.ofSeconds(60 + 30));
    lockedElsewhere.set(true);
    Response r = site.get("/page/swr");
    assertEquals("STALE", r.xcache(), "30 s past its fresh time: still within the window");
    assertEquals("call 1", r.text());
  }

  @BothStores
  void pastItsStaleWhileRevalidateAPageIsNotServedStale(Backend backend) {
    SiteUnderTest site = revalidating(backend);
    site.get("/page/late");
    clock.advance(Duration.ofSeconds(60 + 31));
    lockedElsewhere.set(true);
    Response r = site.get("/page/late");
    assertNotEquals("STALE", r.xcache(), "waited for the rebuild instead, within the policy's grace");
    assertEquals("call 2", r.text(), "then built it: the other builder did not finish within lock.wait");
  }

  @BothStores
  void staleIfErrorBoundsHowLongAnErrorIsHidden(Backend backend) {
    SiteUnderTest site = site(backend, ", cache-control=honor", "max-age=60, stale-if-error=30", (req, res, call) -> { });
    site.get("/page/sie");
    status.set(503);
    clock.advance(Duration.ofSeconds(60 + 30));
    Response hidden = site.get("/page/sie");
    assertEquals("STALE", hidden.xcache());
    assertEquals("call 1", hidden.text());
    clock.advance(Duration.ofSeconds(1));
    Response shown = site.get("/page/sie");
    assertEquals(503, shown.status(), "past its stale-if-error, within the policy's grace");
    assertEquals("call 3", shown.text());
  }

  @BothStores
  void anErrorOtherThan500To504IsNotHidden(Backend backend) {
    SiteUnderTest site = site(backend, ", cache-control=honor", "max-age=60", (req, res, call) -> { });
    site.get("/page/501");
    clock.advance(Duration.ofSeconds(61));
    status.set(501);
    Response r = site.get("/page/501");
    assertEquals(501, r.status());
    assertEquals("call 2", r.text());
    status.set(502);
    Response hidden = site.get("/page/501");
    assertEquals("STALE", hidden.xcache(), "502 is an error a stale copy stands in for");
    assertEquals("call 1", hidden.text());
  }

  @BothStores
  void theDefaultModeKeepsThePolicysGrace(Backend backend) {
    SiteUnderTest site = site(backend, "", "max-age=60, stale-if-error=30", (req, res, call) -> { });
    site.get("/page/default");
    clock.advance(Duration.ofSeconds(60 + 120));
    status.set(501);
    Response r = site.get("/page/default");
    assertEquals("STALE", r.xcache(), "the response's directives are not obeyed by default");
    assertEquals("call 1", r.text());
  }
}
