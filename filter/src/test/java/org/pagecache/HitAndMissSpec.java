package org.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Collection;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.pagecache.SiteUnderTest.Backend;
import org.pagecache.SiteUnderTest.BothStores;
import org.pagecache.SiteUnderTest.Response;
import org.pagecache.testing.ForwardingStore;
import org.pagecache.testing.MemcachedExtension;
import org.pagecache.testing.MutableClock;

/**
 * Specification, on both stores (fast tier, {@link SiteUnderTest}): a page is built once and then
 * served from the cache; what makes two requests the same page (query order, HEAD and GET, a
 * client's reload) and what makes them different pages (the query, a varied header); how long a
 * page stays fresh.
 */
class HitAndMissSpec {
  @RegisterExtension
  static MemcachedExtension memcached = MemcachedExtension.nodes(1);

  @RegisterExtension
  final SiteUnderTest.Sites sites = new SiteUnderTest.Sites(memcached);

  @BothStores
  void missThenHitRunsTheHandlerOnce(Backend backend) {
    SiteUnderTest site = sites.on(backend).handler("page", SiteServlets.page(), "/page/*").start();
    Response first = site.get("/page/a");
    Response second = site.get("/page/a");
    assertEquals(200, first.status());
    assertEquals("MISS", first.xcache());
    assertEquals("HIT", second.xcache());
    assertEquals(first.text(), second.text());
    assertEquals(1, site.calls("page"));
    assertTrue(String.valueOf(second.header("Cache-Status")).startsWith("PageCache; hit"), second.toString());
    assertTrue(second.header("Age") != null, second.toString());
    assertTrue(String.valueOf(second.header("Content-Type")).startsWith("text/html"), second.toString());
  }

  @BothStores
  void aHitCostsExactlyOneRoundTrip(Backend backend) {
    // The store's hit path: with the near cache on (the default) most hits cost none (NearCacheTest).
    SiteUnderTest site = sites.on(backend).set("near.trust", "0s")
        .handler("page", SiteServlets.page(), "/page/*").start();
    site.get("/page/rt");
    long before = site.roundTrips();
    long missesBefore = backend == Backend.MEMCACHED ? memcached.text(0).statLong("get_misses") : 0;
    Response hit = site.get("/page/rt");
    assertEquals("HIT", hit.xcache());
    assertEquals(1, site.roundTrips() - before, hit.toString());
    if (backend == Backend.MEMCACHED) {
      assertEquals(missesBefore, memcached.text(0).statLong("get_misses"), "token and page both found");
    }
  }

  @BothStores
  void aMissIsBuiltAndStoredInThreeRoundTrips(Backend backend) {
    // The lookup; the lock's add with the second look; the store. The lock goes back noreply.
    // (It was six: lookup, add, second look, set, the lock's owner read, delete.)
    SiteUnderTest site = sites.on(backend).set("near.trust", "0s")
        .handler("page", SiteServlets.page(), "/page/*").start();
    site.get("/page/first"); // the handler's first page: its token is written once
    long before = site.roundTrips();
    Response miss = site.get("/page/built");
    assertEquals("MISS", miss.xcache());
    assertEquals(3, site.roundTrips() - before, miss.toString());
    assertEquals("HIT", site.get("/page/built").xcache(), "stored, and the lock given back");
  }

  @Test
  void aPageAnotherServerStoredBetweenTheLookupAndTheLockIsServedNotBuiltAgain() {
    // Two servers on one memcached: this one's lookup misses; just before its lock's add, the other
    // builds the page, stores it and gives its lock back. The add wins, and the reads sent with it
    // (the second look) find the page: served, not built twice.
    String namespace = "twoservers" + ProcessHandle.current().pid() % 1000;
    SiteUnderTest other = sites.on(Backend.MEMCACHED).set("namespace", namespace)
        .handler("page", SiteServlets.page(), "/page/*").start();
    AtomicBoolean armed = new AtomicBoolean();
    AtomicBoolean once = new AtomicBoolean();
    SiteUnderTest here = sites.on(Backend.MEMCACHED).set("namespace", namespace).set("near.trust", "0s")
        .wrapStore(store -> new ForwardingStore(store) {
          @Override
          protected <T> T forward(String op, Collection<String> keys, Supplier<T> call) {
            if (op.startsWith("add") && armed.get() && once.compareAndSet(false, true)) {
              assertEquals("MISS", other.get("/page/raced").xcache(), "the other server builds it first");
            }
            return call.get();
          }
        })
        .handler("page", SiteServlets.page(), "/page/*").start();
    here.get("/page/warm"); // the handler's token written once, before the race
    armed.set(true);

    Response r = here.get("/page/raced");

    assertEquals(200, r.status());
    assertTrue(once.get(), "the lock was asked for");
    assertEquals(1, other.calls("page"), "built there");
    assertEquals(1, here.calls("page"), "here only the warm-up page: the raced one was served, " + r);
    assertTrue(String.valueOf(r.header("Cache-Status")).contains("collapsed"), r.toString());
  }

