package org.pagecache.admin;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpSession;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * Cross-site request forgery protection (the OWASP "synchronizer token" pattern): each HttpSession
 * gets a random 32-byte token; the admin page puts it in its forms (field {@code csrf}) and in a
 * {@code <meta name="csrf-token">} for scripts (header {@code X-CSRF-Token}). A state-changing request
 * authenticated by the container (session cookie or browser-cached credentials, which another site
 * can make the browser send) must echo it. Bearer requests need none: no browser adds that header
 * on its own.
 */
final class CsrfTokens {
  static final String FIELD = "csrf";
  static final String HEADER = "X-CSRF-Token";
  static final String SESSION_ATTRIBUTE = CsrfTokens.class.getName();
  private static final SecureRandom RANDOM = new SecureRandom();

  private CsrfTokens() {}

  /** The session's token, created (with the session) on first use. */
  static String of(HttpServletRequest request) {
    HttpSession session = request.getSession(true);
    synchronized (CsrfTokens.class) {
      Object token = session.getAttribute(SESSION_ATTRIBUTE);
      if (token instanceof String s) {
        return s;
      }
      byte[] bytes = new byte[32];
      RANDOM.nextBytes(bytes);
      String created = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
      session.setAttribute(SESSION_ATTRIBUTE, created);
      return created;
    }
  }

  /** Refuses (403) a request whose header or form field does not carry its session's token. */
  static void check(HttpServletRequest request) {
    HttpSession session = request.getSession(false);
    Object expected = session == null ? null : session.getAttribute(SESSION_ATTRIBUTE);
    if (!(expected instanceof String token)) {
      throw HttpError.of(403, "CSRF token missing: this session has none (expired?); reload the admin page and try again");
    }
    String given = request.getHeader(HEADER);
    if (given == null) {
      given = request.getParameter(FIELD);
    }
    if (given == null || !MessageDigest.isEqual(given.getBytes(StandardCharsets.UTF_8), token.getBytes(StandardCharsets.UTF_8))) {
      throw HttpError.of(403, "CSRF token missing or wrong: send the admin page's token (form field '" + FIELD
          + "' or header " + HEADER + "), or authenticate with 'Authorization: Bearer <admin token>'");
    }
  }
}
