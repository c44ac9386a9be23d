package org.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.servlet.AsyncContext;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.pagecache.stats.HandlerStats;
import org.pagecache.store.Store;
import org.pagecache.store.StoreException;
import org.pagecache.testing.Eventually;
import org.pagecache.testing.ForwardingStore;
import org.pagecache.testing.KeepAliveClient;
import org.pagecache.testing.MemcachedExtension;
import org.pagecache.testing.RecordingStore;

/**
 * Stale pages rebuilt off the visitor's request ({@code rebuild.background}, docs/freshness.md), on
 * real memcached and embedded Jetty over real HTTP. Builds are held at a latch: every answer a test
 * asserts arrives while the build it would have waited for is still held.
 */
class BackgroundRebuildTest {
  @RegisterExtension
  static MemcachedExtension memcached = MemcachedExtension.nodes(1);

  @RegisterExtension
  final CachedSite.Sites sites = new CachedSite.Sites(memcached);

  /** Long enough that a test which waits for a held build fails instead of hanging; never reached when it passes. */
  private static final int ANSWER_TIMEOUT_MILLIS = 10_000;

  /** Builds after the first (the warm-up) are held: each counts {@code started} down, then waits for {@code gate}. */
  private final AtomicReference<CountDownLatch> started = new AtomicReference<>(new CountDownLatch(0));
  private final AtomicReference<CountDownLatch> gate = new AtomicReference<>(new CountDownLatch(0));
  /** What the builds saw of the request: the secret header and cookies must never reach the handler. */
  private final Queue<String> seen = new ConcurrentLinkedQueue<>();
  /** Thrown by held builds once their gate opens: a CMS that fails mid-build. */
  private final AtomicReference<RuntimeException> failing = new AtomicReference<>();

  private SiteServlets.Handler heldPage() {
    return SiteServlets.of((req, res, call) -> {
      seen.add("rebuild-header=" + req.getHeader(BackgroundRebuilds.HEADER) + " cookie=" + req.getHeader("Cookie"));
      if (call > 1) {
        hold();
        RuntimeException failure = failing.get();
        if (failure != null) {
          throw failure;
        }
      }
      res.setContentType("text/html;charset=UTF-8");
      res.getWriter().print("<p>" + req.getRequestURI() + " version " + call + "</p>");
    });
  }

