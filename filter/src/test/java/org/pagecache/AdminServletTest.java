package org.pagecache;

import org.pagecache.admin.PageCacheAdminServlet;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.pagecache.internal.near.NearSize;
import org.pagecache.testing.Http;
import org.pagecache.testing.JettyServer;
import org.pagecache.testing.MemcachedExtension;

/**
 * The admin servlet through real HTTP on embedded Jetty, with the container's FORM sign-in and a
 * real memcached: what editors and scripts can do, and everything they must not be able to do.
 */
class AdminServletTest {
  @RegisterExtension
  static MemcachedExtension memcached = MemcachedExtension.nodes(1);

  private static final String BEARER = "Bearer " + AdminSite.TOKEN;

  private AdminSite site;

  @AfterEach
  void stop() {
    if (site != null) {
      site.close();
    }
  }

  private AdminSite site() {
    site = AdminSite.on(memcached.servers()).start();
    return site;
  }

  // ---- refreshing ----

  @Test
  void apiRefreshWithTheTokenRebuildsThatHandlersPagesAndNoOthers() {
    site();
    warm("/article/1");
    warm("/home/1");

    HttpResponse<String> refresh = api().post(site.admin("/api/handlers/article/refresh"), "Authorization", BEARER);

    assertEquals(200, refresh.statusCode(), refresh.body());
    assertTrue(refresh.headers().firstValue("Content-Type").orElse("").startsWith("application/json"));
    assertEquals("\"article\"", field(refresh.body(), "handler"));
    assertTrue(Long.parseLong(field(refresh.body(), "token")) > 0);
    assertEquals("true", field(refresh.body(), "known"));
    assertEquals("\"token\"", field(refresh.body(), "refreshedBy"));
    assertEquals("MISS", xcache("/article/1"), "the refreshed handler's page is rebuilt");
    assertEquals("HIT", xcache("/home/1"), "another handler keeps its pages");
    assertEquals("HIT", xcache("/article/1"), "and the rebuilt page is cached again");

    String article = handlerJson(stats(), "article");
    assertEquals("\"token\"", field(article, "lastRefreshBy"));
    assertEquals(field(refresh.body(), "token"), field(article, "lastToken"));
    assertEquals("1", field(article, "rebuiltSinceRefresh"));
  }

  @Test
  void formRefreshWithTheSessionsCsrfTokenConfirmsAndRebuilds() {
    site();
    warm("/article/2");
    warm("/home/2");
    AdminClient editor = AdminClient.signIn(site, "editor", "editor");

    HttpResponse<String> posted = editor.postForm(site.admin("/refresh"), form("handler", "article", "csrf", editor.csrf()));

    assertEquals(303, posted.statusCode(), "POST-redirect-GET");
    assertEquals(site.admin("/").getPath(), posted.headers().firstValue("Location").orElseThrow());
    HttpResponse<String> page = editor.get(site.admin("/"));
    long token = site.cache().stats().handler("article").lastToken();
    assertTrue(page.body().contains("Refreshed handler \u201carticle\u201d: new token " + token), page.body());
    assertTrue(page.body().contains("by <b>editor</b>"), "the row says who refreshed");
    assertEquals("MISS", xcache("/article/2"));
    assertEquals("HIT", xcache("/home/2"));
    assertTrue(editor.get(site.admin("/")).body().contains("pages rebuilt since: <b data-f=\"rebuiltSinceRefresh\">1</b>"),
        "the row counts the pages rebuilt since the refresh");
    assertFalse(editor.get(site.admin("/")).body().contains("new token"), "the confirmation is shown once");
  }

