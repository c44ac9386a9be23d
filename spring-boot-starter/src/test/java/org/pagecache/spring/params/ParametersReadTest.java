package org.pagecache.spring.params;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
 * {@code pagecache.params.key=read} in Spring Boot (issue 47): a {@code @RequestParam} is a read by
 * name, so junk parameters are served the page without them and {@code ?page=2} never gets page 1;
 * a {@code @ModelAttribute} form object is bound from the whole parameter map, so its handler is
 * keyed on every parameter. Embedded Tomcat, real HTTP, real memcached.
 */
@SpringBootTest(classes = ListingsApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {"pagecache.namespace=params-read-test", "pagecache.params.key=read"})
class ParametersReadTest {
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
  void aRequestParamKeysThePageAndJunkParametersDoNot() {
    HttpResponse<byte[]> first = get("/list?page=2");
    assertEquals("<p>list page 2</p>", Http.text(first));
    assertEquals("MISS", xCache(first), "built reading page: stored under the key that holds it");
    // Spring asks for page, then for page[] when page is absent (its list-style name): both are reads
    assertEquals("read: page", pageCache.stats("list").keyedOn().replace(", page[]", ""));
    assertEquals("HIT", xCache(get("/list?page=2")));
    HttpResponse<byte[]> junk = get("/list?page=2&_=1733212345678");
    assertEquals("HIT", xCache(junk));
    assertEquals("<p>list page 2</p>", Http.text(junk));
    HttpResponse<byte[]> one = get("/list?cb=7");
    assertEquals("<p>list page 1</p>", Http.text(one), "absent is keyed as absent: never page 2");
    assertEquals("MISS", xCache(one));
    assertEquals("HIT", xCache(get("/list?gclid=x&v=3")));
    assertEquals("read: page, page[]", pageCache.stats("list").keyedOn());
  }

  @Test
  void aModelAttributeFormKeysItsHandlerOnEveryParameter() {
    HttpResponse<byte[]> first = get("/search?q=shoes");
    assertEquals("<p>results for 'shoes', page 1</p>", Http.text(first));
    assertEquals("BYPASS", xCache(first), "the binder read the parameter map: keyed on the whole query from now on");
    assertEquals("MISS", xCache(get("/search?q=shoes")));
    assertEquals("HIT", xCache(get("/search?q=shoes")));
    HttpResponse<byte[]> other = get("/search?q=shoes&page=3");
    assertEquals("<p>results for 'shoes', page 3</p>", Http.text(other));
    assertEquals("MISS", xCache(other));
    assertEquals("MISS", xCache(get("/search?q=shoes&_=1")), "every parameter keys the page, as params=all");
    assertEquals("HIT", xCache(get("/search?q=shoes&utm_source=news")), "tracking parameters are still out");
    assertEquals("all", pageCache.stats("search").keyedOn());
  }

  private HttpResponse<byte[]> get(String path, String... headers) {
    return Http.get(URI.create("http://127.0.0.1:" + port + path), headers);
  }

  private static String xCache(HttpResponse<?> r) {
    return r.headers().firstValue("X-Cache").orElse("");
  }
}
