package org.pagecache.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.pagecache.demo.DeployedDemoContract.ADMIN_TOKEN;
import static org.pagecache.demo.DeployedDemoContract.xCache;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.pagecache.testing.Eventually;
import org.pagecache.testing.Http;
import org.pagecache.testing.MemcachedExtension;
import org.pagecache.testing.containers.Deployment;

/**
 * The demo WAR deployed unchanged on a container nobody prepared for it: no login realm, no user,
 * configured only through the environment (PAGECACHE_MEMCACHED_SERVERS, PAGECACHE_ADMIN_TOKEN).
 * The public site and the token-protected admin API must work; the editor and the admin page stay
 * locked (401) until the operator adds a realm (docs/deploy.md). The full contract, with a realm,
 * is {@link DeployedDemoContract}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class StockContainerContract {
  @RegisterExtension
  static MemcachedExtension memcached = MemcachedExtension.nodes(1);

  Deployment site;

  /** Deploys the WAR on the container's stock configuration with this environment; returns when it answers. */
  abstract Deployment deployStock(Path war, Path workDir, Map<String, String> env);

  @BeforeAll
  void deploy() throws Exception {
    Path war = Path.of(System.getProperty("demo.war", "target/pagecache-demo.war"));
    assertTrue(Files.isRegularFile(war), "the WAR is packaged before the deployment tests run: " + war.toAbsolutePath());
    Path workDir = Path.of(System.getProperty("deployments.dir", "target/deployments"))
        .resolve(getClass().getSimpleName() + "-" + System.currentTimeMillis());
    Files.createDirectories(workDir);
    site = deployStock(war, workDir, DeployedDemoContract.environment(memcached));
    assertTrue(Eventually.within(Duration.ofSeconds(30), () -> !xCache(get("/article/1")).equals("BYPASS")),
        site + " answered but never cached /article/1 within 30 s");
  }

  @AfterAll
  void undeploy() {
    if (site != null) {
      site.close();
    }
  }

  /** One page of each public handler: the home page, a section, an article, the JSON API. */
  List<String> publicPages() {
    return List.of("/", "/section/world", "/article/5", "/api/articles/6");
  }

  @Test
  void thePublicPagesAreServedAndCachedInTheRealMemcached() {
    long itemsBefore = memcached.text(0).statLong("curr_items");
    for (String path : publicPages()) {
      HttpResponse<byte[]> first = get(path);
      HttpResponse<byte[]> second = get(path);

      assertEquals(200, first.statusCode(), path);
      assertEquals("MISS", xCache(first), path + " first request");
      assertEquals("HIT", xCache(second), path + " second request");
    }
    assertTrue(memcached.text(0).statLong("curr_items") > itemsBefore,
        "the pages went to the memcached of PAGECACHE_MEMCACHED_SERVERS");
  }

  @Test
  void theAdminApiRefreshesAHandlerWithTheTokenOfTheEnvironment() {
    get("/section/sport");
    assertEquals("HIT", xCache(get("/section/sport")), "cached before the refresh");
    HttpResponse<byte[]> noToken = Http.post(site.uri("/cache-admin/api/handlers/section/refresh"), "");
    assertEquals(401, noToken.statusCode(), Http.text(noToken));

    HttpResponse<byte[]> refreshed = Http.post(site.uri("/cache-admin/api/handlers/section/refresh"), "",
        "Authorization", "Bearer " + ADMIN_TOKEN);

    assertEquals(200, refreshed.statusCode(), Http.text(refreshed));
    assertTrue(Http.text(refreshed).contains("\"handler\":\"section\""), Http.text(refreshed));
    assertEquals("STALE", xCache(get("/section/sport")), "the previous page at once after the refresh");
    Eventually.assertWithin(Duration.ofSeconds(30), "rebuilt in the background and cached again",
        () -> "HIT".equals(xCache(get("/section/sport"))));
  }

  /** Without a realm nobody is an editor: the editor and the admin page are locked, never open. */
  @Test
  void withoutARealmTheEditorAndTheAdminPageAskForASignInThatNobodyPasses() {
    assertEquals(401, new EditorClient(site::uri, null, null).get("/cms/").statusCode(), "no credentials");
    assertEquals(401, new EditorClient(site::uri, "editor", "editor").get("/cms/").statusCode(),
        "the demo's editor does not exist on a stock container");
    assertEquals(401, new EditorClient(site::uri, null, null).get("/cache-admin/").statusCode(), "the admin page");
    assertEquals(401, new EditorClient(site::uri, "editor", "editor").get("/cache-admin/api/stats").statusCode(),
        "the demo's password does not open the admin API either");
    assertEquals(200, get("/cms/stats").statusCode(), "the public part of /cms");
  }

  HttpResponse<byte[]> get(String path) {
    return Http.get(site.uri(path));
  }
}