  @Test
  void formPostWithoutOrWithAWrongCsrfTokenIsRefused() {
    site();
    AdminClient editor = AdminClient.signIn(site, "editor", "editor");
    editor.csrf(); // the session has a token; the forged requests below do not know it

    HttpResponse<String> none = editor.postForm(site.admin("/refresh"), form("handler", "article"));
    HttpResponse<String> wrong = editor.postForm(site.admin("/refresh"), form("handler", "article", "csrf", "forged"));
    HttpResponse<String> tag = editor.postForm(site.admin("/invalidate"), form("tag", "article:1"));

    assertEquals(403, none.statusCode());
    assertTrue(none.body().contains("CSRF token missing or wrong"), none.body());
    assertEquals(403, wrong.statusCode());
    assertEquals(403, tag.statusCode());
    assertEquals(0, site.cache().stats().handler("article").lastRefreshMillis(), "nothing was refreshed");
  }

  @Test
  void formPostsWithoutTheRoleOrTheTokenNeverRefresh() {
    site();
    AdminClient reader = AdminClient.anonymous(site);
    reader.postForm(site.uri("/j_security_check"), form("j_username", "reader", "j_password", "reader"));

    HttpResponse<String> anonymous = api().postForm(site.admin("/refresh"), form("handler", "article"));
    HttpResponse<String> withoutRole = reader.postForm(site.admin("/refresh"), form("handler", "article"));

    assertTrue(AdminClient.redirect(anonymous), "the container sends a signed-out editor to the sign-in page");
    assertTrue(anonymous.headers().firstValue("Location").orElse("").contains("/login"));
    assertEquals(403, withoutRole.statusCode(), "a signed-in user without the role");
    try (AdminSite tokenOnly = AdminSite.on(memcached.servers()).noSignIn().start()) {
      HttpResponse<String> noToken = AdminClient.anonymous(tokenOnly).postForm(tokenOnly.admin("/refresh"), form("handler", "article"));
      assertEquals(401, noToken.statusCode(), "no container sign-in, no token");
      assertEquals(0, tokenOnly.cache().stats().handler("article").lastRefreshMillis());
    }
    assertEquals(0, site.cache().stats().handler("article").lastRefreshMillis(), "nothing was refreshed");
  }

  @Test
  void signedInEditorsUseTheApiWithTheCsrfHeaderAndScriptsWithTheToken() {
    site();
    AdminClient editor = AdminClient.signIn(site, "editor", "editor");

    HttpResponse<String> withoutHeader = editor.post(site.admin("/api/handlers/home/refresh"));
    HttpResponse<String> withHeader = editor.post(site.admin("/api/handlers/home/refresh"), "X-CSRF-Token", editor.csrf());
    HttpResponse<String> script = api().post(site.admin("/api/handlers/home/refresh"), "Authorization", BEARER);

    assertEquals(403, withoutHeader.statusCode());
    assertTrue(field(withoutHeader.body(), "error").contains("CSRF"), withoutHeader.body());
    assertEquals(200, withHeader.statusCode(), withHeader.body());
    assertEquals("\"editor\"", field(withHeader.body(), "refreshedBy"));
    assertEquals(200, script.statusCode(), "a Bearer request needs no CSRF token");
    assertEquals("\"token\"", field(script.body(), "refreshedBy"));
  }

  @Test
  void aFormPostWithTheTokenAndNoSessionIsAnsweredDirectly() {
    site = AdminSite.on(memcached.servers()).noSignIn().start(); // no container constraint in front of the form
    HttpResponse<String> r = api().postForm(site.admin("/refresh"), form("handler", "home"), "Authorization", BEARER);
    assertEquals(200, r.statusCode(), r.body());
    assertTrue(r.body().contains("Refreshed handler \u201chome\u201d"));
    assertFalse(r.body().contains("csrf-token"), "no session, no CSRF token");
  }

  @Test
  void refreshOfAnUnknownHandlerIs404() {
    site = AdminSite.on(memcached.servers()).noSignIn().start();
    HttpResponse<String> api = api().post(site.admin("/api/handlers/artcle/refresh"), "Authorization", BEARER);
    HttpResponse<String> form = api().postForm(site.admin("/refresh"), form("handler", "artcle"), "Authorization", BEARER);
    HttpResponse<String> known = api().post(site.admin("/api/handlers/home/refresh"), "Authorization", BEARER);

    assertEquals(404, api.statusCode(), api.body());
    assertTrue(field(api.body(), "error").contains("no handler named 'artcle'"), api.body());
    assertEquals(404, form.statusCode(), form.body());
    assertEquals(200, known.statusCode(), "a servlet's name is a known handler: " + known.body());
  }

