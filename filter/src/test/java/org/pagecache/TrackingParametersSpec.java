package org.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.pagecache.SiteUnderTest.Backend;
import org.pagecache.SiteUnderTest.BothStores;
import org.pagecache.SiteUnderTest.Response;
import org.pagecache.testing.MemcachedExtension;

/**
 * Specification, on both stores: tracking parameters ({@code utm_*}, {@code fbclid}, {@code gclid}...)
 * are out of the key, so visits from newsletters and ads are served the page everyone gets; a
 * parameter that means something keys its own page; a handler that reads a tracking parameter is
 * keyed on it from then on; {@code params.ignore} and {@code params.keep} change the list.
 */
class TrackingParametersSpec {
  @RegisterExtension
  static MemcachedExtension memcached = MemcachedExtension.nodes(1);

  @RegisterExtension
  final SiteUnderTest.Sites sites = new SiteUnderTest.Sites(memcached);

  /** A paged list: reads {@code page}, nothing else. */
  private static SiteServlets.Handler list() {
    return SiteServlets.of((req, res, call) -> {
      res.setContentType("text/html;charset=UTF-8");
      String page = req.getParameter("page");
      res.getWriter().print("<p>page " + (page == null ? "1" : page) + "</p><p>build " + call + "</p>");
    });
  }

  private static final List<String> TRACKING = List.of(
      "utm_source=newsletter&utm_medium=email&utm_campaign=spring", "fbclid=IwAR2x", "gclid=Cj0KCQ",
      "mc_eid=4f1a&mc_cid=77", "msclkid=9b1c", "utm_source=twitter", "utm_content=hero&utm_term=shoes",
      "_hsenc=p2AN&_hsmi=22", "gclid=abc&utm_source=google&utm_medium=cpc", "fbclid=other",
      "utm%5Fsource=encoded", "mkt_tok=eyJp", "yclid=1", "ttclid=2", "twclid=3", "igshid=4", "dclid=5",
      "wbraid=6", "gbraid=7", "li_fat_id=8", "_ga=2.1", "utm_id=9", "pk_campaign=x", "mtm_source=y",
      "oly_anon_id=z", "vero_id=v", "rdt_cid=r", "hsa_cam=h", "elqTrackId=e", "srsltid=s");

  @BothStores
  void thirtyVisitsWithTrackingParametersAreServedThePageEveryoneGets(Backend backend) {
    SiteUnderTest site = sites.on(backend).handler("list", list(), "/list").start();
    assertEquals(30, TRACKING.size());
    int hits = 0;
    for (String query : TRACKING) {
      Response r = site.get("/list?" + query);
      assertEquals(200, r.status());
      assertTrue(r.text().contains("page 1"), r.text());
      hits += r.xcache().equals("HIT") ? 1 : 0;
    }
    System.out.printf("tracking parameters (%s): %d of 30 visits HIT%n", backend, hits);
    assertEquals(29, hits, "the first visit builds the page, the other 29 are served it");
    assertEquals(1, site.calls("list"));
    assertEquals("HIT", site.get("/list").xcache(), "the plain URL is the same page");
  }

  @BothStores
  void aParameterThatMeansSomethingKeepsItsOwnPage(Backend backend) {
    SiteUnderTest site = sites.on(backend).handler("list", list(), "/list").start();
    assertEquals("MISS", site.get("/list?utm_source=a").xcache());
    Response second = site.get("/list?page=2&utm_source=b");
    assertEquals("MISS", second.xcache());
    assertTrue(second.text().contains("page 2"), second.text());
    Response again = site.get("/list?fbclid=x&page=2");
    assertEquals("HIT", again.xcache());
    assertTrue(again.text().contains("page 2"), again.text());
    assertEquals("MISS", site.get("/list?page=3").xcache());
    assertEquals("MISS", site.get("/list?q=shoes&utm_source=a").xcache());
    assertEquals(4, site.calls("list"));
  }

