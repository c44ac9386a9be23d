package org.pagecache.internal.counters;

import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpSession;
import org.pagecache.internal.text.KeyParts;

/**
 * Who a request comes from, for the online counter, without creating anything: a page served from
 * the cache must not create a session (that would cost memory per bot and a Set-Cookie on a
 * cached response). In order of preference:
 * <ol>
 *   <li>the id of an existing session ({@code getSession(false)});
 *   <li>the value of a cookie the application already sets for its visitors, if configured;
 *   <li>otherwise a SHA-256 of the client address and User-Agent, so an address is never stored.
 * </ol>
 * Each kind carries its own prefix, so a cookie value can never pass for a session id. Behind a
 * reverse proxy, configure the container to report the client address (Tomcat's
 * {@code RemoteIpValve}, Jetty's {@code ForwardedRequestCustomizer}); headers are not trusted here.
 * A visitor whose first request has no session yet and whose second has one is two ids for that
 * window; a visitor cookie set on the first response avoids this.
 *
 * <pre>{@code
 * VisitorId visitors = VisitorId.withCookie("uid");
 * counters.visit(visitors.of(request));
 * }</pre>
 */
public final class VisitorId {
  /** Longer cookie values are hashed, not trusted verbatim as an id. */
  static final int MAX_COOKIE_ID = 128;

  private final String cookieName;

  private VisitorId(String cookieName) {
    this.cookieName = cookieName;
  }

  /** Session id, else client address and User-Agent. */
  public static VisitorId sessionOrAddress() {
    return new VisitorId(null);
  }

  /** Session id, else the value of {@code cookieName}, else client address and User-Agent. */
  public static VisitorId withCookie(String cookieName) {
    if (cookieName == null || cookieName.isBlank()) {
      throw new IllegalArgumentException("online: 'cookie:" + cookieName
          + "' does not name a cookie; use cookie:NAME with the cookie your application sets, e.g. cookie:uid");
    }
    return new VisitorId(cookieName);
  }

  public String of(HttpServletRequest request) {
    HttpSession session = request.getSession(false);
    if (session != null) {
      return "s:" + session.getId();
    }
    String cookie = cookie(request);
    if (cookie != null) {
      return "c:" + (cookie.length() <= MAX_COOKIE_ID ? cookie : KeyParts.sha256(cookie));
    }
    String agent = request.getHeader("User-Agent");
    return "a:" + KeyParts.sha256(request.getRemoteAddr() + "\n" + (agent == null ? "" : agent));
  }

  private String cookie(HttpServletRequest request) {
    if (cookieName == null) {
      return null;
    }
    Cookie[] cookies = request.getCookies();
    if (cookies == null) {
      return null;
    }
    for (Cookie c : cookies) {
      if (cookieName.equals(c.getName()) && c.getValue() != null && !c.getValue().isEmpty()) {
        return c.getValue();
      }
    }
    return null;
  }
}