  // ---- stats ----

  @Test
  void statsJsonHasTheDocumentedFields() {
    site();
    warm("/home/3");
    xcache("/article/3");

    HttpResponse<String> r = api().get(site.admin("/api/stats"), "Authorization", BEARER);

    assertEquals(200, r.statusCode(), r.body());
    String json = r.body();
    assertEquals("false", field(json, "storeDown"));
    assertTrue(field(json, "time").matches("\"\\d{4}-\\d\\d-\\d\\dT.*Z\""), json);
    assertTrue(field(json, "store").startsWith("\"memcached["), json);
    String home = handlerJson(json, "home");
    assertTrue(field(home, "policy").startsWith("\"ttl=1m, grace=10m"), home);
    assertEquals("1", field(home, "hits"));
    assertEquals("1", field(home, "misses"));
    assertEquals("1", field(home, "rebuilds"));
    assertEquals("0.5", field(home, "hitRatio"));
    for (String name : new String[] {"stale", "lockWaits", "bypasses", "storeErrors", "rebuiltSinceRefresh"}) {
      assertEquals("0", field(home, name), name);
    }
    assertEquals("null", field(home, "lastRefresh"));
    assertEquals("null", field(home, "lastRefreshBy"));
    assertEquals("null", field(home, "lastToken"));
    assertEquals("\"MLWUH\"", field(home, "trace"), "a miss: found nothing, lock, write, unlock; then a hit");
    assertEquals("0.0", field(handlerJson(json, "article"), "hitRatio"), "one miss, no hit");

    String server = json.substring(json.indexOf("\"servers\":["));
    assertEquals("\"" + memcached.node(0).address() + "\"", field(server, "address"));
    assertEquals("true", field(server, "up"));
    assertTrue(field(server, "version").startsWith("\"1."), server);
    for (String name : new String[] {"uptimeSeconds", "currItems", "bytes", "limitMaxbytes", "getHits", "getMisses",
        "evictions", "cmdFlush"}) {
      assertTrue(field(server, name).matches("\\d+"), name + " in " + server);
    }
    assertTrue(field(server, "getHitRatio").matches("[0-9.E-]+"), server);
    String slab = server.substring(server.indexOf("\"slabs\":[{"));
    for (String name : new String[] {"class", "chunkSize", "chunksPerPage", "totalPages", "totalChunks", "usedChunks",
        "allocatedBytes", "usedBytes"}) {
      assertTrue(field(slab, name).matches("\\d+"), name + " in " + slab);
    }
    String near = json.substring(json.indexOf("\"near\":{"));
    assertEquals("true", field(near, "enabled"), near);
    assertEquals("2", field(near, "entries"), "the two pages this server built, held in its memory: " + near);
    assertEquals("1", field(near, "hits"), "home's second request was answered from memory: " + near);
    assertTrue(field(near, "bytes").matches("[1-9]\\d+"), near);
    NearSize sized = NearSize.forHeap(Runtime.getRuntime().maxMemory()); // the default: a share of this JVM's heap
    assertEquals(String.valueOf(sized.bytes()), field(near, "maxBytes"));
    assertEquals("\"" + sized.why() + "\"", field(near, "sizedBy"));
    assertEquals("1000", field(near, "trustMillis"));
    assertTrue(field(near, "hitRatio").matches("0\\.\\d+"), near);
    assertFalse(json.contains("\"pagecache-admin\""), "the admin servlet is not listed as a handler");
  }

