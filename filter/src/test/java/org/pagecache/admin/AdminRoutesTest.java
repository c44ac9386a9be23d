package org.pagecache.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.pagecache.admin.Routes.Endpoint;
import org.pagecache.admin.Routes.Route;

/** Routes: every endpoint, decoded segments, 404 and 405 with Allow. */
class AdminRoutesTest {

  @Test
  void theServletPathItselfIsThePage() {
    assertEquals(new Route(Endpoint.PAGE, null), Routes.match("GET", null));
    assertEquals(new Route(Endpoint.PAGE, null), Routes.match("GET", ""));
    assertEquals(new Route(Endpoint.PAGE, null), Routes.match("HEAD", "/"));
  }

  @Test
  void apiRoutesCarryTheirDecodedArgument() {
    assertEquals(new Route(Endpoint.STATS, null), Routes.match("GET", "/api/stats"));
    assertEquals(new Route(Endpoint.REFRESH, "article"), Routes.match("POST", "/api/handlers/article/refresh"));
    assertEquals(new Route(Endpoint.REFRESH, "news feed"), Routes.match("POST", "/api/handlers/news%20feed/refresh"));
    assertEquals(new Route(Endpoint.INVALIDATE, "section/sport+é"),
        Routes.match("POST", "/api/tags/section%2Fsport+%C3%A9/invalidate"));
    assertEquals(new Route(Endpoint.EVICT, null), Routes.match("POST", "/api/evict"));
    assertEquals(new Route(Endpoint.PURGE, "article:1"), Routes.match("POST", "/api/tags/article%3A1/purge"));
    assertEquals(new Route(Endpoint.PURGE, null), Routes.match("POST", "/api/tags/purge"));
    assertEquals(new Route(Endpoint.INVALIDATE, null), Routes.match("POST", "/api/tags/invalidate"));
  }

  @Test
  void formRoutesArePostOnly() {
    assertEquals(Endpoint.FORM_REFRESH, Routes.match("POST", "/refresh").endpoint());
    assertEquals(Endpoint.FORM_INVALIDATE, Routes.match("POST", "/invalidate").endpoint());
    assertEquals(Endpoint.FORM_EVICT, Routes.match("POST", "/evict").endpoint());
    HttpError e = assertThrows(HttpError.class, () -> Routes.match("GET", "/refresh"));
    assertEquals(405, e.status);
    assertEquals("POST", e.allow);
  }

  @Test
  void wrongMethodIs405WithAllow() {
    HttpError get = assertThrows(HttpError.class, () -> Routes.match("GET", "/api/handlers/a/refresh"));
    assertEquals(405, get.status);
    assertEquals("POST", get.allow);
    HttpError post = assertThrows(HttpError.class, () -> Routes.match("POST", "/api/stats"));
    assertEquals("GET, HEAD", post.allow);
    assertEquals(405, assertThrows(HttpError.class, () -> Routes.match("DELETE", "/")).status);
  }

  @Test
  void unknownPathsAre404() {
    for (String path : new String[] {"/nope", "/api", "/api/", "/api/stats/x", "/api/handlers/a", "/api/handlers/a/b/refresh",
        "/api/tags/a/refresh", "//", "/refresh/"}) {
      assertEquals(404, assertThrows(HttpError.class, () -> Routes.match("POST", path)).status, path);
    }
  }

  @Test
  void badPercentEncodingIs400() {
    assertEquals(400, assertThrows(HttpError.class, () -> Routes.match("POST", "/api/tags/%zz/invalidate")).status);
    assertEquals(400, assertThrows(HttpError.class, () -> Routes.match("POST", "/api/tags/a%2/invalidate")).status);
    assertEquals(400, assertThrows(HttpError.class, () -> Routes.match("POST", "/api/tags/%C3%28/invalidate")).status);
  }

  @Test
  void errorsBelowApiAreJson() {
    assertTrue(Routes.isApi("/api/whatever"));
    assertTrue(Routes.isApi("/api"));
    assertFalse(Routes.isApi("/apis"));
    assertFalse(Routes.isApi("/"));
    assertFalse(Routes.isApi(null));
  }
}
