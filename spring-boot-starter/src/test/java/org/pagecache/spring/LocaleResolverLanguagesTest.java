package org.pagecache.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.pagecache.CachePolicy;
import org.pagecache.PageCache;
import org.pagecache.spring.languages.LanguagesApplication;
import org.pagecache.testing.Http;
import org.pagecache.testing.MemcachedExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * {@code vary=language} in the starter takes the application's languages from its
 * {@code AcceptHeaderLocaleResolver} (embedded Tomcat, real HTTP, real memcached): every visitor
 * gets the page in the language Spring MVC would have chosen, one page per language.
 */
@SpringBootTest(classes = LanguagesApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = "pagecache.namespace=languages-test")
class LocaleResolverLanguagesTest {
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

  /** Real browsers' headers and what Spring MVC's resolver answers each: the truth. */
  private static final List<String[]> VISITORS = List.of(
      new String[] {"de-DE,de;q=0.9,en-US;q=0.8,en;q=0.7", "de"},
      new String[] {"fr-CA,fr;q=0.9,en-US;q=0.8,en;q=0.7", "fr"},
      new String[] {"en-US,en;q=0.9", "en"},
      new String[] {"de", "de"},
      new String[] {"fr-FR,fr;q=0.8,en-US;q=0.5,en;q=0.3", "fr"},
      new String[] {"zh-CN,zh;q=0.9,fr;q=0.8", "fr"},
      new String[] {"ja", "en"},
      new String[] {"de-AT", "de"},
      new String[] {"en-GB,en;q=0.9,de;q=0.8", "en"},
      new String[] {"es-MX,es;q=0.9,de-DE;q=0.8,de;q=0.7", "de"});

  @Test
  void theLanguagesAreTheLocaleResolversAndEachVisitorGetsTheirs() {
    CachePolicy news = pageCache.policies().stream().filter(p -> p.handler().equals("news")).findFirst().orElseThrow();
    assertEquals(List.of("language"), news.classes());
    assertEquals(List.of("en", "de", "fr"), news.languages(), "from AcceptHeaderLocaleResolver: default first");

    for (int pass = 0; pass < 2; pass++) {
      for (String[] v : VISITORS) {
        HttpResponse<byte[]> r = Http.get(URI.create("http://127.0.0.1:" + port + "/news/7"), "Accept-Language", v[0]);
        assertTrue(Http.text(r).contains("|" + v[1] + "|"), v[0] + " got " + Http.text(r));
        assertTrue(r.headers().firstValue("Vary").orElse("").contains("Accept-Language"), r.headers().toString());
      }
    }
    assertEquals(3, LanguagesApplication.builds(), "one build per language");
  }
}
