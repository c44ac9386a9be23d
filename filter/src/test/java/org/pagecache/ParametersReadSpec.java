package org.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.servlet.Filter;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.pagecache.SiteUnderTest.Backend;
import org.pagecache.SiteUnderTest.BothStores;
import org.pagecache.SiteUnderTest.Response;
import org.pagecache.testing.MemcachedExtension;

/**
 * Specification, on both stores: under {@code params.key=read} (or a policy's {@code params=read}) a
 * page's key holds the query parameters its builds read by name, each present or absent, and no other:
 * cache busters, unknown click ids and random junk are served the page without them. A read that sees
 * every parameter at once keys the handler on the whole query, as {@code params=all} does; a build
 * that read a parameter its key left out is not stored, and the key holds it from then on.
 */
class ParametersReadSpec {
  @RegisterExtension
  static MemcachedExtension memcached = MemcachedExtension.nodes(1);

  @RegisterExtension
  final SiteUnderTest.Sites sites = new SiteUnderTest.Sites(memcached);

  /** An article: reads no parameter. */
  private static SiteServlets.Handler article() {
    return SiteServlets.of((req, res, call) -> {
      res.setContentType("text/html;charset=UTF-8");
      res.getWriter().print("<p>article " + req.getPathInfo() + "</p><p>build " + call + "</p>");
    });
  }

  /** A paged list: reads {@code page}, nothing else. */
  private static SiteServlets.Handler list() {
    return SiteServlets.of((req, res, call) -> {
      res.setContentType("text/html;charset=UTF-8");
      String page = req.getParameter("page");
      res.getWriter().print("<p>page " + (page == null ? "1" : page) + "</p><p>build " + call + "</p>");
    });
  }

  @BothStores
  void cacheBustersAndJunkParametersAreServedThePageWithoutThem(Backend backend) {
    SiteUnderTest site = sites.on(backend).handler("article", article(), "/article/*").set("params.key", "read").start();
    assertEquals("MISS", site.get("/article/7").xcache());
    for (String junk : List.of("_=1733212345678", "cb=91", "v=3", "rnd=0.42", "nocache=1", "ttclid=x", "zz_new_click=9",
        "_=1&cb=2&x=%00%ff", "x=<script>")) {
      Response r = site.get("/article/7?" + junk);
      assertEquals("HIT", r.xcache(), junk);
      assertTrue(r.text().contains("article /7"), r.text());
    }
    assertEquals(1, site.calls("article"));
    assertEquals(9, site.cache.stats().handler("article").parametersLeftOut());
  }

  @BothStores
  void aParameterReadButAbsentIsKeyedAsAbsentSoPageTwoNeverGetsPageOne(Backend backend) {
    SiteUnderTest site = sites.on(backend).handler("list", list(), "/list").set("params.key", "read").start();
    Response first = site.get("/list");
    assertEquals("MISS", first.xcache(), "stored under the key that holds page, absent");
    assertTrue(first.text().contains("page 1"), first.text());
    assertEquals("read: page", site.cache.stats().handler("list").keyedOn());
    Response two = site.get("/list?page=2");
    assertEquals("MISS", two.xcache());
    assertTrue(two.text().contains("page 2"), "never page 1: " + two.text());
    assertEquals("HIT", site.get("/list").xcache());
    Response twoAgain = site.get("/list?_=5&page=2");
    assertEquals("HIT", twoAgain.xcache());
    assertTrue(twoAgain.text().contains("page 2"), twoAgain.text());
    Response oneAgain = site.get("/list?_=6");
    assertEquals("HIT", oneAgain.xcache());
    assertTrue(oneAgain.text().contains("page 1"), oneAgain.text());
    Response empty = site.get("/list?page=");
    assertEquals("MISS", empty.xcache(), "present and empty is not absent");
    assertEquals(3, site.calls("list"));
  }

  private static SiteServlets.Handler readsBOnlyWithA() {
    return SiteServlets.of((req, res, call) -> {
      res.setContentType("text/html;charset=UTF-8");
      String a = req.getParameter("a");
      res.getWriter().print(a == null ? "<p>no a</p>" : "<p>a=" + a + " b=" + req.getParameter("b") + "</p>");
    });
  }

