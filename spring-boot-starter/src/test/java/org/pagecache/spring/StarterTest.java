package org.pagecache.spring;

import org.pagecache.stats.Eviction;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.pagecache.CachePolicy;
import org.pagecache.PageCache;
import org.pagecache.spring.testapp.TestApplication;
import org.pagecache.testing.Eventually;
import org.pagecache.testing.Http;
import org.pagecache.testing.MemcachedExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The starter in a running Spring Boot application (embedded Tomcat, Spring Security), over real
 * HTTP against real memcached. Each test uses paths of its own.
 */
@SpringBootTest(classes = TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {"pagecache.namespace=starter-test", "pagecache.policies=beta: ttl=7m; Owners.pet: tags=pet:{petId}; Owners.pets: refreshed-by=/pets/*",
        "management.endpoints.web.exposure.include=pagecache", "management.endpoint.pagecache.access=unrestricted"})
class StarterTest {
  @RegisterExtension
  static MemcachedExtension memcached = MemcachedExtension.nodes(1);

  @DynamicPropertySource
  static void memcached(DynamicPropertyRegistry registry) {
    MemcachedProperties.register(registry, memcached);
  }

  @LocalServerPort
  int port;

  @Autowired
  PageCache pageCache;

  @Test
  void eachControllerMethodIsAHandlerOfItsOwnAndRefreshesAlone() {
    get("/a/1");
    get("/b/1");
    assertEquals("HIT", xCache(get("/a/1")));
    assertEquals("HIT", xCache(get("/b/1")));

    pageCache.refreshHandler("alpha");

    HttpResponse<byte[]> a = get("/a/1");
    assertEquals("STALE", xCache(a), "alpha's previous page at once, while it is rebuilt in the background");
    assertEquals("alpha 1 call 1", body(a));
    Eventually.assertWithin(Duration.ofSeconds(30), "alpha's page rebuilt through the controller",
        () -> body(get("/a/1")).equals("alpha 1 call 2"));
    assertEquals("HIT", xCache(get("/a/1")));
    HttpResponse<byte[]> b = get("/b/1");
    assertEquals("HIT", xCache(b), "beta keeps its page");
    assertEquals("beta 1 call 1", body(b));
  }

  @Test
  void aControllerAnnotationCoversItsMethodsUnderTheirOwnNames() {
    assertEquals("MISS", xCache(get("/c/one")));
    assertEquals("HIT", xCache(get("/c/one")));
    assertEquals(Duration.ofMinutes(1), policy("ClassLevel.one").ttl());
  }

  @Test
  void methodsWithoutTheAnnotationAreNotCached() {
    HttpResponse<byte[]> first = get("/plain");
    HttpResponse<byte[]> second = get("/plain");
    assertEquals("BYPASS", xCache(second));
    assertTrue(second.headers().firstValue("Cache-Status").orElse("").contains("detail=disabled"));
    assertTrue(!body(first).equals(body(second)), "built on every request");
  }

  @Test
  void theApplicationsPoliciesComeOnTopOfTheAnnotation() {
    assertEquals(Duration.ofMinutes(7), policy("beta").ttl());
    assertEquals(Duration.ofMinutes(5), policy("alpha").ttl());
  }

  @Test
  void aStoredPageIsNotServedPastSpringSecurity() {
    String editor = basic("editor", "editor-pw");
    assertEquals("MISS", xCache(get("/members", "Authorization", editor)));
    assertEquals("HIT", xCache(get("/members", "Authorization", editor)));

    HttpResponse<byte[]> anonymous = Http.get(uri("/members"));
    assertEquals(401, anonymous.statusCode(), "the filter runs after the security chain");
  }

  @Test
  void theAdminServletTakesItsRoleFromSpringSecurity() {
    assertEquals(200, Http.get(uri("/cache-admin/api/stats"), "Authorization", basic("editor", "editor-pw")).statusCode());
    assertEquals(403, Http.get(uri("/cache-admin/api/stats"), "Authorization", basic("reader", "reader-pw")).statusCode());
  }

  @Test
  void aCallableControllerIsCapturedThroughItsAsyncDispatchAndServedAsAHit() {
    teachAsyncDispatches();
    HttpResponse<byte[]> first = get("/slow/page");
    HttpResponse<byte[]> second = get("/slow/page");
    assertEquals("MISS", xCache(first), first.headers().map().toString());
    assertEquals("slow page call 1 " + "s".repeat(3000), body(first), "the whole body");
    assertEquals("HIT", xCache(second));
    assertEquals(body(first), body(second));
  }

  @Test
  void aDeferredResultIsCapturedThroughItsAsyncDispatchAndServedAsAHit() {
    teachAsyncDispatches();
    HttpResponse<byte[]> first = get("/deferred/page");
    HttpResponse<byte[]> second = get("/deferred/page");
    assertEquals("MISS", xCache(first), first.headers().map().toString());
    assertEquals("deferred page call 1", body(first));
    assertEquals("HIT", xCache(second));
    assertEquals("deferred page call 1", body(second));
  }

