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
 * An application that exposes every endpoint (as Spring PetClinic does) and says nothing about
 * PageCache's: anyone may read it, nobody may write through it (Spring Boot's read-only access).
 * The in-process store is enough here: what is tested is who may refresh.
 */
@SpringBootTest(classes = TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {"pagecache.namespace=read-only-test", "management.endpoints.web.exposure.include=*"})
class ReadOnlyEndpointTest {
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

  private URI uri(String path) {
    return URI.create("http://127.0.0.1:" + port + path);
  }
}