  @BothStores
  void aBuildThatReadsBOnlyWhenAIsPresentGrowsTheRecordAndIsStoredUnderTheWiderKey(Backend backend) {
    SiteUnderTest site = sites.on(backend).handler("c", readsBOnlyWithA(), "/c").set("params.key", "read").start();
    assertEquals("MISS", site.get("/c").xcache(), "reads a: stored under the record {a}, a absent");
    assertEquals("HIT", site.get("/c?b=x").xcache(), "b is read by no build yet");
    assertEquals("read: a", site.cache.stats().handler("c").keyedOn());
    Response x = site.get("/c?a=1&b=x");
    assertEquals("MISS", x.xcache());
    assertTrue(x.text().contains("a=1 b=x"), x.text());
    assertEquals("read: a, b", site.cache.stats().handler("c").keyedOn(), "built under {a}, it read b: the record grew");
    Response y = site.get("/c?a=1&b=y");
    assertTrue(y.text().contains("a=1 b=y"), "never the page of b=x: " + y.text());
    assertEquals("MISS", y.xcache(), "the wider record tells b=y apart");
    assertEquals("HIT", site.get("/c?a=1&b=y&cb=1").xcache());
    Response xAgain = site.get("/c?a=1&b=x");
    assertEquals("HIT", xAgain.xcache());
    assertTrue(xAgain.text().contains("a=1 b=x"), xAgain.text());
    Response noA = site.get("/c?b=z");
    assertTrue(noA.text().contains("no a"), noA.text());
  }

  /**
   * Two servers on one memcached learn on their own: the one that has seen b read keys on {a, b}, the
   * other still on nothing. Neither finds the other's pages through a narrower record, and a page built
   * under the narrower one that read b is stored under the wider key only.
   */
  @Test
  void aServerWithANarrowerRecordNeverServesAPageTheWiderRecordTellsApart() {
    String namespace = "narrow" + ProcessHandle.current().pid() % 1000 + "x" + System.nanoTime() % 100000;
    SiteUnderTest wide = sites.on(Backend.MEMCACHED).handler("c", readsBOnlyWithA(), "/c")
        .set("params.key", "read").set("namespace", namespace).start();
    SiteUnderTest narrow = sites.on(Backend.MEMCACHED).handler("c", readsBOnlyWithA(), "/c")
        .set("params.key", "read").set("namespace", namespace).start();
    assertEquals("MISS", wide.get("/c?a=1&b=x").xcache());
    assertEquals("read: a, b", wide.cache.stats().handler("c").keyedOn());
    Response y = narrow.get("/c?a=1&b=y");
    assertTrue(y.text().contains("a=1 b=y"), "never the other server's b=x: " + y.text());
    assertEquals("MISS", y.xcache());
    Response x = narrow.get("/c?a=1&b=x&_=3");
    assertEquals("HIT", x.xcache(), "the same record now: the other server's page, keyed the same");
    assertTrue(x.text().contains("a=1 b=x"), x.text());
    assertEquals("HIT", wide.get("/c?a=1&b=y").xcache());
  }

  /**
   * A parameter read but absent is part of the key as absent, not left out: a server whose record
   * lacks it must not find the page another server built reading it absent. Here the handler reads
   * {@code a} only when {@code b=1}; one server has seen only {@code b=2} (record {b}).
   */
  @Test
  void aPageBuiltReadingAParameterAbsentNeverAnswersARequestCarryingIt() {
    String namespace = "absent" + ProcessHandle.current().pid() % 1000 + "x" + System.nanoTime() % 100000;
    SiteServlets.Handler handler = SiteServlets.of((req, res, call) -> {
      res.setContentType("text/html;charset=UTF-8");
      String b = req.getParameter("b");
      res.getWriter().print("<p>b=" + b + ("1".equals(b) ? " a=" + req.getParameter("a") : "") + "</p>");
    });
    SiteUnderTest onlyB = sites.on(Backend.MEMCACHED).handler("d", handler, "/d")
        .set("params.key", "read").set("namespace", namespace).start();
    SiteUnderTest both = sites.on(Backend.MEMCACHED).handler("d", handler, "/d")
        .set("params.key", "read").set("namespace", namespace).start();
    assertEquals("MISS", onlyB.get("/d?b=2").xcache());
    assertEquals("read: b", onlyB.cache.stats().handler("d").keyedOn());
    Response absent = both.get("/d?b=1");
    assertTrue(absent.text().contains("b=1 a=null"), absent.text());
    assertEquals("read: a, b", both.cache.stats().handler("d").keyedOn());
    Response present = onlyB.get("/d?a=5&b=1");
    assertTrue(present.text().contains("b=1 a=5"), "never the page built with a absent: " + present.text());
  }