  /** The first ASYNC dispatch the filter sees tells it that it is mapped for them (it goes out whole, uncached). */
  private void teachAsyncDispatches() {
    HttpResponse<byte[]> teaching = get("/slow/teaching");
    assertTrue(body(teaching).startsWith("slow teaching call "), body(teaching));
  }

  @Test
  void evictFindsTheControllerMethodsHandlerByUrl() {
    get("/a/evicted");
    Eviction eviction = pageCache.evict("http://127.0.0.1:" + port + "/a/evicted");
    assertEquals("alpha", eviction.handler());
    assertTrue(eviction.existed());
    assertEquals("MISS", xCache(get("/a/evicted")));
  }

  @Test
  void theActuatorRefreshesAKnownHandler() {
    get("/a/actuator");
    assertEquals("HIT", xCache(get("/a/actuator")));

    HttpResponse<byte[]> refresh = Http.post(uri("/actuator/pagecache"), "{\"handler\":\"alpha\"}",
        "Content-Type", "application/json");

    assertEquals(200, refresh.statusCode(), body(refresh));
    assertEquals("MISS", xCache(get("/a/actuator")));
  }

  @Test
  void theActuatorInvalidatesAndPurgesSeveralTagsInOneCall() {
    for (String path : new String[] {"/pets/21", "/pets/22", "/pets/23"}) {
      get(path);
      assertEquals("HIT", xCache(get(path)));
    }
    HttpResponse<byte[]> purge = Http.post(uri("/actuator/pagecache"), "{\"tags\":\"pet:21 pet:22\",\"hard\":true}",
        "Content-Type", "application/json");
    assertEquals(200, purge.statusCode(), body(purge));
    assertTrue(body(purge).contains("\"invalidations\":[{\"tag\":\"pet:21\""), body(purge));
    assertTrue(body(purge).contains("\"hard\":true"), body(purge));
    assertEquals("MISS", xCache(get("/pets/21")));
    assertEquals("MISS", xCache(get("/pets/22")));
    assertEquals("HIT", xCache(get("/pets/23")));
    HttpResponse<byte[]> soft = Http.post(uri("/actuator/pagecache"), "{\"tags\":\"pet:23, pet:21\"}",
        "Content-Type", "application/json");
    assertEquals(200, soft.statusCode(), body(soft));
    assertTrue(body(soft).contains("\"hard\":false"), body(soft));
    assertEquals("MISS", xCache(get("/pets/23")));
  }

  @Test
  void theActuatorAnswers404ForAnUnknownHandlerAndRefreshesNothing() {
    get("/a/typo");
    assertEquals("HIT", xCache(get("/a/typo")));

    HttpResponse<byte[]> refresh = Http.post(uri("/actuator/pagecache"), "{\"handler\":\"alpah\"}",
        "Content-Type", "application/json");

    assertEquals(404, refresh.statusCode(), body(refresh));
    assertTrue(body(refresh).contains("no handler named 'alpah'"), body(refresh));
    assertTrue(body(refresh).contains("alpha"), "the known handlers are listed: " + body(refresh));
    assertEquals("HIT", xCache(get("/a/typo")));
  }

  @Test
  void aControllerMethodWithoutCachedPageIsAKnownHandlerToo() {
    HttpResponse<byte[]> refresh = Http.post(uri("/actuator/pagecache"), "{\"handler\":\"Pages.plain\"}",
        "Content-Type", "application/json");
    assertEquals(200, refresh.statusCode(), body(refresh));
  }

  @Test
  void aSuccessfulWriteRefreshesTheTaggedPagesAndTheListItNames() {
    get("/owners/1");
    get("/owners/2");
    get("/owners");
    assertEquals("HIT", xCache(get("/owners/1")));
    assertEquals("HIT", xCache(get("/owners")));

    HttpResponse<byte[]> write = Http.post(uri("/owners/1/rename?name=Franklin"), "");
    assertEquals(200, write.statusCode(), body(write));

    HttpResponse<byte[]> owner = get("/owners/1");
    assertEquals("MISS", xCache(owner), "tag owner:1 was invalidated");
    assertTrue(body(owner).startsWith("owner 1 Franklin"), body(owner));
    HttpResponse<byte[]> list = get("/owners");
    assertEquals("MISS", xCache(list), "handler ownerList was refreshed");
    assertTrue(body(list).contains("1=Franklin"), body(list));
    assertEquals("HIT", xCache(get("/owners/2")), "another owner's page keeps its copy");
  }

  @Test
  void aFailedWriteRefreshesNothing() {
    get("/owners/3");
    assertEquals("HIT", xCache(get("/owners/3")));

    HttpResponse<byte[]> write = Http.post(uri("/owners/3/rename?name="), "");

    assertEquals(400, write.statusCode());
    assertEquals("HIT", xCache(get("/owners/3")));
  }