  @Test
  void thePageShowsHandlersCountersTraceFormsAndTheCluster() {
    site();
    warm("/article/4");
    AdminClient editor = AdminClient.signIn(site, "editor", "editor");

    HttpResponse<String> r = editor.get(site.admin("/"));

    String html = r.body();
    assertEquals(200, r.statusCode());
    assertTrue(r.headers().firstValue("Content-Type").orElse("").startsWith("text/html"));
    assertTrue(r.headers().firstValue("Content-Security-Policy").orElse("").contains("default-src 'none'"));
    assertTrue(html.contains("<tr data-h=\"article\""));
    assertTrue(html.contains("<tr data-h=\"home\""));
    assertTrue(html.contains("ttl=5m, grace=10m"), "the policy");
    assertTrue(html.contains("Signed in as <b>editor</b>"));
    assertTrue(html.contains("<input type=\"hidden\" name=\"handler\" value=\"article\">"), "a Refresh form per handler");
    assertTrue(html.contains("action=\"" + AdminSite.ADMIN + "/invalidate\""), "the tag form");
    assertTrue(html.contains("action=\"" + AdminSite.ADMIN + "/evict\""), "the evict form");
    assertTrue(html.contains("<span class=\"tW\">W</span>"), "the trace shows the write");
    assertTrue(html.contains("<span class=\"tH\">H</span></code>"), "and ends with the hit");
    assertTrue(html.contains("<span class=\"t tE\">E</span> store error"), "the legend");
    assertTrue(html.contains(memcached.node(0).address()));
    assertTrue(html.contains("<span class=\"up\">up</span>"));
    assertTrue(html.contains("<svg class=\"slabs\""), "the slab chart");
    assertTrue(html.contains("<h2>Near cache (this server)</h2>"), "the near cache's section");
    NearSize sized = NearSize.forHeap(Runtime.getRuntime().maxMemory());
    assertTrue(html.matches("(?s).*<section id=\"near\">.*<td class=\"n\">[1-9][0-9]*</td><td class=\"n\">[0-9.]+ (B|KiB|MiB) of [0-9.]+ (MiB|GiB).*"),
        "its pages and memory");
    assertTrue(html.contains(": " + sized.why() + ".</p>"), "its size and why: " + sized.why());
    assertFalse(html.contains("src=\"http"), "no external assets");
  }

  @Test
  void aRefreshFromAnotherServerShowsWithItsTimeAndToken() {
    site();
    warm("/home/3");
    long ours = site.cache().refreshHandler("home", "editor").token(); // this server's refresh, then a later one elsewhere
    PageCacheConfig otherServer = PageCacheConfig.builder().ignoreEnvironment()
        .set("memcached.servers", memcached.servers())
        .set("namespace", site.cache().config().namespace().name())
        .build();
    long token;
    try (PageCache other = PageCache.start(otherServer)) {
      token = other.refreshHandler("home", "cms").token();
    }

    String json = api().get(site.admin("/api/stats"), "Authorization", BEARER).body();
    String page = AdminClient.signIn(site, "editor", "editor").get(site.admin("/")).body();

    String home = handlerJson(json, "home");
    assertTrue(token > ours);
    assertEquals(String.valueOf(token), field(home, "storedToken"), home);
    assertEquals(String.valueOf(ours), field(home, "lastToken"), "the refresh made through this server");
    assertEquals("null", field(handlerJson(json, "article"), "storedToken"), "never refreshed");
    assertTrue(page.contains("from another server, or before this one started; token " + token),
        "the newer refresh is the one shown: " + page);
  }

  // ---- tags and eviction ----

