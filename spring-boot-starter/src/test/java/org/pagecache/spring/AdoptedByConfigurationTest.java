package org.pagecache.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.pagecache.spring.testapp.TestApplication;
import org.pagecache.testing.Http;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * An application adopted by configuration alone, as Spring PetClinic would be: every endpoint
 * exposed, every controller method cached ({@code pagecache.unannotated=cache}), nothing said
 * about PageCache's endpoint. The in-process store is enough here: what is tested is what is
 * cached and who may refresh.
 */
@SpringBootTest(classes = TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {"pagecache.namespace=adopted-test", "management.endpoints.web.exposure.include=*",
        "pagecache.unannotated=cache"})
class AdoptedByConfigurationTest {
  @Value("${local.server.port}")
  int port;

  @Test
  void theEndpointIsReadOnlyUnlessTheApplicationOpensIt() {
    Http.get(uri("/a/read-only"));
    assertEquals("HIT", Http.get(uri("/a/read-only")).headers().firstValue("X-Cache").orElse(""));

    HttpResponse<byte[]> read = Http.get(uri("/actuator/pagecache"));
    assertEquals(200, read.statusCode());
    assertTrue(new String(read.body(), StandardCharsets.UTF_8).contains("\"alpha\""));

    HttpResponse<byte[]> write = Http.post(uri("/actuator/pagecache"), "{\"handler\":\"alpha\"}",
        "Content-Type", "application/json");
    assertEquals(405, write.statusCode(), "no write operation is mapped: " + new String(write.body(), StandardCharsets.UTF_8));
    assertEquals("HIT", Http.get(uri("/a/read-only")).headers().firstValue("X-Cache").orElse(""),
        "the handler's page was not refreshed");
  }

  @Test
  void anEditFormIsNotCachedWhileOtherUnannotatedPagesAre() {
    Http.get(uri("/owners/5/rename"));
    HttpResponse<byte[]> form = Http.get(uri("/owners/5/rename"));
    assertEquals(200, form.statusCode());
    assertEquals("BYPASS", form.headers().firstValue("X-Cache").orElse(""), "the form is built for every editor");

    Http.get(uri("/plain"));
    assertEquals("HIT", Http.get(uri("/plain")).headers().firstValue("X-Cache").orElse(""));
  }

  private URI uri(String path) {
    return URI.create("http://127.0.0.1:" + port + path);
  }
}
