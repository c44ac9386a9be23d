package org.pagecache.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.pagecache.testing.Eventually;
import org.pagecache.testing.HeadlessChromium;
import org.pagecache.testing.Http;
import org.pagecache.testing.MemcachedExtension;
import org.pagecache.testing.containers.Deployment;

/**
 * What must hold wherever the demo WAR is deployed: on standalone Jetty, on standalone Tomcat, and
 * in the embedded Jetty that scripts/demo.sh runs. Each subclass deploys the packaged WAR once,
 * configured only through the environment (PAGECACHE_MEMCACHED_SERVERS, PAGECACHE_ADMIN_TOKEN,
 * DEMO_DELAY_MS) against a real memcached, and the tests below talk to it over HTTP.
 *
 * <p>Tests share the deployment, so each works on its own articles (or compares before/after)
 * and does not depend on the order they run in.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class DeployedDemoContract {
  @RegisterExtension
  static MemcachedExtension memcached = MemcachedExtension.nodes(1);

  static final String ADMIN_TOKEN = "token-" + UUID.randomUUID();
  static final long DELAY_MILLIS = 100;
  static final Duration READY_WITHIN = Duration.ofSeconds(60);
  /** A public page of the demo that answers 200 once the WAR is deployed. */
  static final String READY_PATH = "/cms/stats";

  Deployment site;

  /** Deploys the WAR with this environment; returns when it answers. */
  abstract Deployment deploy(Path war, Path workDir, Map<String, String> env);

  /** An unpacked distribution named by a system property the failsafe configuration sets. */
  static Path distribution(String property) {
    String dir = System.getProperty(property);
    assertTrue(dir != null && Files.isDirectory(Path.of(dir)), "no " + property + " at " + dir
        + ": run the deployment tests with mvn verify, which unpacks the containers in pre-integration-test");
    return Path.of(dir);
  }

  @BeforeAll
  void deploy() throws Exception {
    Path war = Path.of(System.getProperty("demo.war", "target/pagecache-demo.war"));
    assertTrue(Files.isRegularFile(war), "the WAR is packaged before the deployment tests run: " + war.toAbsolutePath());
    Path workDir = Path.of(System.getProperty("deployments.dir", "target/deployments"))
        .resolve(getClass().getSimpleName() + "-" + System.currentTimeMillis());
    Files.createDirectories(workDir);
    long start = System.nanoTime();
    site = deploy(war, workDir, environment(memcached));
    long ready = System.nanoTime();
    awaitCaching();
    System.out.printf("%s: %s answering in %d ms, caching %d ms later%n", getClass().getSimpleName(), site,
        (ready - start) / 1_000_000, (System.nanoTime() - ready) / 1_000_000);
  }

  /** The container's environment: the WAR's whole configuration (also what {@link StockContainerContract} uses). */
  static Map<String, String> environment(MemcachedExtension memcached) {
    return Map.of(
        "PAGECACHE_MEMCACHED_SERVERS", memcached.servers(),
        "PAGECACHE_ADMIN_TOKEN", ADMIN_TOKEN,
        // The build machine's two cores are shared: a cold JVM's first memcached calls can take
        // longer than the 200 ms default, and a timeout is a BYPASS, which these tests would misread.
        "PAGECACHE_MEMCACHED_OP_TIMEOUT", "2s",
        // Views reach the database every second, and "online" counts in buckets of one second
        // (a visitor shows once their bucket is complete), so the test waits seconds, not minutes.
        "PAGECACHE_COUNTERS", "flush-interval=1s, window=5s, buckets=6",
        "DEMO_DELAY_MS", Long.toString(DELAY_MILLIS));
  }

  /** Ready to cache: the memcached connection works (a request is a MISS or HIT, not a BYPASS). */
  private void awaitCaching() {
    boolean caching = Eventually.within(Duration.ofSeconds(30), () -> !xCache(get("/article/1")).equals("BYPASS"));
    assertTrue(caching, site + " answered but never cached /article/1 within 30 s");
  }

  @AfterAll
  void undeploy() {
    if (site != null) {
      long start = System.nanoTime();
      site.close();
      System.out.printf("%s: stopped in %d ms%n", getClass().getSimpleName(), (System.nanoTime() - start) / 1_000_000);
    }
  }

  @Test
  void theWarIsConfiguredFromTheEnvironmentAndCachesInTheRealMemcached() {
    assertEquals(DELAY_MILLIS, CmsStats.read(site).delayMillis(), "DEMO_DELAY_MS reached the WAR");
    long itemsBefore = memcached.text(0).statLong("curr_items");

    assertEquals("MISS", xCache(get("/article/2")));

    assertTrue(memcached.text(0).statLong("curr_items") > itemsBefore,
        "the page went to the memcached of PAGECACHE_MEMCACHED_SERVERS, not to an in-process store");
  }

  @Test
  void aPageMissesThenHitsAndOnlyTheMissCallsTheCms() {
    long before = CmsStats.read(site).calls("article");

    HttpResponse<byte[]> miss = get("/article/7");
    long afterMiss = CmsStats.read(site).calls("article");
    HttpResponse<byte[]> hit = get("/article/7");
    long afterHit = CmsStats.read(site).calls("article");

    assertEquals(200, miss.statusCode());
    assertEquals("MISS", xCache(miss));
    assertEquals("HIT", xCache(hit));
    assertEquals(before + 1, afterMiss, "the miss called the CMS once");
    assertEquals(afterMiss, afterHit, "the hit did not call the CMS");
    assertEquals(builtAt(miss), builtAt(hit), "the hit is the page the miss built (its live view count aside)");
    assertTrue(Http.text(miss).contains("id=\"pc-served\">MISS</b>"), "the footer says the miss was built for it");
    assertTrue(Http.text(hit).contains("id=\"pc-served\">HIT</b>"), "the same cached footer says HIT on the hit");
  }

  @Test
  void everyPublicHandlerIsServedFromTheCacheTheSecondTime() {
    for (String path : new String[] {"/", "/section/world?page=2", "/api/articles/8", "/article/9"}) {
      HttpResponse<byte[]> first = get(path);
      assertEquals(200, first.statusCode(), path);
      assertEquals("HIT", xCache(get(path)), path + " second request");
    }
    assertEquals("BYPASS", xCache(get("/cms/stats")), "the CMS counts are never cached");
  }

  /**
   * params.key=read (issue 47): a section page is keyed on the page it shows (read by the servlet),
   * absent or present, and not on a cache buster or a click id no list knows.
   */
  @Test
  void sectionPagesAreKeyedOnTheirPageNumberAndNotOnJunkParameters() {
    // pages no other test asks for: a refresh another test makes of the section cannot meet them
    HttpResponse<byte[]> three = get("/section/sport?page=3");
    assertTrue(Http.text(three).contains("Page 3 of"), Http.text(three));
    HttpResponse<byte[]> busted = get("/section/sport?_=1733212345678&page=3");
    assertEquals("HIT", xCache(busted), "the cache buster is not part of the key");
    assertTrue(Http.text(busted).contains("Page 3 of"), Http.text(busted));
    HttpResponse<byte[]> one = get("/section/sport?page=1&ScCid=77");
    assertTrue(Http.text(one).contains("Page 1 of"), "page=1 is page 1, never page 3: " + Http.text(one));
    HttpResponse<byte[]> oneAgain = get("/section/sport?cb=2&page=1");
    assertEquals("HIT", xCache(oneAgain));
    assertTrue(Http.text(oneAgain).contains("Page 1 of"), Http.text(oneAgain));
    HttpResponse<byte[]> techThree = get("/section/tech?page=3&fbclid=x");
    assertTrue(Http.text(techThree).contains("Page 3 of"), Http.text(techThree));
    assertFalse(Http.text(techThree).contains("fbclid"), Http.text(techThree));
  }

  @Test
  void theEditorIsForThePagecacheAdminRoleOnly() {
    assertEquals(401, new EditorClient(site::uri, null, null).get("/cms/").statusCode(), "no credentials");
    assertEquals(401, new EditorClient(site::uri, "editor", "wrong").get("/cms/").statusCode(), "wrong password");
    assertEquals(302, new EditorClient(site::uri, null, null).get("/cms").statusCode(), "/cms redirects to /cms/ without a login");
    assertEquals(200, get("/cms/stats").statusCode(), "the counts are public");

    EditorClient editor = new EditorClient(site::uri, "editor", "editor");
    HttpResponse<String> list = editor.get("/cms/");
    assertEquals(200, list.statusCode());
    assertTrue(list.body().contains("Signed in as <b>editor</b>"), list.body());
    assertTrue(String.join(", ", list.headers().allValues("Cache-Control")).contains("no-store"),
        "the editor is never stored: " + list.headers().allValues("Cache-Control"));
  }

  @Test
  void aSignedInEditorIsGreetedAndTheirBuildsStayTheirs() {
    EditorClient editor = new EditorClient(site::uri, "editor", "editor");
    editor.csrfToken(11); // now the editor has a session cookie and sends Basic credentials
    editor.get("/article/11");

    HttpResponse<String> asEditor = editor.get("/article/11");

    assertTrue(asEditor.body().contains("Signed in as <b>editor</b>"), "the header greets the editor (a fragment)");
    // Every seed article says "the editor (/cms/)": the user's name in the body keeps an editor's build
    // theirs (docs/fragments.md, evidence before sharing); it is answered to them, never stored.
    assertTrue(List.of("BYPASS", "HIT").contains(xCache(asEditor)), xCache(asEditor));
    get("/article/11");
    HttpResponse<byte[]> anonymous = get("/article/11");
    assertEquals("HIT", xCache(anonymous));
    assertFalse(Http.text(anonymous).contains("Signed in as"), "nothing of the editor's reaches anyone else");
  }

  /** A reader's browser: keeps the session cookie /signin gives. */
  private EditorClient signedIn(String name) {
    EditorClient reader = new EditorClient(site::uri, null, null);
    HttpResponse<String> signIn = reader.post("/signin", Map.of("username", name, "password", name));
    assertEquals(302, signIn.statusCode(), "signed in: " + signIn.body());
    return reader;
  }

  @Test
  void readersSignInAndAreServedTheCachedPagesWithTheirOwnGreeting() {
    EditorClient alice = signedIn("alice");
    EditorClient bob = signedIn("bob");
    assertEquals(401, new EditorClient(site::uri, null, null)
        .post("/signin", Map.of("username", "alice", "password", "bob")).statusCode(), "a wrong password");

    for (String path : new String[] {"/", "/article/13", "/section/tech"}) {
      HttpResponse<String> hers = alice.get(path);
      assertEquals(200, hers.statusCode(), path);
      assertTrue(hers.body().contains("Signed in as <b>alice</b>"), path + ": " + hers.body());
      HttpResponse<String> his = bob.get(path);
      assertEquals("HIT", his.headers().firstValue("X-Cache").orElse(""),
          path + ": the readers' page; " + his.headers().firstValue("Cache-Status").orElse(""));
      assertTrue(his.body().contains("Signed in as <b>bob</b>"), path);
      assertFalse(his.body().contains("alice"), path + ": nothing of Alice's reaches Bob");
      assertEquals("HIT", alice.get(path).headers().firstValue("X-Cache").orElse(""), path);
      String anonymous = Http.text(get(path));
      assertFalse(anonymous.contains("alice") || anonymous.contains("Signed in as"), path + ": nor anyone else");
      assertTrue(anonymous.contains("/signin\">Sign in</a>"), path);
    }
    // Visibility: the readers' requests apart from the anonymous ones, and the fragments filled in.
    String stats = Http.text(Http.get(site.uri("/cache-admin/api/stats"), "Authorization", "Bearer " + ADMIN_TOKEN));
    Matcher article = Pattern.compile("\"name\":\"article\".*?\"signedIn\":\\{\"requests\":(\\d+),\"hits\":(\\d+).*?"
        + "\"fragments\":\\{\"filled\":(\\d+)").matcher(stats);
    assertTrue(article.find(), stats);
    assertTrue(Long.parseLong(article.group(1)) >= 3 && Long.parseLong(article.group(2)) >= 2
        && Long.parseLong(article.group(3)) >= 4, article.group());
    String adminPage = new EditorClient(site::uri, "editor", "editor").get("/cache-admin/").body();
    assertTrue(adminPage.contains("<section id=\"signed-in\"><h2>Signed-in visitors and fragments</h2>"), adminPage);
  }

  @Test
  void aSaveWithoutTheFormsCsrfTokenIsRefused() {
    EditorClient editor = new EditorClient(site::uri, "editor", "editor");
    editor.csrfToken(12);

    HttpResponse<String> forged = editor.post("/cms/edit", Map.of("id", "12", "title", "Forged", "body", "Forged", "csrf", "guess"));

    assertEquals(403, forged.statusCode());
    assertFalse(Http.text(get("/article/12")).contains("Forged"));
  }

  @Test
  void anEditRebuildsTheArticleAndTheListsShowingItAndNothingElse() {
    // Article 35 is the newest Tech article: on /section/tech page 1 and on the home page.
    String[] showIt = {"/article/35", "/api/articles/35", "/section/tech", "/"};
    String[] others = {"/article/34", "/section/world"};
    cachedBeforeThe("edit", showIt, others);
    String title = "Edited on " + getClass().getSimpleName();

    HttpResponse<String> saved = new EditorClient(site::uri, "editor", "editor").save(35, title, "New text.\n\nSecond paragraph.");

    assertEquals(303, saved.statusCode(), saved.body());
    assertTrue(saved.headers().firstValue("Location").orElse("").endsWith("/cms/edit?id=35&saved=invalidated"),
        "saved and invalidated: " + saved.headers().firstValue("Location"));
    for (String path : showIt) {
      HttpResponse<byte[]> r = get(path);
      assertEquals("MISS", xCache(r), path + " rebuilt after the edit");
      assertTrue(Http.text(r).contains(title), path + " shows the new title");
      assertEquals("HIT", xCache(get(path)), path + " cached again");
    }
    for (String path : others) {
      assertEquals("HIT", xCache(get(path)), path + " does not show article 35: untouched");
    }
  }

  @Test
  void theAdminApiRefreshesOneHandlerWithTheConfiguredTokenOnly() {
    String[] sections = {"/section/sport", "/section/world?page=3"};
    cachedBeforeThe("refresh", sections, new String[] {"/article/13"});

    HttpResponse<byte[]> noToken = Http.post(site.uri("/cache-admin/api/handlers/section/refresh"), "");
    HttpResponse<byte[]> wrongToken = Http.post(site.uri("/cache-admin/api/handlers/section/refresh"), "",
        "Authorization", "Bearer wrong-" + ADMIN_TOKEN);
    assertEquals(401, noToken.statusCode(), Http.text(noToken));
    assertEquals(403, wrongToken.statusCode(), Http.text(wrongToken));
    for (String path : sections) {
      assertEquals("HIT", xCache(get(path)), path + " untouched by refused refreshes");
    }

    HttpResponse<byte[]> refreshed = Http.post(site.uri("/cache-admin/api/handlers/section/refresh"), "",
        "Authorization", "Bearer " + ADMIN_TOKEN);

    assertEquals(200, refreshed.statusCode(), Http.text(refreshed));
    assertTrue(Http.text(refreshed).contains("\"handler\":\"section\""), Http.text(refreshed));
    rebuiltInTheBackground(sections);
    assertEquals("HIT", xCache(get("/article/13")), "another handler keeps its pages");
  }

  @Test
  void theDemoEditorSignsInToTheAdminPageInABrowserAndRefreshesOneHandler() {
    String[] sections = {"/section/tech?page=2", "/section/sport?page=2"};
    cachedBeforeThe("refresh", sections, new String[] {"/article/21"});
    URI admin = site.uri("/cache-admin/");
    // The demo signs editors in with BASIC: the credentials a browser's sign-in prompt would send.
    String signedIn = admin.getScheme() + "://editor:editor@" + admin.getRawAuthority() + admin.getRawPath();

    try (HeadlessChromium chromium = HeadlessChromium.start()) {
      chromium.browser().get(signedIn);
      WebElement row = chromium.await(By.cssSelector("tr[data-h='section']"));
      row.findElement(By.tagName("button")).click();
      WebElement flash = chromium.await(By.id("flash"));
      assertTrue(flash.getText().contains("Refreshed handler \u201csection\u201d: new token"), flash.getText());
      assertTrue(chromium.browser().findElement(By.cssSelector("tr[data-h='section']")).getText().contains("by editor"));
      chromium.screenshot(Path.of("target", getClass().getSimpleName() + "-admin.png"));
      assertEquals(List.of(), chromium.overflowing(), "the demo's admin page fits a 1280 px window");
    }

    rebuiltInTheBackground(sections);
    assertEquals("HIT", xCache(get("/article/21")), "another handler keeps its pages");
  }

  /**
   * README step 5: after a Refresh each page's first visitor gets the previous page at once, like
   * everyone else, while the page is rebuilt in the background; then it is a hit again.
   */
  private void rebuiltInTheBackground(String[] paths) {
    for (String path : paths) {
      assertEquals("STALE", xCache(get(path)), path + ": the previous page at once after the refresh");
    }
    for (String path : paths) {
      Eventually.assertWithin(Duration.ofSeconds(30), path + " rebuilt in the background and cached again",
          () -> "HIT".equals(xCache(get(path))));
    }
  }

  @Test
  void theAdminPageIsForTheRole() {
    assertEquals(401, new EditorClient(site::uri, null, null).get("/cache-admin/").statusCode());
    HttpResponse<String> page = new EditorClient(site::uri, "editor", "editor").get("/cache-admin/");
    assertEquals(200, page.statusCode());
    assertTrue(page.body().contains("<tr data-h=\"section\"><th scope=\"row\" class=\"name\">"),
        "the handler table, a row with a Refresh button for each caching handler");
    assertFalse(page.body().contains("<tr data-h=\"counters\"><th scope=\"row\" class=\"name\">"),
        "no Refresh button for a handler whose policy says enabled=false");
    assertTrue(page.body().contains("<b data-h=\"counters\">counters</b>"), "it is listed as never cached");
  }

  /**
   * The API is outside the security-constraint so Bearer webhooks reach it, yet the admin page's
   * script calls it with the Basic credentials the browser sends below /cache-admin/: the
   * container must read them there too (Tomcat only does with preemptiveAuthentication).
   */
  @Test
  void anEditorsBasicCredentialsAreAcceptedByTheAdminApi() {
    HttpResponse<String> stats = new EditorClient(site::uri, "editor", "editor").get("/cache-admin/api/stats");
    HttpResponse<String> wrong = new EditorClient(site::uri, "editor", "wrong").get("/cache-admin/api/stats");

    assertEquals(200, stats.statusCode(), stats.body());
    assertTrue(stats.body().contains("\"handlers\":["), stats.body());
    assertEquals(401, wrong.statusCode(), "a wrong password: " + wrong.body());
  }

  @Test
  void aCachedArticleShowsItsLiveViewCountAndTheViewsReachTheDatabase() {
    HttpResponse<byte[]> first = get("/article/20");
    HttpResponse<byte[]> second = get("/article/20");

    assertEquals("HIT", xCache(second));
    long views = number(VIEWS, Http.text(second));
    assertEquals(number(VIEWS, Http.text(first)) + 1, views, "the hit counted and showed one more view");
    assertTrue(number(ONLINE, Http.text(second)) >= 0, "the online placeholder is filled in");
    String counters = Http.text(get("/counters?views=article:20"));
    assertTrue(counters.contains("\"article:20\":" + views), counters);
    Eventually.assertWithin(Duration.ofSeconds(10), "this test's visits show in the online count",
        () -> ONLINE_JSON.matcher(Http.text(get("/counters?online"))).find());

    EditorClient editor = new EditorClient(site::uri, "editor", "editor");
    Eventually.assertWithin(Duration.ofSeconds(15), "the views flushed to the database (editor's list)",
        () -> editor.get("/cms/").body().contains("#20 · Tech · " + views + " views in the database"));
  }

  private static final Pattern VIEWS = Pattern.compile("views: <span class=\"views\">(\\d+)</span>");
  private static final Pattern ONLINE_JSON = Pattern.compile("\"online\":[1-9]");
  private static final Pattern BUILT_AT = Pattern.compile("data-built-at=\"(\\d+)\"");
  private static final Pattern ONLINE = Pattern.compile("readers online: <span class=\"online\">(\\d+)</span>");

  private static long builtAt(HttpResponse<byte[]> page) {
    return number(BUILT_AT, Http.text(page));
  }

  private static long number(Pattern p, String html) {
    Matcher m = p.matcher(html);
    assertTrue(m.find(), p + " not in the page");
    return Long.parseLong(m.group(1));
  }

  HttpResponse<byte[]> get(String path) {
    return Http.get(site.uri(path));
  }

  static String xCache(HttpResponse<?> r) {
    return r.headers().firstValue("X-Cache").orElse("(none)");
  }

  /** Requests every page twice and asserts the second is a HIT: the state a test starts from. */
  private void cachedBeforeThe(String event, String[]... groups) {
    for (String[] paths : groups) {
      for (String path : paths) {
        get(path);
        assertEquals("HIT", xCache(get(path)), path + " cached before the " + event);
      }
    }
  }

  /** {@code GET /cms/stats}: the CMS delay and calls per handler. */
  record CmsStats(long delayMillis, Map<String, Long> byHandler) {
    private static final Pattern DELAY = Pattern.compile("\"delayMillis\":(\\d+)");
    private static final Pattern BY_HANDLER = Pattern.compile("\"byHandler\":\\{([^}]*)}");
    private static final Pattern COUNT = Pattern.compile("\"([^\"]+)\":(\\d+)");

    static CmsStats read(Deployment site) {
      HttpResponse<byte[]> r = Http.get(site.uri("/cms/stats"));
      assertEquals(200, r.statusCode(), "/cms/stats");
      String json = Http.text(r);
      Matcher delay = DELAY.matcher(json);
      Matcher handlers = BY_HANDLER.matcher(json);
      assertTrue(delay.find() && handlers.find(), "unexpected /cms/stats: " + json);
      Map<String, Long> counts = new java.util.TreeMap<>();
      Matcher c = COUNT.matcher(handlers.group(1));
      while (c.find()) {
        counts.put(c.group(1), Long.parseLong(c.group(2)));
      }
      return new CmsStats(Long.parseLong(delay.group(1)), counts);
    }

    long calls(String handler) {
      return byHandler.getOrDefault(handler, 0L);
    }
  }
}