  @Test
  void severalTagsAndAHardPurgeInOneCallOfTheApiAndTheForm() {
    site();
    for (String p : new String[] {"/article/11", "/article/12", "/article/13", "/article/14"}) {
      warm(p);
    }
    HttpResponse<String> soft = api().post(site.admin("/api/tags/invalidate?tag=article:11&tag=article:12"),
        "Authorization", BEARER);
    assertEquals(200, soft.statusCode(), soft.body());
    assertTrue(soft.body().startsWith("{\"tags\":[{\"tag\":\"article:11\""), soft.body());
    assertTrue(soft.body().contains("{\"tag\":\"article:12\""), soft.body());
    assertTrue(soft.body().contains("\"hard\":false"), soft.body());
    assertEquals("MISS", xcache("/article/11"));
    assertEquals("MISS", xcache("/article/12"));

    HttpResponse<String> hard = api().post(site.admin("/api/tags/article%3A13/purge"), "Authorization", BEARER);
    assertEquals(200, hard.statusCode(), hard.body());
    assertEquals("true", field(hard.body(), "hard"));
    assertEquals("MISS", xcache("/article/13"));
    assertEquals(405, api().get(site.admin("/api/tags/purge?tag=article:14"), "Authorization", BEARER).statusCode());
    assertEquals(400, api().post(site.admin("/api/tags/purge"), "Authorization", BEARER).statusCode(), "no tag");

    AdminClient editor = AdminClient.signIn(site, "editor", "editor");
    HttpResponse<String> forged = editor.postForm(site.admin("/invalidate"), form("tag", "article:14", "hard", "on"));
    assertEquals(403, forged.statusCode(), "a purge needs the CSRF token too");
    assertEquals("HIT", xcache("/article/14"));
    HttpResponse<String> posted = editor.postForm(site.admin("/invalidate"),
        form("tag", "article:14 article:11", "hard", "on", "csrf", editor.csrf()));
    assertTrue(AdminClient.redirect(posted), posted.body());
    assertTrue(editor.get(site.admin("/")).body().contains("Purged every page tagged \u201carticle:14\u201d, \u201carticle:11\u201d"));
    assertEquals("MISS", xcache("/article/14"));
  }

  @Test
  void tagInvalidationAndEvictionReachOnlyTheirPages() {
    site();
    for (String p : new String[] {"/article/5", "/article/6", "/article/7"}) {
      warm(p);
    }

    HttpResponse<String> tag = api().post(site.admin("/api/tags/article%3A5/invalidate"), "Authorization", BEARER);
    HttpResponse<String> evict = api().post(site.admin("/api/evict?url=" + enc(site.uri("/article/6").toString())),
        "Authorization", BEARER);

    assertEquals(200, tag.statusCode(), tag.body());
    assertEquals("\"article:5\"", field(tag.body(), "tag"));
    assertTrue(Long.parseLong(field(tag.body(), "version")) > 0);
    assertEquals(200, evict.statusCode(), evict.body());
    assertEquals("true", field(evict.body(), "existed"));
    assertEquals("\"article\"", field(evict.body(), "handler"));
    assertEquals("MISS", xcache("/article/5"));
    assertEquals("MISS", xcache("/article/6"));
    assertEquals("HIT", xcache("/article/7"));
  }

  // ---- bad input and escaping ----

  @Test
  void badInputIs400WithAJsonError() {
    site();
    String[] posts = {
        "/api/tags/" + "t".repeat(10_000) + "/invalidate",
        "/api/tags/bad%01tag/invalidate",
        "/api/tags/two%20words/invalidate",
        "/api/handlers/bad%0Aname/refresh",
        "/api/tags/c1%C2%85control/invalidate", // NEL, a C1 control character
        "/api/handlers/%E2%80%AEeman/refresh", // a right-to-left override: shows as "name"
        "/api/tags/zero%E2%80%8Bwidth/invalidate",
        "/api/tags/tag%F3%A0%80%81chars/invalidate", // U+E0001, a supplementary format character
        "/api/handlers//refresh",
        "/api/tags/%E2%28/invalidate",
        "/api/evict?url=%2Farticle%2F1",
        "/api/evict?url=not%20a%20url",
        "/api/evict",
    };
    for (String path : posts) {
      HttpResponse<String> r = api().post(site.admin(path), "Authorization", BEARER);
      assertEquals(400, r.statusCode(), path + ": " + r.body());
      assertTrue(r.body().startsWith("{\"error\":\""), r.body());
      assertTrue(r.headers().firstValue("Content-Type").orElse("").startsWith("application/json"));
    }
  }

