package org.pagecache.internal.freshness;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which pages a write invalidates (RFC 9111 4.4). */
class InvalidationTargetsTest {
  private static final URI TARGET = URI.create("http://example.com/article/36?x=1");

  @Test
  void aSuccessfulUnsafeRequestInvalidatesItsTargetAndSameHostLocations() {
    assertEquals(List.of(TARGET, URI.create("http://example.com/article/36/comments"), URI.create("http://example.com/c/9")),
        InvalidationTargets.of("POST", 303, TARGET, "/article/36/comments", "http://example.com/c/9"));
    assertEquals(List.of(TARGET), InvalidationTargets.of("M-SEARCH", 200, TARGET, null, null));
    assertEquals(List.of(TARGET), InvalidationTargets.of("DELETE", 204, TARGET, "http://other.example/x", ""),
        "another host's page is not this application's");
    assertEquals(List.of(TARGET), InvalidationTargets.of("PUT", 201, TARGET, "https://example.com/article/36", null),
        "another scheme is another origin");
  }

  @Test
  void safeMethodsAndErrorsInvalidateNothing() {
    assertEquals(List.of(), InvalidationTargets.of("GET", 200, TARGET, null, null));
    assertEquals(List.of(), InvalidationTargets.of("OPTIONS", 200, TARGET, null, null));
    assertEquals(List.of(), InvalidationTargets.of("POST", 404, TARGET, null, null));
    assertEquals(List.of(), InvalidationTargets.of("POST", 500, TARGET, null, null));
    assertEquals(List.of(), InvalidationTargets.of("POST", 100, TARGET, null, null));
  }
}
