package org.pagecache.spring.petclinic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.pagecache.spring.MemcachedProperties;
import org.pagecache.testing.Http;
import org.pagecache.testing.MemcachedExtension;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * PetClinic's own flow without {@code refreshed-by} (issue 31; embedded Tomcat, real HTTP, real
 * memcached): edit the owner, add a pet, add a visit, each a POST from a visitor without a session
 * cookie that sets a flash attribute and redirects to {@code /owners/1;jsessionid=...}; a new
 * visitor's next request for {@code /owners/1} shows the change, never the flash message.
 */
@SpringBootTest(classes = OwnersApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = "pagecache.namespace=petclinic-test")
class PetClinicFlowTest {
  @RegisterExtension
  static MemcachedExtension memcached = MemcachedExtension.nodes(1);

  @DynamicPropertySource
  static void memcached(DynamicPropertyRegistry registry) {
    MemcachedProperties.register(registry, memcached);
  }

  @LocalServerPort
  int port;

  @Test
  void aNewVisitorSeesEachWriteOnTheOwnerPage() {
    assertEquals("MISS", xCache(get("/owners/1")));
    assertEquals("HIT", xCache(get("/owners/1")));

    write("/owners/1/edit?name=Betty+Davis", "Owner Values Updated");
    assertNewVisitorSees("Betty Davis");

    write("/owners/1/pets/new?name=Basil", "New Pet has been Added");
    assertNewVisitorSees("Basil");

    write("/owners/1/pets/1/visits/new?description=rabies+shot", "Your visit has been booked");
    assertNewVisitorSees("rabies shot");
  }

  /** The POST, its rewritten redirect, and the writer following it (with the session in the URL) to the message. */
  private void write(String pathAndQuery, String message) {
    HttpResponse<byte[]> post = Http.post(uri(pathAndQuery), "");
    assertEquals(302, post.statusCode(), body(post));
    String location = post.headers().firstValue("Location").orElse("");
    assertTrue(location.matches("(http://[^/]+)?/owners/1;jsessionid=[0-9A-Fa-f]+"),
        "the container rewrote the redirect for the new session: " + location);
    HttpResponse<byte[]> followed = Http.get(uri(location.replaceFirst("^http://[^/]+", "")));
    assertEquals(200, followed.statusCode());
    assertTrue(body(followed).contains(message), "the writer sees the flash message: " + body(followed));
  }

  private void assertNewVisitorSees(String change) {
    HttpResponse<byte[]> owner = get("/owners/1");
    assertTrue(body(owner).contains(change), "a new visitor sees the change: " + xCache(owner) + " " + body(owner));
    assertFalse(body(owner).contains("alert"), "never another visitor's flash message: " + body(owner));
    assertEquals("HIT", xCache(get("/owners/1")), "and it is cached again");
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

  private static String body(HttpResponse<byte[]> res) {
    return new String(res.body(), StandardCharsets.UTF_8);
  }
}