  @Test
  void tagsInAnyScriptAreAcceptedJoinersIncluded() {
    site();
    for (String tag : new String[] {"topic:\u0645\u06CC\u200C\u062E\u0648\u0627\u0647\u0645", // Persian, with a ZWNJ
        "mood:\uD83D\uDC69\u200D\uD83D\uDCBB", "section:\u0441\u043F\u043E\u0440\u0442"}) { // an emoji ZWJ sequence; Cyrillic
      HttpResponse<String> r = api().post(site.admin("/api/tags/" + enc(tag) + "/invalidate"), "Authorization", BEARER);
      assertEquals(200, r.statusCode(), tag + ": " + r.body());
    }
  }

  @Test
  void hostileNamesAndTagsAreNeverShownRaw() {
    site();
    AdminClient editor = AdminClient.signIn(site, "editor", "editor");
    String script = "<script>alert(1)</script>";

    HttpResponse<String> json = api().post(site.admin("/api/tags/" + enc(script) + "/invalidate"), "Authorization", BEARER);
    api().post(site.admin("/api/handlers/" + enc("<img src=x onerror=alert(2)>") + "/refresh"), "Authorization", BEARER);
    HttpResponse<String> refreshConfirmation = // an unknown handler: 404, the page names it
        editor.postForm(site.admin("/refresh"), form("handler", "<img src=x onerror=alert(3)>", "csrf", editor.csrf()));
    HttpResponse<String> posted = editor.postForm(site.admin("/invalidate"), form("tag", script, "csrf", editor.csrf()));
    HttpResponse<String> page = editor.get(site.admin("/"));
    HttpResponse<String> stats = api().get(site.admin("/api/stats"), "Authorization", BEARER);

    assertEquals(200, json.statusCode(), json.body());
    assertEquals("{\"tag\":\"\\u003cscript\\u003ealert(1)\\u003c/script\\u003e\"", json.body().substring(0, json.body().indexOf(",")));
    assertEquals(303, posted.statusCode());
    assertTrue(page.body().contains("tagged \u201c&lt;script&gt;alert(1)&lt;/script&gt;\u201d"), page.body());
    assertTrue(refreshConfirmation.body().contains("&lt;img src=x onerror=alert(3)&gt;"), refreshConfirmation.body());
    assertFalse(page.body().contains("onerror=alert(2)"), "a refresh of an unknown name adds no handler row");
    for (String body : List.of(page.body(), refreshConfirmation.body())) {
      assertFalse(body.contains("<script>alert"));
      assertFalse(body.contains("<img"));
    }
    assertFalse(stats.body().contains("<"), stats.body());
  }

  // ---- memcached down ----

  @Test
  void aRefreshMemcachedCouldNotStoreIs503NeverSuccess() {
    site();
    AdminClient editor = AdminClient.signIn(site, "editor", "editor");
    String csrf = editor.csrf();
    memcached.node(0).stop();
    try {
      HttpResponse<String> viaApi = api().post(site.admin("/api/handlers/article/refresh"), "Authorization", BEARER);
      HttpResponse<String> viaForm = editor.postForm(site.admin("/refresh"), form("handler", "article", "csrf", csrf));
      HttpResponse<String> tag = api().post(site.admin("/api/tags/a/invalidate"), "Authorization", BEARER);
      HttpResponse<String> stats = api().get(site.admin("/api/stats"), "Authorization", BEARER);

      assertEquals(503, viaApi.statusCode(), viaApi.body());
      assertTrue(field(viaApi.body(), "error").contains("memcached is unreachable"), viaApi.body());
      assertEquals(503, viaForm.statusCode());
      assertTrue(viaForm.body().contains("could not be saved"), viaForm.body());
      assertFalse(viaForm.body().contains("Refreshed handler"));
      assertEquals(503, tag.statusCode());
      assertEquals(200, stats.statusCode(), "the counters stay readable");
      assertEquals("true", field(stats.body(), "storeDown"));
      assertEquals("false", field(stats.body().substring(stats.body().indexOf("\"servers\"")), "up"));
      assertEquals(0, site.cache().stats().handler("article").lastRefreshMillis());
    } finally {
      memcached.node(0).start();
    }
  }