  private void hold() {
    started.get().countDown();
    try {
      gate.get().await(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static String host(CachedSite site) {
    return "127.0.0.1:" + site.jetty.port();
  }

  /**
   * params.key=read (issue 47): the rebuild replays the visitor's URL, junk parameter and all; its
   * page is keyed as the visitor's was (on the parameter the page reads), so it replaces the stale one.
   */
  @Test
  void aRebuildOfAPageKeyedOnTheParametersItReadsReplacesThePageTheJunkWasServed() throws Exception {
    SiteServlets.Handler h = SiteServlets.of((req, res, call) -> {
      String page = req.getParameter("page");
      if (call > 1) {
        hold();
      }
      res.setContentType("text/html;charset=UTF-8");
      res.getWriter().print("<p>" + req.getRequestURI() + " page " + page + " version " + call + "</p>");
    });
    CachedSite site = sites.open().handler("bg", h, "/bg/*").set("params.key", "read").start();
    try (KeepAliveClient client = new KeepAliveClient(site.jetty.port(), host(site), ANSWER_TIMEOUT_MILLIS)) {
      assertEquals("MISS", client.get("/bg/1?page=2&_=1").xCache());
      assertEquals("HIT", client.get("/bg/1?cb=9&page=2").xCache());
      site.cache.refreshHandler("bg");
      started.set(new CountDownLatch(1));
      gate.set(new CountDownLatch(1));
      KeepAliveClient.Answer stale = client.get("/bg/1?page=2&_=77");
      assertEquals("STALE", stale.xCache());
      assertTrue(stale.body().contains("page 2 version 1"), stale.body());
      assertTrue(started.get().await(30, TimeUnit.SECONDS), "the rebuild runs, off the visitor's request");
      gate.get().countDown();
      Eventually.assertWithin(Duration.ofSeconds(30), "the background build stored the page",
          () -> site.cache.engine.background.inFlight() == 0 && site.cache.stats("bg").rebuilds() == 2);
      KeepAliveClient.Answer after = client.get("/bg/1?page=2");
      assertEquals("HIT", after.xCache());
      assertTrue(after.body().contains("page 2 version 2"), after.body());
      assertEquals("read: page", site.cache.stats("bg").keyedOn());
    }
    assertEquals(1, site.cache.stats("bg").backgroundRebuilds());
  }

  @Test
  void theVisitorWhoWinsTheLockIsAnsweredStaleAtOnceAndSoIsTheirNextRequestOnTheConnection() throws Exception {
    SiteServlets.Handler h = heldPage();
    CachedSite site = sites.open().handler("bg", h, "/bg/*").start();
    try (KeepAliveClient client = new KeepAliveClient(site.jetty.port(), host(site), ANSWER_TIMEOUT_MILLIS)) {
      assertEquals("MISS", client.get("/bg/1").xCache());
      site.cache.refreshHandler("bg");
      started.set(new CountDownLatch(1));
      gate.set(new CountDownLatch(1));

      long deletes = memcached.text(0).deleteHits();
      KeepAliveClient.Answer first = client.get("/bg/1", "Cookie: _ga=GA1.2.3");
      assertEquals(200, first.status());
      assertEquals("STALE", first.xCache(), "the lock winner gets the stale copy, as the losers do");
      assertTrue(first.body().contains("version 1"), first.body());
      assertTrue(started.get().await(30, TimeUnit.SECONDS), "the rebuild runs, off the visitor's request");
      assertEquals(2, h.calls.get());

      KeepAliveClient.Answer next = client.get("/bg/1");
      assertEquals("STALE", next.xCache(), "the next request on the same connection does not wait either");
      assertTrue(next.body().contains("version 1"));
      assertEquals(2, h.calls.get(), "one rebuild: the lock is held by the background build");

      gate.get().countDown();
      Eventually.assertWithin(Duration.ofSeconds(30), "the background build stored the page",
          () -> site.cache.engine.background.inFlight() == 0 && site.cache.stats("bg").rebuilds() == 2);
      KeepAliveClient.Answer after = client.get("/bg/1");
      assertEquals("HIT", after.xCache());
      assertTrue(after.body().contains("version 2"), after.body());
      memcached.text(0).assertDeletedSince(site.lockKey("bg", "/bg/1"), deletes, "the lock was given back");
    }
    HandlerStats stats = site.cache.stats("bg");
    assertEquals(1, stats.backgroundRebuilds());
    assertEquals(0, stats.backgroundFailures());
    assertEquals(2, h.calls.get(), "built once more, in the background");
    for (String s : seen) {
      assertTrue(s.startsWith("rebuild-header=null "), "the handler never sees the secret header: " + s);
    }
    assertTrue(seen.stream().skip(1).allMatch(s -> s.endsWith("cookie=null")), "the background request carries no cookie");
  }

  @Test
  void anAsyncHandlerIsRebuiltInTheBackgroundToo() throws Exception {
    SiteServlets.Handler h = SiteServlets.of((req, res, call) -> {
      AsyncContext async = req.startAsync();
      async.start(() -> {
        if (call > 1) {
          hold();
        }
        try {
          res.setContentType("text/plain");
          res.getWriter().print("async version " + call);
        } catch (IOException e) {
          throw new IllegalStateException(e);
        }
        async.complete();
      });
    });
    CachedSite site = sites.open().handler("async", h, "/async").start();
    try (KeepAliveClient client = new KeepAliveClient(site.jetty.port(), host(site), ANSWER_TIMEOUT_MILLIS)) {
      assertEquals("async version 1", client.get("/async").body());
      assertEquals("HIT", client.get("/async").xCache());
      site.cache.refreshHandler("async");
      started.set(new CountDownLatch(1));
      gate.set(new CountDownLatch(1));
      KeepAliveClient.Answer stale = client.get("/async");
      assertEquals("STALE", stale.xCache());
      assertEquals("async version 1", stale.body());
      assertTrue(started.get().await(30, TimeUnit.SECONDS));
      assertEquals("STALE", client.get("/async").xCache(), "the async build holds the lock until it completes");
      gate.get().countDown();
      Eventually.assertWithin(Duration.ofSeconds(30), "the async build stored the page",
          () -> site.cache.stats("async").rebuilds() == 2);
      KeepAliveClient.Answer after = client.get("/async");
      assertEquals("HIT", after.xCache());
      assertEquals("async version 2", after.body());
    }
    assertEquals(2, h.calls.get());
  }

  @Test
  void afterARefreshNoVisitorWaitsAndEachPageIsBuiltOnce() throws Exception {
    SiteServlets.Handler h = heldPage();
    CachedSite site = sites.open().set("rebuild.background", "32").handler("section", h, "/section/*").start();
    int pages = 20;
    for (int i = 0; i < pages; i++) {
      assertEquals(200, site.get("/section/" + i).statusCode());
    }
    site.cache.refreshHandler("section");
    h.calls.set(1); // every build from here on is held
    started.set(new CountDownLatch(pages));
    gate.set(new CountDownLatch(1));
    List<KeepAliveClient.Answer> answers = new ArrayList<>();
    try (KeepAliveClient client = new KeepAliveClient(site.jetty.port(), host(site), ANSWER_TIMEOUT_MILLIS)) {
      for (int round = 0; round < 2; round++) {
        for (int i = 0; i < pages; i++) {
          answers.add(client.get("/section/" + i));
        }
      }
      assertTrue(started.get().await(30, TimeUnit.SECONDS), "every page is being rebuilt");
      for (KeepAliveClient.Answer a : answers) {
        assertEquals("STALE", a.xCache(), "the previous page, at once");
        assertTrue(a.body().contains("version "), a.body());
      }
      assertEquals(1 + pages, h.calls.get(), "one build per page");
      gate.get().countDown();
      Eventually.assertWithin(Duration.ofSeconds(30), "every page rebuilt",
          () -> site.cache.stats("section").rebuiltSinceRefresh() == pages);
      for (int i = 0; i < pages; i++) {
        assertEquals("HIT", client.get("/section/" + i).xCache());
      }
    }
    assertEquals(pages, site.cache.stats("section").backgroundRebuilds());
  }

  @Test
  void twoFrontendsSharingMemcachedRebuildAPageOnceBetweenThem() throws Exception {
    SiteServlets.Handler a = heldPage();
    SiteServlets.Handler b = heldPage();
    CachedSite one = sites.open().set("namespace", "twofronts" + System.nanoTime() % 100000).set("near.trust", "0s");
    CachedSite two = sites.open().set("namespace", one.params.get("namespace")).set("near.trust", "0s");
    one.handler("news", a, "/news/*").start();
    two.handler("news", b, "/news/*").start();
    String host = "site.test";
    try (KeepAliveClient c1 = new KeepAliveClient(one.jetty.port(), host, ANSWER_TIMEOUT_MILLIS);
        KeepAliveClient c2 = new KeepAliveClient(two.jetty.port(), host, ANSWER_TIMEOUT_MILLIS)) {
      assertEquals("MISS", c1.get("/news/1").xCache());
      assertEquals("HIT", c2.get("/news/1").xCache(), "one page for both frontends");
      a.calls.set(1);
      b.calls.set(1);
      one.cache.refreshHandler("news");
      started.set(new CountDownLatch(1));
      gate.set(new CountDownLatch(1));
      ExecutorService pool = Executors.newFixedThreadPool(16);
      try {
        List<Future<KeepAliveClient.Answer>> answers = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
          CachedSite site = i % 2 == 0 ? one : two;
          answers.add(pool.submit(() -> {
            try (KeepAliveClient c = new KeepAliveClient(site.jetty.port(), host, ANSWER_TIMEOUT_MILLIS)) {
              return c.get("/news/1");
            }
          }));
        }
        for (Future<KeepAliveClient.Answer> f : answers) {
          assertEquals("STALE", f.get(30, TimeUnit.SECONDS).xCache(), "answered while the one build is held");
        }
      } finally {
        pool.shutdownNow();
      }
      assertTrue(started.get().await(30, TimeUnit.SECONDS));
      assertEquals("STALE", c1.get("/news/1").xCache());
      assertEquals("STALE", c2.get("/news/1").xCache());
      assertEquals(1, (a.calls.get() - 1) + (b.calls.get() - 1), "one background build cluster-wide");
      gate.get().countDown();
      Eventually.assertWithin(Duration.ofSeconds(30), "the page rebuilt",
          () -> one.cache.stats("news").rebuilds() + two.cache.stats("news").rebuilds() == 2);
      assertEquals("HIT", c1.get("/news/1").xCache());
      assertEquals("HIT", c2.get("/news/1").xCache());
    }
    assertEquals(1, one.cache.stats("news").backgroundRebuilds() + two.cache.stats("news").backgroundRebuilds());
  }

  @Test
  void aBackgroundBuildThatFailsLeavesTheStaleCopyServed() throws Exception {
    SiteServlets.Handler h = heldPage();
    CachedSite site = sites.open().handler("fails", h, "/fails").start();
    try (KeepAliveClient client = new KeepAliveClient(site.jetty.port(), host(site), ANSWER_TIMEOUT_MILLIS)) {
      client.get("/fails");
      site.cache.refreshHandler("fails");
      failing.set(new IllegalStateException("the CMS is down"));
      started.set(new CountDownLatch(1));
      gate.set(new CountDownLatch(1));
      KeepAliveClient.Answer stale = client.get("/fails");
      assertEquals("STALE", stale.xCache());
      assertTrue(started.get().await(30, TimeUnit.SECONDS));
      gate.get().countDown(); // the build goes on, and throws
      Eventually.assertWithin(Duration.ofSeconds(30), "the failure is counted",
          () -> site.cache.stats("fails").backgroundFailures() == 1 && site.cache.engine.background.inFlight() == 0);
      KeepAliveClient.Answer again = client.get("/fails");
      assertEquals(200, again.status());
      assertEquals("STALE", again.xCache());
      assertTrue(again.body().contains("version 1"), "stale-if-error: the old copy is still served: " + again.body());
      Eventually.assertWithin(Duration.ofSeconds(30), "its rebuild failed too",
          () -> site.cache.stats("fails").backgroundFailures() == 2 && site.cache.engine.background.inFlight() == 0);
      assertEquals(1, site.cache.stats("fails").rebuilds(), "nothing stored over the stale copy");
      failing.set(null);
      long deletes = memcached.text(0).deleteHits();
      assertEquals("STALE", client.get("/fails").xCache());
      Eventually.assertWithin(Duration.ofSeconds(30), "a later request rebuilds it",
          () -> site.cache.stats("fails").rebuilds() == 2);
      assertEquals("HIT", client.get("/fails").xCache());
      memcached.text(0).assertDeletedSince(site.lockKey("fails", "/fails"), deletes, "its lock given back");
    }
  }

  /**
   * rebuild.background=1: one rebuild builds, one more waits for it holding its lock (issue 44: a
   * stale page is served only while a rebuild of it is in flight), and past that queue the stale
   * page is served, its lease given back at once, and a later request rebuilds it.
   */
  @Test
  void pastTheBoundAndItsQueueTheStalePageIsServedAndALaterRequestRebuildsIt() throws Exception {
    SiteServlets.Handler h = heldPage();
    CachedSite site = sites.open().set("rebuild.background", "1").set("admin.token", "t0ken").handler("few", h, "/few/*")
        .with(ctx -> org.pagecache.testing.JettyServer.servlet(ctx, "pagecache-admin",
            new org.pagecache.admin.PageCacheAdminServlet(), "/cache-admin/*"))
        .start();
    for (int i = 1; i <= 3; i++) {
      site.get("/few/" + i);
    }
    site.cache.refreshHandler("few");
    h.calls.set(3);
    started.set(new CountDownLatch(1));
    gate.set(new CountDownLatch(1));
    try (KeepAliveClient client = new KeepAliveClient(site.jetty.port(), host(site), ANSWER_TIMEOUT_MILLIS)) {
      assertEquals("STALE", client.get("/few/1").xCache());
      assertTrue(started.get().await(30, TimeUnit.SECONDS));
      assertEquals("STALE", client.get("/few/2").xCache(), "the one background build is under way: served stale");
      assertEquals(2, site.cache.engine.background.inFlight(), "its rebuild waits for the one under way");
      assertNotNull(memcached.text(0).get(site.lockKey("few", "/few/2")), "holding its lock meanwhile");
      long deletes = memcached.text(0).deleteHits();
      assertEquals("STALE", client.get("/few/3").xCache(), "past the queue too: served stale");
      assertEquals(1, site.cache.stats("few").backgroundSkipped());
      memcached.text(0).assertDeletedSince(site.lockKey("few", "/few/3"), deletes, "its lease given back at once");
      assertEquals(4, h.calls.get(), "nothing built for /few/2 and /few/3 yet");
      gate.get().countDown();
      Eventually.assertWithin(Duration.ofSeconds(30), "the rebuild under way and the one waiting ended",
          () -> site.cache.engine.background.inFlight() == 0 && site.cache.stats("few").rebuilds() == 5);
      assertEquals("HIT", client.get("/few/2").xCache(), "rebuilt once the first one ended");
      assertEquals("STALE", client.get("/few/3").xCache(), "a later request hands it to the background");
      Eventually.assertWithin(Duration.ofSeconds(30), "then it is rebuilt",
          () -> site.cache.stats("few").rebuilds() == 6);
      assertEquals("HIT", client.get("/few/3").xCache());
    }
    String stats = org.pagecache.testing.Http.text(org.pagecache.testing.Http.get(site.uri("/cache-admin/api/stats"),
        "Authorization", "Bearer t0ken"));
    assertTrue(stats.contains("\"background\":{\"rebuilds\":3,\"skipped\":1,\"failures\":0,\"notStored\":0}"),
        stats);
    String page = org.pagecache.testing.Http.text(org.pagecache.testing.Http.get(site.uri("/cache-admin/"),
        "Authorization", "Bearer t0ken"));
    assertTrue(page.contains("Stale pages rebuilt in the background: 3 (1 skipped"), page);
  }

  /**
   * Issue 44: a background rebuild whose page memcached does not take (a node failing) leaves the
   * page to its next visitor on this JVM, who builds it in the foreground and gets the new page,
   * rather than every reader keeping the old one until a later background rebuild stores it.
   */
  @Test
  void aBackgroundBuildMemcachedDidNotTakeIsBuiltByTheNextVisitorInTheForeground() throws Exception {
    SiteServlets.Handler h = heldPage();
    AtomicBoolean setsFail = new AtomicBoolean();
    Store store = new ForwardingStore(RecordingStore.onMemcached(memcached.servers())) {
      @Override
      protected <T> T forward(String op, Collection<String> keys, Supplier<T> call) {
        if (setsFail.get() && op.equals("set")) {
          throw new StoreException("test: memcached does not take the page");
        }
        return call.get();
      }
    };
    CachedSite site = sites.open().store(store).handler("lost", h, "/lost").start();
    try (KeepAliveClient client = new KeepAliveClient(site.jetty.port(), host(site), ANSWER_TIMEOUT_MILLIS)) {
      assertEquals("MISS", client.get("/lost").xCache());
      site.cache.refreshHandler("lost");
      setsFail.set(true);
      assertEquals("STALE", client.get("/lost").xCache());
      Eventually.assertWithin(Duration.ofSeconds(30), "the background build ended, not stored",
          () -> site.cache.engine.background.inFlight() == 0 && site.cache.stats("lost").backgroundNotStored() == 1);
      assertEquals(2, h.calls.get(), "built in the background");
      setsFail.set(false);

      KeepAliveClient.Answer next = client.get("/lost");
      assertEquals("MISS", next.xCache(), "the next visitor builds it in the foreground");
      assertTrue(next.body().contains("version 3"), next.body());
      assertEquals("HIT", client.get("/lost").xCache());
      assertTrue(client.get("/lost").body().contains("version 3"));
    }
    HandlerStats stats = site.cache.stats("lost");
    assertEquals(1, stats.backgroundRebuilds());
    assertEquals(0, stats.backgroundFailures(), "built: not a failure of the handler");
  }

  @Test
  void aStoppingJvmGivesBackTheLocksOfItsRebuildsInFlight() throws Exception {
    SiteServlets.Handler h = heldPage();
    CachedSite site = sites.open().handler("stop", h, "/stop").start();
    String lockKey;
    try (KeepAliveClient client = new KeepAliveClient(site.jetty.port(), host(site), ANSWER_TIMEOUT_MILLIS)) {
      client.get("/stop");
      site.cache.refreshHandler("stop");
      lockKey = site.lockKey("stop", "/stop");
      started.set(new CountDownLatch(1));
      gate.set(new CountDownLatch(1));
      assertEquals("STALE", client.get("/stop").xCache());
      assertTrue(started.get().await(30, TimeUnit.SECONDS));
      assertNotNull(memcached.text(0).get(lockKey), "the background build holds the lock");
    }
    try {
      long deletes = memcached.text(0).deleteHits();
      site.close(); // the server stops with the build still held
      memcached.text(0).assertDeletedSince(lockKey, deletes, "no lock left behind the stopped JVM");
    } finally {
      gate.get().countDown();
    }
  }

  @Test
  void aForgedRebuildHeaderIsAnOrdinaryRequestAndNeverReachesTheHandler() throws Exception {
    SiteServlets.Handler h = heldPage();
    CachedSite site = sites.open().handler("forged", h, "/forged").start();
    try (KeepAliveClient client = new KeepAliveClient(site.jetty.port(), host(site), ANSWER_TIMEOUT_MILLIS)) {
      assertEquals("MISS", client.get("/forged", BackgroundRebuilds.HEADER + ": 1.00ff").xCache());
      assertEquals("HIT", client.get("/forged", BackgroundRebuilds.HEADER + ": 1.00ff").xCache());
    }
    assertEquals(1, h.calls.get());
    assertEquals("rebuild-header=null cookie=null", seen.peek());
  }

  @Test
  void withRebuildBackgroundZeroTheWinnerBuildsAsBefore() throws Exception {
    SiteServlets.Handler h = heldPage();
    CachedSite site = sites.open().set("rebuild.background", "0").handler("off", h, "/off").start();
    try (KeepAliveClient client = new KeepAliveClient(site.jetty.port(), host(site), ANSWER_TIMEOUT_MILLIS)) {
      client.get("/off");
      site.cache.refreshHandler("off");
      KeepAliveClient.Answer rebuilt = client.get("/off");
      assertEquals("MISS", rebuilt.xCache());
      assertTrue(rebuilt.body().contains("version 2"));
    }
    assertEquals(0, site.cache.stats("off").backgroundRebuilds());
  }

  /**
   * README step 4: an editor's save (a POST through the filter) invalidates the article's tag, and the
   * article shows the new title on its next request; the same invalidation from a script is a
   * background rebuild.
   */
  @Test
  void anEditMadeThroughTheApplicationShowsOnTheNextRequest() throws Exception {
    AtomicReference<String> title = new AtomicReference<>("old title");
    SiteServlets.Handler article = SiteServlets.of((req, res, call) -> {
      PageCache.tag(req, "article:7");
      res.setContentType("text/html;charset=UTF-8");
      res.getWriter().print("<h1>" + title.get() + "</h1>");
    });
    SiteServlets.Handler editor = SiteServlets.of((req, res, call) -> { });
    CachedSite site = sites.open().handler("article", article, "/article/*").handler("cms", editor, "/cms/*").start();
    editor.writes.set((req, res, call) -> {
      title.set(req.getParameter("title"));
      PageCache.from(req.getServletContext()).invalidateTag("article:7"); // as the demo's EditorServlet does
      res.setStatus(303);
      res.setHeader("Location", "/cms/edit?saved=invalidated"); // not the article: its eviction would hide the tag
    });
    try (KeepAliveClient client = new KeepAliveClient(site.jetty.port(), host(site), ANSWER_TIMEOUT_MILLIS)) {
      assertEquals("MISS", client.get("/article/7").xCache());
      assertEquals("HIT", client.get("/article/7").xCache());
      assertEquals(303, org.pagecache.testing.Http.post(site.uri("/cms/edit"), "title=new+title",
          "Content-Type", "application/x-www-form-urlencoded").statusCode());
      KeepAliveClient.Answer next = client.get("/article/7");
      assertEquals("MISS", next.xCache(), "the editor's change is built for its next request");
      assertTrue(next.body().contains("new title"), next.body());

      title.set("third title");
      site.cache.invalidateTag("article:7"); // a script, not a write through the application
      KeepAliveClient.Answer stale = client.get("/article/7");
      assertEquals("STALE", stale.xCache(), "rebuilt in the background");
      assertTrue(stale.body().contains("new title"));
      Eventually.assertWithin(Duration.ofSeconds(30), "rebuilt", () -> site.cache.stats("article").rebuilds() == 3);
      assertTrue(client.get("/article/7").body().contains("third title"));
    }
    assertEquals(1, site.cache.stats("article").backgroundRebuilds());
  }

  @Test
  void aBackgroundRebuildCountsNoViewOfThePage() throws Exception {
    SiteServlets.Handler article = SiteServlets.of((req, res, call) -> {
      PageCache.countView(req, "article:9");
      if (call > 1) {
        hold();
      }
      res.setContentType("text/html;charset=UTF-8");
      res.getWriter().print("<p>version " + call + ", views: <!--pagecache:views article:9--></p>");
    });
    CachedSite site = sites.open().set("counters", "local-aggregation=0s").handler("counted", article, "/counted").start();
    try (KeepAliveClient client = new KeepAliveClient(site.jetty.port(), host(site), ANSWER_TIMEOUT_MILLIS)) {
      client.get("/counted");
      site.cache.refreshHandler("counted");
      started.set(new CountDownLatch(1));
      gate.set(new CountDownLatch(1));
      assertEquals("STALE", client.get("/counted").xCache());
      assertTrue(started.get().await(30, TimeUnit.SECONDS));
      gate.get().countDown();
      Eventually.assertWithin(Duration.ofSeconds(30), "rebuilt", () -> site.cache.stats("counted").rebuilds() == 2
          && site.cache.engine.background.inFlight() == 0);
      assertEquals(2, site.cache.counters().views("article:9"), "two visitors' views; the background request is none");
      KeepAliveClient.Answer third = client.get("/counted");
      assertTrue(third.body().contains("version 2, views: 3"), third.body());
    }
  }

  /**
   * RFC 5861 section 3: within stale-while-revalidate the stale response is served and revalidated
   * in the background, to the request that finds it stale too; past the window a request waits.
   */
  @Test
  void withCacheControlHonorStaleWhileRevalidateServesStaleAndRevalidatesInTheBackground() throws Exception {
    org.pagecache.testing.MutableClock clock = new org.pagecache.testing.MutableClock();
    SiteServlets.Handler h = SiteServlets.of((req, res, call) -> {
      if (call == 2) {
        hold();
      }
      res.setHeader("Cache-Control", "max-age=60, stale-while-revalidate=30");
      res.setContentType("text/plain");
      res.getWriter().print("version " + call);
    });
    CachedSite site = sites.open().clock(clock).set("policies", "swr: ttl=60s, grace=10m, cache-control=honor")
        .handler("swr", h, "/swr").start();
    try (KeepAliveClient client = new KeepAliveClient(site.jetty.port(), host(site), ANSWER_TIMEOUT_MILLIS)) {
      assertEquals("version 1", client.get("/swr").body());
      clock.advance(Duration.ofSeconds(70)); // 10 s into the 30 s window
      started.set(new CountDownLatch(1));
      gate.set(new CountDownLatch(1));
      KeepAliveClient.Answer inWindow = client.get("/swr");
      assertEquals("STALE", inWindow.xCache(), "served stale at once within stale-while-revalidate");
      assertEquals("version 1", inWindow.body());
      assertTrue(started.get().await(30, TimeUnit.SECONDS), "and revalidated in the background");
      gate.get().countDown();
      Eventually.assertWithin(Duration.ofSeconds(30), "revalidated", () -> site.cache.stats("swr").rebuilds() == 2);
      assertEquals("version 2", client.get("/swr").body());

      clock.advance(Duration.ofSeconds(60 + 40)); // past the window: nothing stale may be served
      KeepAliveClient.Answer past = client.get("/swr");
      assertEquals("MISS", past.xCache(), "past the window the request builds, as for a missing page");
      assertEquals("version 3", past.body());
    }
    assertEquals(1, site.cache.stats("swr").backgroundRebuilds());
  }

  /** A background build that turns out personal is not stored, as a visitor's is not; its page's next visitor builds it. */
  @Test
  void aBackgroundBuildThatTurnsOutPersonalIsNotStoredAndTheNextVisitorBuildsThePage() throws Exception {
    java.util.concurrent.atomic.AtomicBoolean personal = new java.util.concurrent.atomic.AtomicBoolean();
    SiteServlets.Handler h = SiteServlets.of((req, res, call) -> {
      String who = personal.get() ? "session " + req.getSession(true).getId() : "everyone";
      res.setContentType("text/plain");
      res.getWriter().print("version " + call + " for " + who);
    });
    CachedSite site = sites.open().handler("mine", h, "/mine").start();
    try (KeepAliveClient client = new KeepAliveClient(site.jetty.port(), host(site), ANSWER_TIMEOUT_MILLIS)) {
      client.get("/mine");
      site.cache.refreshHandler("mine");
      personal.set(true); // the rebuild creates a session: the container's Set-Cookie makes it personal
      KeepAliveClient.Answer stale = client.get("/mine");
      assertEquals("STALE", stale.xCache());
      assertNull(stale.headers().get("set-cookie"), "the visitor gets no one's cookie");
      Eventually.assertWithin(Duration.ofSeconds(30), "the background build ran",
          () -> h.calls.get() == 2 && site.cache.engine.background.inFlight() == 0);
      assertEquals(1, site.cache.stats("mine").rebuilds(), "its page was not stored");
      personal.set(false);
      KeepAliveClient.Answer next = client.get("/mine");
      assertEquals("MISS", next.xCache(), "the next visitor builds it, in the foreground");
      assertEquals("version 3 for everyone", next.body());
      assertEquals("HIT", client.get("/mine").xCache());
    }
  }

  /**
   * Issue 43: rebuild locks seen in memcached just after a run of refreshes are those of the rebuilds
   * still in flight; each is deleted when its build ends (memcached counts the delete), not left to
   * expire with its lease.
   */
  @Test
  void aBackgroundRebuildGivesItsLockBackWhenItEndsNotByItsLease() throws Exception {
    SiteServlets.Handler h = heldPage();
    CachedSite site = sites.open().handler("lk", h, "/lk/*").start();
    int pages = 20;
    try (KeepAliveClient client = new KeepAliveClient(site.jetty.port(), host(site), ANSWER_TIMEOUT_MILLIS)) {
      for (int i = 0; i < pages; i++) {
        assertEquals("MISS", client.get("/lk/" + i).xCache());
      }
      h.calls.set(1); // every build from here on is held
      started.set(new CountDownLatch(pages));
      gate.set(new CountDownLatch(1));
      // The warm-up builds' locks are deleted noreply: counted once they are gone, not among the rebuilds' deletes.
      Eventually.assertWithin(Duration.ofSeconds(30), "no lock held before the refreshes",
          () -> memcached.text(0).keysHolding(":l:") == 0);
      long deletesBefore = memcached.text(0).statLong("delete_hits");
      for (int i = 0; i < pages; i++) {
        site.cache.refreshHandler("lk");
        assertEquals("STALE", client.get("/lk/" + i).xCache());
      }
      assertTrue(started.get().await(30, TimeUnit.SECONDS), "every page is being rebuilt");
      assertEquals(pages, site.cache.engine.background.inFlight());
      assertEquals(pages, memcached.text(0).keysHolding(":l:"), "one lock per rebuild in flight");

      gate.get().countDown();
      Eventually.assertWithin(Duration.ofSeconds(30), "every rebuild ended",
          () -> site.cache.engine.background.inFlight() == 0);
      // A lock left to its lease expires: memcached would count no delete for it.
      Eventually.within(Duration.ofSeconds(30), () -> memcached.text(0).statLong("delete_hits") - deletesBefore >= pages);
      assertEquals(pages, memcached.text(0).statLong("delete_hits") - deletesBefore, "each rebuild deleted its lock");
      assertEquals(0, memcached.text(0).keysHolding(":l:"), "no lock left behind");
    }
    assertEquals(pages, site.cache.stats("lk").backgroundRebuilds());
  }
}
