package org.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.pagecache.testing.Http;
import org.pagecache.testing.MemcachedExtension;

/**
 * Fat GETs over real sockets on embedded Jetty 12 and real memcached (issue 35, class 2): the
 * framing is the network's, byte for byte: a {@code Content-Length} body, a chunked one, and HTTP/2
 * DATA frames with no {@code Content-Length} at all. None of them stores a page, and the page
 * stored for plain requests does not answer them. The same rules on both stores: {@link RequestBodySpec}.
 */
class RequestBodyTest {
  @RegisterExtension
  static MemcachedExtension memcached = MemcachedExtension.nodes(1);

  @RegisterExtension
  final CachedSite.Sites sites = new CachedSite.Sites(memcached);

  private static String xcache(HttpResponse<?> r) {
    return r.headers().firstValue("X-Cache").orElse(null);
  }

  private static String head(String raw) {
    return raw.substring(0, raw.indexOf("\r\n\r\n"));
  }

  @Test
  void aContentLengthBodyOnTheWireBypasses() {
    CachedSite site = sites.open().handler("search", RequestBodySpec.search(), "/search").start();
    String body = "{\"q\":\"wire-evil\"}";
    String raw = Http.raw(site.jetty.port(), "GET /search HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        + "Content-Type: application/json\r\nContent-Length: " + body.length() + "\r\nConnection: close\r\n\r\n" + body);
    assertTrue(head(raw).contains("X-Cache: BYPASS"), raw);
    assertTrue(head(raw).contains("detail=request-body"), raw);
    assertTrue(raw.contains("wire-evil"));
    HttpResponse<byte[]> plain = site.get("/search");
    assertEquals("MISS", xcache(plain));
    assertFalse(Http.text(plain).contains("wire-evil"));
    assertEquals("HIT", xcache(site.get("/search")));
  }

  @Test
  void aChunkedBodyOnTheWireBypassesAndTheStoredPageDoesNotAnswerIt() {
    CachedSite site = sites.open().handler("search", RequestBodySpec.search(), "/search").start();
    assertEquals("MISS", xcache(site.get("/search")));
    String raw = Http.raw(site.jetty.port(), "GET /search HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        + "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
        + "7\r\n{\"q\":\"c\r\n"
        + "b\r\nhunk-evil\"}\r\n0\r\n\r\n");
    assertTrue(head(raw).contains("X-Cache: BYPASS"), raw);
    assertTrue(raw.contains("chunk-evil"), "its own answer, from the handler");
    HttpResponse<byte[]> plain = site.get("/search");
    assertEquals("HIT", xcache(plain));
    assertFalse(Http.text(plain).contains("chunk-evil"));
    assertEquals(2, site.calls("search"));
  }

  @Test
  void anHttp2GetWhoseBodyComesInDataFramesWithoutContentLengthIsNeverStored() throws Exception {
    CachedSite site = sites.open().http2().handler("search", RequestBodySpec.search(), "/search").start();
    HttpClient h2 = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).connectTimeout(Duration.ofSeconds(10)).build();
    // h2c: the first request upgrades the connection, the next ones are HTTP/2 streams on it
    HttpResponse<String> upgrade = h2.send(HttpRequest.newBuilder(site.uri("/other")).build(),
        HttpResponse.BodyHandlers.ofString());
    assertEquals(HttpClient.Version.HTTP_2, upgrade.version(), "the connection speaks HTTP/2");
    byte[] body = "{\"q\":\"h2-evil\"}".getBytes(StandardCharsets.UTF_8);
    HttpRequest fat = HttpRequest.newBuilder(site.uri("/search"))
        .method("GET", HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(body))) // length unknown: no Content-Length
        .build();
    for (int i = 0; i < 3; i++) {
      HttpResponse<String> attack = h2.send(fat, HttpResponse.BodyHandlers.ofString());
      assertEquals(HttpClient.Version.HTTP_2, attack.version());
      assertTrue(attack.body().contains("h2-evil"), attack.body());
      assertEquals("BYPASS", xcache(attack), attack.headers().map().toString());
      assertTrue(attack.headers().firstValue("Cache-Status").orElse("").contains("detail=request-body"));
    }
    HttpResponse<String> plain = h2.send(HttpRequest.newBuilder(site.uri("/search")).build(), HttpResponse.BodyHandlers.ofString());
    assertEquals("MISS", xcache(plain), "no DATA-framed GET stored a page, nor left a marker");
    assertFalse(plain.body().contains("h2-evil"));
    assertEquals("HIT", xcache(h2.send(HttpRequest.newBuilder(site.uri("/search")).build(),
        HttpResponse.BodyHandlers.ofString())), "a plain HTTP/2 GET is cached as before");
  }
}