  // ---- access ----

  @Test
  void requestsWithoutCredentialsAre401AndWrongOnes403() {
    site();
    HttpResponse<String> none = api().get(site.admin("/api/stats"));
    HttpResponse<String> wrongToken = api().get(site.admin("/api/stats"), "Authorization", "Bearer nope");
    HttpResponse<String> wrongTokenPost = api().post(site.admin("/api/handlers/article/refresh"), "Authorization", "Bearer nope");
    AdminClient reader = AdminClient.anonymous(site);
    reader.postForm(site.uri("/j_security_check"), form("j_username", "reader", "j_password", "reader"));
    HttpResponse<String> wrongRole = reader.get(site.admin("/api/stats"));

    assertEquals(401, none.statusCode());
    assertEquals("Bearer realm=\"PageCache admin\"", none.headers().firstValue("WWW-Authenticate").orElse(null));
    assertTrue(field(none.body(), "error").contains("credentials required"));
    assertEquals(403, wrongToken.statusCode());
    assertEquals(403, wrongTokenPost.statusCode());
    assertEquals(0, site.cache().stats().handler("article").lastRefreshMillis());
    assertEquals(403, wrongRole.statusCode(), wrongRole.body());
    assertTrue(field(wrongRole.body(), "error").contains("user 'reader' is not in role 'pagecache-admin'"), wrongRole.body());
  }

  @Test
  void withNeitherTokenNorSignInEverythingIsRefusedWithHowToConfigure() {
    site = AdminSite.on(memcached.servers()).noToken().noSignIn().start();

    HttpResponse<String> page = api().get(site.admin("/"));
    HttpResponse<String> stats = api().get(site.admin("/api/stats"));
    HttpResponse<String> refresh = api().post(site.admin("/api/handlers/article/refresh"), "Authorization", "Bearer anything");

    assertEquals(403, page.statusCode());
    assertTrue(page.body().contains("set PAGECACHE_ADMIN_TOKEN"), page.body());
    assertTrue(page.body().contains("security-constraint for role pagecache-admin"));
    assertEquals(403, stats.statusCode());
    assertTrue(field(stats.body(), "error").contains("PAGECACHE_ADMIN_TOKEN"));
    assertEquals(403, refresh.statusCode());
  }

  @Test
  void withoutThePageCacheFilterTheServletAnswers503() {
    try (JettyServer bare = JettyServer.start(ctx ->
        JettyServer.servlet(ctx, "pagecache-admin", new PageCacheAdminServlet(), "/cache-admin/*"))) {
      HttpResponse<byte[]> r = Http.get(bare.uri("/cache-admin/api/stats"), "Authorization", BEARER);
      assertEquals(503, r.statusCode());
      assertTrue(Http.text(r).contains("the PageCacheFilter is not configured"), Http.text(r));
      assertEquals("no-store", r.headers().firstValue("Cache-Control").orElse(null));
    }
  }

  @Test
  @SuppressWarnings("deprecation")
  void theServletsFormerNameStillDeploysAndAnswersAsTheAdminServlet() {
    try (JettyServer bare = JettyServer.start(ctx -> JettyServer.servlet(ctx, "pagecache-admin",
        new org.pagecache.PageCacheAdminServlet(), "/cache-admin/*"))) {
      HttpResponse<byte[]> r = Http.get(bare.uri("/cache-admin/api/stats"), "Authorization", BEARER);
      assertEquals(503, r.statusCode());
      assertTrue(Http.text(r).contains("the PageCacheFilter is not configured"), Http.text(r));
    }
  }

  // ---- routes ----

