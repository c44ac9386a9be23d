package org.pagecache.spring.deception;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.pagecache.PageCache;
import org.pagecache.spring.MemcachedProperties;
import org.pagecache.testing.Http;
import org.pagecache.testing.MemcachedExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Web cache deception in Spring Boot (issue 35, class 1): one DispatcherServlet serves every URL,
 * so a policy's {@code paths=} pattern is ranked against the mapping of the controller method that
 * serves the URL (exact, longest prefix, extension, catch-all) and claims it only where at least as
 * specific. Embedded Tomcat, real HTTP, real memcached.
 */
@SpringBootTest(classes = AccountsApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {"pagecache.namespace=deception-test", "pagecache.policies=assets: ttl=1h, paths=*.css, cookies=ignore"})
class UrlBelongsToItsControllerTest {
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
  void anUnannotatedControllerAtAPrefixKeepsItsUrlsFromAnExtensionPattern() {
    HttpResponse<byte[]> victim = get("/account/x.css", "Cookie", "user=alice");
    assertEquals("<p>Orders of alice</p>", Http.text(victim));
    assertEquals("BYPASS", xCache(victim), "/account/** beats *.css: the unannotated method is not cached");
    HttpResponse<byte[]> attacker = get("/account/x.css");
    assertEquals("<p>Orders of nobody</p>", Http.text(attacker), "the victim's page never reaches another visitor");
    assertEquals("BYPASS", xCache(attacker));
  }

  /**
   * The servlet mapping of a plain servlet beside the DispatcherServlet, as Tomcat reports it to the
   * filter: {@code /reports/*} beats {@code *.css}, and the controllers' catch-all {@code /**} does
   * not serve (nor name) the servlet's URLs.
   */
  @Test
  void aPlainServletAtAPrefixKeepsItsUrlsFromAnExtensionPattern() {
    HttpResponse<byte[]> victim = get("/reports/x.css", "Cookie", "user=alice");
    assertEquals("<p>Reports of alice</p>", Http.text(victim));
    assertEquals("BYPASS", xCache(victim), "the reports servlet's cookies=bypass (the starter's default: not cached)");
    HttpResponse<byte[]> attacker = get("/reports/x.css");
    assertEquals("<p>Reports of nobody</p>", Http.text(attacker), "the victim's page never reaches another visitor");
    assertEquals("reports", pageCache.evict(uri("/reports/x.css").toString()).handler());
  }

  @Test
  void anAnnotatedControllersOwnCookieRuleAppliesUnderAnExtensionPattern() {
    HttpResponse<byte[]> victim = get("/profile/x.css", "Cookie", "user=alice");
    assertEquals("BYPASS", xCache(victim), "profile's cookies=bypass, not assets' cookies=ignore");
    HttpResponse<byte[]> attacker = get("/profile/x.css");
    assertEquals("<p>Profile of nobody</p>", Http.text(attacker));
    assertEquals("HIT", xCache(get("/profile/x.css")), "still cached under its own handler for visitors without cookies");
    assertEquals(1, pageCache.stats("profile").hits());
  }

  @Test
  void theCatchAllControllersStylesheetsBelongToTheMoreSpecificPattern() {
    get("/theme/site.css", "Cookie", "user=alice");
    HttpResponse<byte[]> again = get("/theme/site.css", "Cookie", "user=bob");
    assertEquals("HIT", xCache(again), "assets claims what /** serves, with its cookies=ignore");
    assertTrue(Http.text(again).startsWith("body"));
  }

  @Test
  void evictByUrlFindsTheSameHandlerAsARequest() {
    assertEquals("assets", pageCache.evict(uri("/theme/evicted.css").toString()).handler());
    assertEquals("profile", pageCache.evict(uri("/profile/x.css").toString()).handler());
    String account = pageCache.evict(uri("/account/x.css").toString()).handler();
    assertFalse(account.equals("assets"), account);
    assertEquals("Pages.account", account);
  }

  private URI uri(String path) {
    return URI.create("http://127.0.0.1:" + port + path);
  }

  private HttpResponse<byte[]> get(String path, String... headers) {
    return Http.get(uri(path), headers);
  }

  private static String xCache(HttpResponse<?> r) {
    return r.headers().firstValue("X-Cache").orElse("");
  }
}
