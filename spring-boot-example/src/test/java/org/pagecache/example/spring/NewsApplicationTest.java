package org.pagecache.example.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.pagecache.PageCache;
import org.pagecache.stats.HandlerStats;
import org.pagecache.testing.Eventually;
import org.pagecache.testing.Http;
import org.pagecache.testing.MemcachedExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The example as a Spring team runs it: the real application on its embedded Tomcat, real HTTP,
 * real memcached. Each test uses its own article id and namespace-free pages of its own, so the
 * order of the tests does not matter.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {"example.ops.password=test-password", "example.member.password=member-password",
        "pagecache.namespace=news-example"})
class NewsApplicationTest {
  @RegisterExtension
  static MemcachedExtension memcached = MemcachedExtension.nodes(1);

  @DynamicPropertySource
  static void memcached(DynamicPropertyRegistry registry) {
    registry.add("pagecache.memcached.servers", memcached::servers);
  }

  @LocalServerPort
  int port;

  @Autowired
  PageCache pageCache;

  private static final String OPS = "Basic " + Base64.getEncoder().encodeToString("ops:test-password".getBytes(StandardCharsets.UTF_8));

  @Test
  void annotatedPageIsAMissThenAHit() {
    HttpResponse<byte[]> first = get("/article/1");
    HttpResponse<byte[]> second = get("/article/1");

    assertEquals("MISS", xCache(first));
    assertEquals("HIT", xCache(second));
    assertEquals(build(first), build(second), "the hit is the stored page, not a new build");
  }

  @Test
  void pageOfAMethodWithoutCachedPageIsNeverStored() {
    assertEquals("BYPASS", xCache(get("/account")));
    HttpResponse<byte[]> again = get("/account");
    assertEquals("BYPASS", xCache(again));
    assertTrue(again.headers().firstValue("Cache-Status").orElse("").contains("detail=disabled"),
        again.headers().firstValue("Cache-Status").orElse("(none)"));
  }

  @Test
  void refreshThroughTheActuatorRebuildsOnlyThatHandlersPages() {
    get("/article/2");
    get("/");
    HttpResponse<byte[]> article = get("/article/2");
    HttpResponse<byte[]> home = get("/");
    assertEquals("HIT", xCache(article));
    assertEquals("HIT", xCache(home));

    HttpResponse<byte[]> refresh = Http.post(uri("/actuator/pagecache"), "{\"handler\":\"article\"}",
        "Authorization", OPS, "Content-Type", "application/json");
    assertEquals(200, refresh.statusCode(), body(refresh));
    assertTrue(body(refresh).contains("\"known\":true"), body(refresh));

    HttpResponse<byte[]> rebuilt = get("/article/2");
    assertEquals("MISS", xCache(rebuilt), "the refreshed handler's page is rebuilt");
    assertTrue(build(rebuilt) > build(article));
    HttpResponse<byte[]> homeAfter = get("/");
    assertEquals("HIT", xCache(homeAfter), "the other handler keeps its page");
    assertEquals(build(home), build(homeAfter));
  }

  @Test
  void theEndpointShowsEachHandlersPolicyAndStatistics() {
    get("/article/4");
    HttpResponse<byte[]> stats = Http.get(uri("/actuator/pagecache"), "Authorization", OPS);
    assertEquals(200, stats.statusCode(), body(stats));
    assertTrue(body(stats).contains("\"article\":{\"policy\":\"ttl=5m, grace=30m"), body(stats));
    assertTrue(body(stats).contains("\"storeDown\":false"), body(stats));
  }

  @Test
  void theEndpointShowsEachHandlersFiguresSummedOverEveryFrontend() {
    get("/article/6");
    get("/article/6");
    HandlerStats article = pageCache.stats().handler("article");
    String expected = "\"cluster\":{\"windowMinutes\":60,\"hits\":" + (article.hits() + article.stale())
        + ",\"misses\":" + article.misses() + ",\"rebuilds\":" + article.rebuilds();
    // each frontend adds its figures every 5 s: poll the endpoint until this one's have arrived
    Eventually.assertWithin(Duration.ofSeconds(30), "the endpoint shows " + expected,
        () -> body(Http.get(uri("/actuator/pagecache"), "Authorization", OPS)).contains(expected));
  }

  @Test
  void aWriteWithoutHandlerOrTagIsRefused() {
    HttpResponse<byte[]> empty = Http.post(uri("/actuator/pagecache"), "{}", "Authorization", OPS,
        "Content-Type", "application/json");
    assertEquals(400, empty.statusCode(), body(empty));
  }

  @Test
  void actuatorWritesNeedAnOperator() {
    HttpResponse<byte[]> anonymous = Http.post(uri("/actuator/pagecache"), "{\"handler\":\"article\"}",
        "Content-Type", "application/json");
    assertEquals(401, anonymous.statusCode());
  }

  @Test
  void metricsShowTheHitsOfEachHandler() {
    get("/article/3");
    get("/article/3");
    get("/article/3");

    HttpResponse<byte[]> hits = Http.get(uri("/actuator/metrics/cache.gets?tag=cache:article&tag=result:hit"),
        "Authorization", OPS);
    assertEquals(200, hits.statusCode(), body(hits));
    Matcher m = Pattern.compile("\"statistic\":\"COUNT\",\"value\":([0-9.]+)").matcher(body(hits));
    assertTrue(m.find(), body(hits));
    assertTrue(Double.parseDouble(m.group(1)) >= 2, body(hits));
  }

  private static String member(String name) {
    return "Basic " + Base64.getEncoder().encodeToString((name + ":member-password").getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void membersAreServedTheMembersCachedPageWithTheirOwnGreeting() {
    HttpResponse<byte[]> alices = Http.get(uri("/article/77"), "Authorization", member("alice"));
    assertTrue(body(alices).contains("Signed in as alice"), body(alices));
    HttpResponse<byte[]> bobs = Http.get(uri("/article/77"), "Authorization", member("bob"));
    assertEquals("HIT", xCache(bobs), () -> pageCache.stats("article").sessionBypasses().toString());
    assertTrue(body(bobs).contains("Signed in as bob"), body(bobs));
    assertFalse(body(bobs).contains("alice"));
    assertEquals(build(alices), build(bobs), "the page alice's request built");
    HttpResponse<byte[]> anonymous = get("/article/77");
    assertTrue(body(anonymous).contains("Welcome, guest") && !body(anonymous).contains("Signed in as"), body(anonymous));
    assertTrue(pageCache.stats("article").signedInHits() >= 1);
  }

  @Test
  void adminApiLetsInASpringSecurityUserInTheAdminRole() {
    HttpResponse<byte[]> stats = Http.get(uri("/cache-admin/api/stats"), "Authorization", OPS);
    assertEquals(200, stats.statusCode(), body(stats));
  }

  private HttpResponse<byte[]> get(String path) {
    HttpResponse<byte[]> res = Http.get(uri(path));
    assertEquals(200, res.statusCode(), path + ": " + body(res));
    return res;
  }

  private URI uri(String path) {
    return URI.create("http://127.0.0.1:" + port + path);
  }

  private static String xCache(HttpResponse<byte[]> res) {
    return res.headers().firstValue("X-Cache").orElse("(none)");
  }

  private static int build(HttpResponse<byte[]> res) {
    Matcher m = Pattern.compile("build (\\d+)").matcher(body(res));
    assertTrue(m.find(), body(res));
    return Integer.parseInt(m.group(1));
  }

  private static String body(HttpResponse<byte[]> res) {
    return new String(res.body(), StandardCharsets.UTF_8);
  }
}