  @Test
  void unknownRoutesAre404AndWrongMethods405WithAllow() {
    site = AdminSite.on(memcached.servers()).noSignIn().start(); // token only: every path reaches the servlet
    HttpResponse<String> unknown = api().get(site.admin("/api/nothing"), "Authorization", BEARER);
    HttpResponse<String> getRefresh = api().get(site.admin("/api/handlers/article/refresh"), "Authorization", BEARER);
    HttpResponse<String> postStats = api().post(site.admin("/api/stats"), "Authorization", BEARER);
    HttpResponse<String> deletePage = api().send("DELETE", site.admin("/"), "Authorization", BEARER);
    HttpResponse<String> getForm = api().get(site.admin("/refresh"), "Authorization", BEARER);

    assertEquals(404, unknown.statusCode());
    assertTrue(field(unknown.body(), "error").contains("POST /api/handlers/{name}/refresh"), "a 404 lists the routes");
    assertEquals(405, getRefresh.statusCode());
    assertEquals("POST", getRefresh.headers().firstValue("Allow").orElse(null));
    assertTrue(getRefresh.body().startsWith("{\"error\":"));
    assertEquals(405, postStats.statusCode());
    assertEquals("GET, HEAD", postStats.headers().firstValue("Allow").orElse(null));
    assertEquals(405, deletePage.statusCode());
    assertEquals(405, getForm.statusCode());
    assertTrue(getForm.headers().firstValue("Content-Type").orElse("").startsWith("text/html"), "errors off /api are pages");
  }

  @Test
  void everyAdminResponseIsNoStore() {
    site();
    AdminClient editor = AdminClient.signIn(site, "editor", "editor");
    HttpResponse<?>[] responses = {
        editor.get(site.admin("/")),
        editor.postForm(site.admin("/refresh"), form("handler", "home", "csrf", editor.csrf())),
        editor.postForm(site.admin("/refresh"), form("handler", "home")),
        api().get(site.admin("/api/stats"), "Authorization", BEARER),
        api().get(site.admin("/api/stats")),
        api().get(site.admin("/api/nope"), "Authorization", BEARER),
        api().post(site.admin("/api/tags/%01/invalidate"), "Authorization", BEARER),
    };
    for (HttpResponse<?> r : responses) {
      assertEquals("no-store", r.headers().firstValue("Cache-Control").orElse(null), r.request().method() + " " + r.uri()
          + " " + r.statusCode());
    }
    assertEquals(0, site.cache().stats().handler("pagecache-admin").rebuilds(), "the filter never stores an admin page");
    assertEquals(0, site.cache().stats().handler("pagecache-admin").hits());
  }

  // ---- helpers ----

  private AdminClient api() {
    return AdminClient.anonymous(site);
  }

  private String stats() {
    return api().get(site.admin("/api/stats"), "Authorization", BEARER).body();
  }

  /**
   * Requests a page until it is a HIT. The first page of a new tag is rebuilt once more (the tag's
   * version is created during that first build), hence up to three requests.
   */
  private void warm(String path) {
    assertEquals("MISS", xcache(path), path);
    for (int i = 0; i < 2; i++) {
      if ("HIT".equals(xcache(path))) {
        return;
      }
    }
    throw new AssertionError(path + " is not cached");
  }

  private String xcache(String path) {
    return Http.get(site.uri(path)).headers().firstValue("X-Cache").orElse(null);
  }

  private static Map<String, String> form(String... pairs) {
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      m.put(pairs[i], pairs[i + 1]);
    }
    return m;
  }

  private static String enc(String s) {
    return java.net.URLEncoder.encode(s, java.nio.charset.StandardCharsets.UTF_8).replace("+", "%20");
  }

  /** The raw JSON value of the first field with this name (a string keeps its quotes), or null. */
  static String field(String json, String name) {
    Matcher m = Pattern.compile("\"" + Pattern.quote(name) + "\":(null|true|false|-?[0-9.eE+-]+|\"(?:[^\"\\\\]|\\\\.)*\")")
        .matcher(json);
    return m.find() ? m.group(1) : null;
  }

  /** The object of one handler in {@code api/stats} (flat: it ends at the first closing brace). */
  static String handlerJson(String stats, String handler) {
    int start = stats.indexOf("{\"name\":\"" + handler + "\"");
    assertTrue(start >= 0, handler + " in " + stats);
    return stats.substring(start, stats.indexOf('}', start) + 1);
  }
}
