package org.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.pagecache.SiteUnderTest.Backend;
import org.pagecache.SiteUnderTest.BothStores;
import org.pagecache.SiteUnderTest.Response;
import org.pagecache.testing.MemcachedExtension;
import org.pagecache.testing.MutableClock;

/**
 * Specification, on both stores: a stale page that carries the application's validators is asked
 * for conditionally; a 304 from the handler freshens the stored page (its headers updated from the
 * 304) instead of building its body again (RFC 9111 4.3).
 */
class RevalidationSpec {
  @RegisterExtension
  static MemcachedExtension memcached = MemcachedExtension.nodes(1);

  @RegisterExtension
  final SiteUnderTest.Sites sites = new SiteUnderTest.Sites(memcached);

  private final MutableClock clock = new MutableClock();
  /** The If-None-Match each call of the handler saw ("-" when none). */
  private final List<String> asked = new CopyOnWriteArrayList<>();
  private final List<Integer> bodiesWritten = new CopyOnWriteArrayList<>();

  private SiteUnderTest site(Backend backend, boolean withEtag) {
    return sites.on(backend).clock(clock).set("policies", "page: ttl=10s")
        .handler("page", SiteServlets.of((req, res, call) -> {
          String inm = req.getHeader("If-None-Match");
          asked.add(inm == null ? "-" : inm);
          res.setHeader("X-Call", Integer.toString(call));
          if (withEtag) {
            res.setHeader("ETag", "\"v1\"");
            if ("\"v1\"".equals(inm)) {
              res.setStatus(304);
              return;
            }
          }
          bodiesWritten.add(call);
          res.setContentType("text/plain");
          res.getWriter().print("body of call " + call);
        }), "/page/*").start();
  }

  @BothStores
  void aStalePageIsRevalidatedAndA304FreshensIt(Backend backend) {
    SiteUnderTest site = site(backend, true);
    site.get("/page/a");
    clock.advance(Duration.ofSeconds(11));
    Response revalidated = site.get("/page/a");
    assertEquals(200, revalidated.status());
    assertEquals("body of call 1", revalidated.text());
    assertEquals("2", revalidated.header("X-Call"), "the 304's headers replace the stored ones");
    assertEquals(List.of("-", "\"v1\""), asked);
    assertEquals(List.of(1), bodiesWritten, "the body was built once");
    clock.advance(Duration.ofSeconds(9));
    Response hit = site.get("/page/a");
    assertEquals("HIT", hit.xcache(), "fresh again for the ttl from the revalidation");
    assertEquals("2", hit.header("X-Call"));
  }

  @BothStores
  void theClientsOwnConditionalIsNotWhatTheHandlerSees(Backend backend) {
    SiteUnderTest site = site(backend, true);
    site.get("/page/b");
    clock.advance(Duration.ofSeconds(11));
    Response answer = site.get("/page/b", "If-None-Match", "\"v1\"");
    assertEquals(304, answer.status(), "the client holds the current version");
    assertEquals(List.of("-", "\"v1\""), asked);
  }

  @BothStores
  void aMustRevalidatePageIsKeptToBeRevalidatedButNeverServedStale(Backend backend) {
    SiteUnderTest site = sites.on(backend).clock(clock).set("policies", "page: cache-control=honor")
        .handler("page", SiteServlets.of((req, res, call) -> {
          String inm = req.getHeader("If-None-Match");
          asked.add(inm == null ? "-" : inm);
          res.setHeader("Cache-Control", "max-age=10, must-revalidate");
          res.setHeader("ETag", "\"v1\"");
          if ("\"v1\"".equals(inm)) {
            res.setStatus(304);
            return;
          }
          res.getWriter().print("body of call " + call);
        }), "/page/*").start();
    site.get("/page/m");
    clock.advance(Duration.ofSeconds(11));
    Response revalidated = site.get("/page/m");
    assertEquals("MISS", revalidated.xcache());
    assertEquals("body of call 1", revalidated.text());
    assertEquals(List.of("-", "\"v1\""), asked);
  }

  @BothStores
  void aPageWithoutValidatorsIsRebuiltInFull(Backend backend) {
    SiteUnderTest site = site(backend, false);
    site.get("/page/c");
    clock.advance(Duration.ofSeconds(11));
    Response rebuilt = site.get("/page/c");
    assertEquals("body of call 2", rebuilt.text());
    assertEquals(List.of("-", "-"), asked);
    assertNull(rebuilt.header("PageCache-Control"));
  }
}
