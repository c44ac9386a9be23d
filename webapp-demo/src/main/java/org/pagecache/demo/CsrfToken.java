package org.pagecache.demo;

import jakarta.servlet.http.HttpSession;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * The editor's CSRF token (synchronizer token pattern): random, one per session, sent back in a
 * hidden field of every form and compared in constant time on POST.
 */
final class CsrfToken {
  static final String FIELD = "csrf";
  private static final String ATTRIBUTE = CsrfToken.class.getName();
  private static final SecureRandom RANDOM = new SecureRandom();

  private CsrfToken() {}

  /** The session's token, made on first use. */
  static String of(HttpSession session) {
    synchronized (session) {
      Object token = session.getAttribute(ATTRIBUTE);
      if (token instanceof String s) {
        return s;
      }
      byte[] bytes = new byte[32];
      RANDOM.nextBytes(bytes);
      String fresh = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
      session.setAttribute(ATTRIBUTE, fresh);
      return fresh;
    }
  }

  /** Whether a submitted value is the session's token; false without a session or a token. */
  static boolean matches(HttpSession session, String submitted) {
    if (session == null || submitted == null) {
      return false;
    }
    Object token = session.getAttribute(ATTRIBUTE);
    return token instanceof String s && MessageDigest.isEqual(
        s.getBytes(StandardCharsets.US_ASCII), submitted.getBytes(StandardCharsets.US_ASCII));
  }
}