  @BothStores
  void queryParameterOrderDoesNotMatter(Backend backend) {
    SiteUnderTest site = sites.on(backend).handler("page", SiteServlets.page(), "/page/*").start();
    site.get("/page/q?a=1&b=2");
    Response swapped = site.get("/page/q?b=2&a=1");
    assertEquals("HIT", swapped.xcache());
    assertEquals(1, site.calls("page"));
    assertEquals("MISS", site.get("/page/q?a=1&b=3").xcache());
  }

  @BothStores
  void headIsServedFromTheGetEntry(Backend backend) {
    SiteUnderTest site = sites.on(backend).handler("page", SiteServlets.page(), "/page/*").start();
    Response get = site.get("/page/h");
    Response head = site.head("/page/h");
    assertEquals("HIT", head.xcache());
    assertEquals(0, head.body().length);
    assertEquals(String.valueOf(get.body().length), head.header("Content-Length"));
    assertEquals(1, site.calls("page"));
  }

  @BothStores
  void headFirstStoresAFullPageForLaterGets(Backend backend) {
    SiteUnderTest site = sites.on(backend).handler("page", SiteServlets.page(), "/page/*").start();
    Response head = site.head("/page/hf");
    assertEquals(0, head.body().length);
    Response get = site.get("/page/hf");
    assertEquals("HIT", get.xcache());
    assertTrue(get.text().contains("page /page/hf"), get.text());
    assertEquals(1, site.calls("page"));
  }

  @BothStores
  void aRangeRequestForACachedPageGetsThePartAsked(Backend backend) {
    SiteUnderTest site = sites.on(backend).handler("page", SiteServlets.page(), "/page/*").start();
    String full = site.get("/page/range").text();
    Response ranged = site.get("/page/range", "Range", "bytes=0-5", "Accept-Encoding", "gzip");
    assertEquals(206, ranged.status());
    assertEquals("HIT", ranged.xcache());
    assertEquals("<html>", ranged.text());
    assertEquals("bytes 0-5/" + full.length(), ranged.header("Content-Range"));
    Response tail = site.get("/page/range", "Range", "bytes=-7");
    assertEquals(206, tail.status());
    assertEquals(full.substring(full.length() - 7), tail.text());
    assertEquals(416, site.get("/page/range", "Range", "bytes=" + full.length() + "-").status());
    Response several = site.get("/page/range", "Range", "bytes=0-1, 4-5");
    assertEquals(200, several.status(), "several ranges: the whole page");
    assertEquals(full, several.text());
    Response otherVersion = site.get("/page/range", "Range", "bytes=0-5", "If-Range", "\"not-this-page\"");
    assertEquals(200, otherVersion.status(), "If-Range for another version: the whole page");
    assertEquals(1, site.calls("page"));
  }

  @BothStores
  void aClientNoCacheDoesNotBypassOrRebuild(Backend backend) {
    SiteUnderTest site = sites.on(backend).handler("page", SiteServlets.page(), "/page/*").start();
    site.get("/page/reload");
    Response reload = site.get("/page/reload", "Cache-Control", "no-cache", "Pragma", "no-cache");
    assertEquals("HIT", reload.xcache());
    assertEquals(1, site.calls("page"));
  }

  @BothStores
  void aPageVaryingOnARequestHeaderIsKeptPerValue(Backend backend) {
    SiteUnderTest site = sites.on(backend).handler("lang", SiteServlets.of((req, res, call) -> {
      res.setHeader("Vary", "Accept-Language");
      res.setContentType("text/plain");
      res.getWriter().print("lang=" + req.getHeader("Accept-Language"));
    }), "/lang").start();
    assertEquals("lang=de", site.get("/lang", "Accept-Language", "de").text());
    assertEquals("lang=fr", site.get("/lang", "Accept-Language", "fr").text());
    Response de = site.get("/lang", "Accept-Language", "de");
    Response fr = site.get("/lang", "Accept-Language", "fr");
    assertEquals("lang=de", de.text());
    assertEquals("lang=fr", fr.text());
    assertEquals("HIT", fr.xcache());
  }

  @BothStores
  void theHandlersMaxAgeSetsTheTtlWhenThePolicyHonoursIt(Backend backend) {
    MutableClock clock = new MutableClock();
    SiteUnderTest site = sites.on(backend).clock(clock)
        .set("policies", "honest: cache-control=honor; zero: cache-control=honor")
        .handler("honest", SiteServlets.header("Cache-Control", "public, s-maxage=5, max-age=600"), "/honest")
        .handler("plain", SiteServlets.header("Cache-Control", "public, s-maxage=5"), "/plain")
        .handler("zero", SiteServlets.header("Cache-Control", "max-age=0"), "/zero")
        .start();
    site.get("/honest");
    site.get("/plain");
    clock.advance(java.time.Duration.ofSeconds(6));
    assertEquals("MISS", site.get("/honest").xcache(), "s-maxage=5 was the TTL");
    assertEquals("HIT", site.get("/plain").xcache(), "not honoured: the default 60 s TTL");
    site.get("/zero");
    assertEquals("BYPASS", site.get("/zero").xcache(), "max-age=0 means do not store");
  }
}