  /** The reads that see every parameter at once. */
  private static final Map<String, SiteServlets.Handler.Body> WHOLE_READS = Map.of(
      "getQueryString", (req, res, call) -> res.getWriter().print("<p>?" + req.getQueryString() + "</p>"),
      "getParameterMap", (req, res, call) -> res.getWriter().print("<p>" + req.getParameterMap().keySet() + "</p>"),
      "getParameterNames", (req, res, call) -> res.getWriter().print("<p>"
          + Collections.list(req.getParameterNames()) + "</p>"),
      "forward query attribute", (req, res, call) -> res.getWriter().print("<p>"
          + req.getAttribute("jakarta.servlet.forward.query_string") + "</p>"),
      "request URL with its query", (req, res, call) -> res.getWriter().print("<p>" + req.getRequestURL()
          + (req.getQueryString() == null ? "" : "?" + req.getQueryString()) + "</p>"));

  @BothStores
  void aReadThatSeesEveryParameterKeysTheHandlerOnTheWholeQuery(Backend backend) {
    int n = 0;
    for (Map.Entry<String, SiteServlets.Handler.Body> read : WHOLE_READS.entrySet()) {
      SiteUnderTest site = sites.on(backend).handler("echo", SiteServlets.of(read.getValue()), "/echo")
          .set("params.key", "read").set("namespace", "whole" + n++).start();
      String what = read.getKey();
      Response first = site.get("/echo?x=1");
      assertEquals("BYPASS", first.xcache(), what);
      assertTrue(first.header("Cache-Status").contains("all-parameters-read"), what + ": " + first.header("Cache-Status"));
      assertEquals("MISS", site.get("/echo?x=1").xcache(), what);
      assertEquals("MISS", site.get("/echo?x=1&_=5").xcache(), what + ": every parameter keys the page, as params=all");
      assertEquals("HIT", site.get("/echo?x=1&_=5").xcache(), what);
      assertEquals("MISS", site.get("/echo").xcache(), what);
      assertEquals("HIT", site.get("/echo?utm_source=news").xcache(), what + ": tracking parameters are still out");
      assertEquals("all", site.cache.stats().handler("echo").keyedOn(), what);
      site.close();
    }
  }

  /** A filter before PageCache's that takes the visitor's language from {@code ?lang=} into a request attribute. */
  private static final Filter LANG_FILTER = (request, response, chain) -> {
    String lang = request.getParameter("lang");
    request.setAttribute("lang", lang == null ? "en" : lang);
    chain.doFilter(request, response);
  };

  private static SiteServlets.Handler home() {
    return SiteServlets.of((req, res, call) -> {
      res.setContentType("text/html;charset=UTF-8");
      res.getWriter().print("<p>lang " + req.getAttribute("lang") + "</p>");
    });
  }

  @BothStores
  void aParameterAnEarlierFilterCopiedIntoAnAttributeCountsAsReadWhenABuildSeesIt(Backend backend) {
    SiteUnderTest site = sites.on(backend).before(LANG_FILTER).handler("home", home(), "/home")
        .set("params.key", "read").start();
    Response fr = site.get("/home?lang=fr");
    assertTrue(fr.text().contains("lang fr"), fr.text());
    assertEquals("MISS", fr.xcache());
    assertEquals("read: lang", site.cache.stats().handler("home").keyedOn(),
        "the attribute the build read holds the parameter's value: the parameter was read");
    Response de = site.get("/home?lang=de");
    assertEquals("MISS", de.xcache());
    assertTrue(de.text().contains("lang de"), de.text());
    assertTrue(site.get("/home?lang=fr").text().contains("lang fr"));
    assertTrue(site.get("/home").text().contains("lang en"));
    assertTrue(site.get("/home?lang=fr&_=1").text().contains("lang fr"));
    assertTrue(site.cache.evict("http://localhost/home").existed());
    Response junk = site.get("/home?lan=en&ng=en&x=en");
    assertEquals("MISS", junk.xcache(), "built again: the attribute lang, en, is read");
    assertEquals("read: lang", site.cache.stats().handler("home").keyedOn(),
        "parameters not named like the attribute are not keyed, whatever their value");
    assertEquals("HIT", site.get("/home?lan=zz").xcache());
  }