  @BothStores
  void aHandlerThatReadsATrackingParameterIsKeyedOnItFromThen(Backend backend) {
    SiteUnderTest site = sites.on(backend).handler("landing", SiteServlets.of((req, res, call) -> {
      res.setContentType("text/html;charset=UTF-8");
      String source = req.getParameter("utm_source");
      res.getWriter().print("<p>welcome, visitor from " + source + "</p>");
    }), "/landing").start();
    Response first = site.get("/landing?utm_source=newsletter");
    assertTrue(first.text().contains("from newsletter"), first.text());
    assertEquals("BYPASS", first.xcache(), "built under a key without it: not stored");
    assertTrue(first.header("Cache-Status").contains("tracking-parameter-read"), first.header("Cache-Status"));
    Response other = site.get("/landing?utm_source=ad");
    assertTrue(other.text().contains("from ad"), "never the first visitor's page: " + other.text());
    assertEquals("MISS", other.xcache());
    assertEquals("HIT", site.get("/landing?utm_source=ad&fbclid=1").xcache(), "fbclid is still out of its key");
    assertTrue(site.get("/landing?utm_source=newsletter").text().contains("from newsletter"));
    Response plain = site.get("/landing");
    assertEquals("MISS", plain.xcache());
    assertTrue(plain.text().contains("from null"), plain.text());
    assertEquals(Map.of("utm_source", 1L), site.cache.stats().handler("landing").keyedParameters(),
        "one build read it while it was out of the key");
    // evict(url) names the page the parameter keys
    assertTrue(site.cache.evict("http://localhost/landing?utm_source=ad&gclid=1").existed());
    assertEquals("MISS", site.get("/landing?utm_source=ad").xcache());
  }

  @BothStores
  void aBuildIsNotShownTrackingParametersInEnumerationsOrTheQueryString(Backend backend) {
    SiteUnderTest site = sites.on(backend).handler("echo", SiteServlets.of((req, res, call) -> {
      res.setContentType("text/html;charset=UTF-8");
      res.getWriter().print("<form>" + new TreeSet<>(req.getParameterMap().keySet()) + " "
          + java.util.Collections.list(req.getParameterNames()) + " ?" + req.getQueryString() + "</form>");
    }), "/echo").start();
    Response first = site.get("/echo?page=2&fbclid=secret-click&utm_source=x");
    assertEquals("MISS", first.xcache());
    assertFalse(first.text().contains("secret-click"), first.text());
    assertFalse(first.text().contains("utm_source"), first.text());
    assertTrue(first.text().contains("[page] [page] ?page=2"), first.text());
    Response next = site.get("/echo?fbclid=other&page=2");
    assertEquals("HIT", next.xcache());
    assertTrue(site.cache.stats().handler("echo").keyedParameters().isEmpty(), "enumerating is not reading one");
  }

  @BothStores
  void settingsAddNamesAndKeepOnes(Backend backend) {
    SiteUnderTest site = sites.on(backend).handler("list", list(), "/list")
        .set("params.ignore", "ref, partner_*").set("params.keep", "utm_source").start();
    assertEquals("MISS", site.get("/list?ref=hn").xcache());
    assertEquals("HIT", site.get("/list?ref=reddit&partner_id=3").xcache());
    assertEquals("MISS", site.get("/list?utm_source=a").xcache(), "params.keep keys utm_source");
    assertEquals("HIT", site.get("/list?utm_source=a&utm_medium=b").xcache(), "utm_medium is still ignored");
  }

  @BothStores
  void keepStarIgnoresNone(Backend backend) {
    SiteUnderTest site = sites.on(backend).handler("list", list(), "/list").set("params.keep", "*").start();
    assertEquals("MISS", site.get("/list").xcache());
    assertEquals("MISS", site.get("/list?fbclid=1").xcache());
    assertEquals("HIT", site.get("/list?fbclid=1").xcache());
  }
}
