package org.pagecache.internal.counters;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpSession;
import java.lang.reflect.Proxy;
import org.junit.jupiter.api.Test;

class VisitorIdTest {

  /** A request with only what VisitorId may use; creating a session fails the test. */
  private static HttpServletRequest request(String sessionId, Cookie[] cookies, String address, String agent) {
    HttpSession session = sessionId == null ? null : (HttpSession) Proxy.newProxyInstance(
        HttpSession.class.getClassLoader(), new Class<?>[] {HttpSession.class}, (p, m, a) -> {
          if (m.getName().equals("getId")) {
            return sessionId;
          }
          throw new AssertionError("unexpected session call " + m.getName());
        });
    return (HttpServletRequest) Proxy.newProxyInstance(HttpServletRequest.class.getClassLoader(),
        new Class<?>[] {HttpServletRequest.class}, (p, m, a) -> switch (m.getName()) {
          case "getSession" -> {
            if (a == null || !Boolean.FALSE.equals(a[0])) {
              throw new AssertionError("a session must never be created");
            }
            yield session;
          }
          case "getCookies" -> cookies;
          case "getRemoteAddr" -> address;
          case "getHeader" -> "User-Agent".equalsIgnoreCase((String) a[0]) ? agent : null;
          default -> throw new AssertionError("unexpected request call " + m.getName());
        });
  }

  @Test
  void anExistingSessionComesFirst() {
    HttpServletRequest r = request("S123", new Cookie[] {new Cookie("uid", "u-1")}, "10.0.0.1", "Firefox");

    assertEquals("s:S123", VisitorId.withCookie("uid").of(r));
  }

  @Test
  void withoutASessionTheApplicationsCookieIsUsed() {
    HttpServletRequest r = request(null,
        new Cookie[] {new Cookie("other", "x"), new Cookie("uid", "u-1")}, "10.0.0.1", "Firefox");

    assertEquals("c:u-1", VisitorId.withCookie("uid").of(r));
  }

  @Test
  void withNeitherTheAddressAndUserAgentAreHashedNeverStored() {
    HttpServletRequest r = request(null, null, "10.0.0.1", "Firefox");
    String id = VisitorId.withCookie("uid").of(r);

    assertTrue(id.matches("a:[A-Za-z0-9_-]{43}"), id);
    assertFalse(id.contains("10.0.0.1"));
    assertEquals(id, VisitorId.sessionOrAddress().of(request(null, null, "10.0.0.1", "Firefox")));
    assertNotEquals(id, VisitorId.sessionOrAddress().of(request(null, null, "10.0.0.1", "Chrome")));
    assertNotEquals(id, VisitorId.sessionOrAddress().of(request(null, null, "10.0.0.2", "Firefox")));
    assertNotEquals(id, VisitorId.sessionOrAddress().of(request(null, null, "10.0.0.1", null)));
  }

  @Test
  void aCookieCannotPassForASessionOrAnAddress() {
    String fromCookie = VisitorId.withCookie("uid").of(request(null, new Cookie[] {new Cookie("uid", "S123")}, "h", "a"));

    assertNotEquals(VisitorId.withCookie("uid").of(request("S123", null, "h", "a")), fromCookie);
  }

  @Test
  void anEmptyCookieOrOneWithoutConfigurationFallsBackToTheAddress() {
    Cookie[] cookies = {new Cookie("uid", "")};

    assertTrue(VisitorId.withCookie("uid").of(request(null, cookies, "h", "a")).startsWith("a:"));
    assertTrue(VisitorId.sessionOrAddress().of(request(null, new Cookie[] {new Cookie("uid", "u")}, "h", "a"))
        .startsWith("a:"));
  }

  @Test
  void aHugeCookieIsHashed() {
    String huge = "v".repeat(5000);
    String id = VisitorId.withCookie("uid").of(request(null, new Cookie[] {new Cookie("uid", huge)}, "h", "a"));

    assertEquals(45, id.length(), id);
  }

  @Test
  void aBlankCookieNameIsRejectedAtStartUp() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> VisitorId.withCookie(" "));

    assertTrue(e.getMessage().startsWith("online: 'cookie: ' does not name a cookie"), e.getMessage());
  }
}