  @Test
  void policiesTagPagesAndRefreshHandlersWithoutCode() {
    get("/pets/7");
    get("/pets");
    assertEquals("HIT", xCache(get("/pets/7")));
    assertEquals("HIT", xCache(get("/pets")));

    pageCache.invalidateTag("pet:7");
    assertEquals("STALE", xCache(get("/pets/7")), "tags=pet:{petId} tagged the page: rebuilt in the background");
    Eventually.assertWithin(Duration.ofSeconds(30), "rebuilt", () -> "HIT".equals(xCache(get("/pets/7"))));

    assertEquals(200, Http.post(uri("/pets/7"), "").statusCode());
    assertEquals("MISS", xCache(get("/pets")), "refreshed-by=/pets/* refreshed the list after the write");
  }

  @Test
  void aRestMethodIsKeyedByAccept() {
    HttpResponse<byte[]> html = get("/b/accept", "Accept", "text/html");
    HttpResponse<byte[]> plain = get("/b/accept", "Accept", "text/plain");
    assertEquals("MISS", xCache(plain), "message converters answer by Accept: another page");
    assertTrue(html.headers().firstValue("Content-Type").orElse("").startsWith("text/html"));
    assertTrue(plain.headers().firstValue("Content-Type").orElse("").startsWith("text/plain"));
    assertEquals("HIT", xCache(get("/b/accept", "Accept", "text/html")));
  }

  @Test
  void aMethodProducingTwoTypesIsKeyedByTheNegotiatedOne() {
    HttpResponse<byte[]> json = get("/negotiated", "Accept", "application/json");
    HttpResponse<byte[]> html = get("/negotiated", "Accept", "text/html");
    assertTrue(body(json).startsWith("{"), body(json));
    assertTrue(body(html).startsWith("<p>"), "the HTML request is not served the JSON page: " + body(html));

    HttpResponse<byte[]> jsonAgain = get("/negotiated", "Accept", "application/json");
    HttpResponse<byte[]> htmlAgain = get("/negotiated", "Accept", "text/html");
    assertEquals("HIT", xCache(jsonAgain));
    assertEquals(body(json), body(jsonAgain));
    assertEquals("HIT", xCache(htmlAgain));
    assertEquals(body(html), body(htmlAgain));
  }

  @Test
  void springMvcReadingAcceptForAViewIsNotReportedAsAnUnkeyedRead() {
    HttpResponse<byte[]> first = get("/greeting", "Accept", "text/html");
    HttpResponse<byte[]> second = get("/greeting", "Accept", "application/xhtml+xml, */*;q=0.8");
    assertEquals("HIT", xCache(second), "one page for every Accept");
    assertEquals(body(first), body(second));
    HttpResponse<byte[]> stats = Http.get(uri("/cache-admin/api/stats"), "Authorization", basic("editor", "editor-pw"));
    // (Accept-Language, which the view's locale comes from, may well change the page: it stays evidence.)
    java.util.Set<String> reads = unkeyedHeaders(body(stats), "greeting");
    assertTrue(!reads.contains("accept"), "accept is no evidence: " + reads);
  }

  /** The names of the unkeyed header reads the admin API reports for one handler. */
  @SuppressWarnings("unchecked")
  private static java.util.Set<String> unkeyedHeaders(String stats, String handler) {
    Object handlers = org.springframework.boot.json.JsonParserFactory.getJsonParser().parseMap(stats).get("handlers");
    for (Object h : (java.util.List<Object>) handlers) {
      if (handler.equals(((java.util.Map<String, Object>) h).get("name"))) {
        return ((java.util.Map<String, Object>) ((java.util.Map<String, Object>) h).get("unkeyedHeaders")).keySet();
      }
    }
    throw new AssertionError("no handler " + handler + " in " + stats);
  }

  private CachePolicy policy(String handler) {
    return pageCache.policies().stream().filter(p -> p.handler().equals(handler)).findFirst()
        .orElseThrow(() -> new AssertionError("no policy " + handler + " in " + pageCache.policies()));
  }

  private HttpResponse<byte[]> get(String path, String... headers) {
    HttpResponse<byte[]> res = Http.get(uri(path), headers);
    assertEquals(200, res.statusCode(), path + ": " + body(res));
    return res;
  }

  private URI uri(String path) {
    return URI.create("http://127.0.0.1:" + port + path);
  }

  private static String basic(String user, String password) {
    return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
  }

  private static String xCache(HttpResponse<byte[]> res) {
    return res.headers().firstValue("X-Cache").orElse("(none)");
  }

  private static String body(HttpResponse<byte[]> res) {
    return new String(res.body(), StandardCharsets.UTF_8);
  }
}