  @BothStores
  void paramsKeepKeysAParameterReadBeforeTheFilterFromTheStart(Backend backend) {
    SiteUnderTest site = sites.on(backend).before(LANG_FILTER).handler("home", home(), "/home")
        .set("params.key", "read").set("params.keep", "lang").start();
    assertEquals("MISS", site.get("/home").xcache());
    Response fr = site.get("/home?lang=fr");
    assertEquals("MISS", fr.xcache(), "lang keys the page from the start, though no build was seen reading it");
    assertTrue(fr.text().contains("lang fr"), fr.text());
    assertEquals("HIT", site.get("/home?lang=fr&cb=2").xcache());
    assertTrue(site.get("/home?cb=3").text().contains("lang en"));
  }

  @BothStores
  void evictingTheUrlRemovesThePageAJunkParameterWasServed(Backend backend) {
    SiteUnderTest site = sites.on(backend).handler("article", article(), "/article/*").set("params.key", "read").start();
    assertEquals("MISS", site.get("/article/7?_=1").xcache());
    assertEquals("HIT", site.get("/article/7").xcache());
    assertTrue(site.cache.evict("http://localhost/article/7").existed());
    assertEquals("MISS", site.get("/article/7?_=2").xcache());
    assertTrue(site.cache.evict("http://localhost/article/7?cb=3").existed(), "the junk names the same page");
    assertEquals("MISS", site.get("/article/7").xcache());
  }

  @BothStores
  void aWriteToARefreshedByPathRefreshesThePageAJunkParameterWasServed(Backend backend) {
    SiteServlets.Handler edit = SiteServlets.of((req, res, call) -> res.getWriter().print("form"));
    edit.writes.set((req, res, call) -> res.setStatus(204));
    SiteUnderTest site = sites.on(backend).handler("article", article(), "/article/*").handler("edit", edit, "/edit/*")
        .set("params.key", "read").set("policies", "article: refreshed-by=/edit/*").start();
    assertEquals("MISS", site.get("/article/7?_=1").xcache());
    assertEquals("HIT", site.get("/article/7?cb=2").xcache());
    assertEquals(204, site.send("POST", "/edit/7").status());
    String after = site.get("/article/7?v=3").xcache();
    assertTrue(after.equals("STALE") || after.equals("MISS"), "refreshed: " + after);
  }

  @BothStores
  void aPolicyOverridesTheSiteWideSetting(Backend backend) {
    SiteUnderTest site = sites.on(backend).handler("article", article(), "/article/*").handler("other", article(), "/other/*")
        .set("policies", "article: params=read").start();
    assertEquals("MISS", site.get("/article/7").xcache());
    assertEquals("HIT", site.get("/article/7?_=1").xcache());
    assertEquals("MISS", site.get("/other/7").xcache());
    assertEquals("MISS", site.get("/other/7?_=1").xcache(), "params=all, the default: the whole query keys the page");
  }

  @BothStores
  void trackingParametersAndParamsIgnoreKeepWorkingForWholeQueryHandlers(Backend backend) {
    SiteUnderTest site = sites.on(backend).handler("list", list(), "/list").set("params.key", "read")
        .set("policies", "list: params=all").set("params.ignore", "ref").start();
    assertEquals("MISS", site.get("/list?page=2").xcache());
    assertEquals("HIT", site.get("/list?page=2&ref=hn&utm_source=x").xcache());
    assertEquals("MISS", site.get("/list?page=2&_=1").xcache());
  }

  @Test
  void aBadValueFailsStartUpNamingIt() {
    IllegalArgumentException site = assertThrows(IllegalArgumentException.class,
        () -> PageCacheConfig.builder().set("params.key", "some").build());
    assertTrue(site.getMessage().contains("params.key: 'some' is not accepted; use read"), site.getMessage());
    IllegalArgumentException policy = assertThrows(IllegalArgumentException.class,
        () -> PageCacheConfig.builder().set("policies", "list: params=reads").build());
    assertTrue(policy.getMessage().contains("policies[list].params: 'reads' is not accepted"), policy.getMessage());
  }
}
