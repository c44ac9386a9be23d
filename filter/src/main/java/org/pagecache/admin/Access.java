package org.pagecache.admin;

import jakarta.servlet.http.HttpServletRequest;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.Principal;
import java.util.Locale;

/**
 * Who may use the admin servlet. Secure by default: a request is let in only as
 * <ul>
 *   <li>a user the container authenticated in the admin role ({@code admin.role}, default
 *       {@code pagecache-admin}), checked with {@code isUserInRole}; or
 *   <li>a caller sending {@code Authorization: Bearer <admin.token>} (compared in constant time).
 * </ul>
 * With neither a token configured nor a signed-in user, everything is refused with a message that
 * says how to configure access, so a forgotten setup never leaves the servlet open.
 */
final class Access {
  static final String CONFIGURE = "the PageCache admin is locked: set PAGECACHE_ADMIN_TOKEN (admin.token)"
      + " to use the API with 'Authorization: Bearer <token>', and/or protect this path with a"
      + " security-constraint for role %s so editors sign in (see docs/admin-api.md)";

  private Access() {}

  /** Who is calling: a user name, or "token" for a Bearer request (which needs no CSRF token). */
  record Caller(String name, boolean bearer) {}

  /**
   * The caller of a request, or an {@link HttpError}: 401 when it carries no credentials at all,
   * 403 when its credentials are wrong or its user lacks the role, or when no access is configured.
   */
  static Caller check(HttpServletRequest request, String adminToken, String adminRole) {
    String bearer = bearerToken(request.getHeader("Authorization"));
    if (bearer != null) {
      if (adminToken.isEmpty()) {
        throw HttpError.of(403, "a Bearer token was sent but no admin token is configured; set PAGECACHE_ADMIN_TOKEN (admin.token)");
      }
      if (!sameSecret(bearer, adminToken)) {
        throw HttpError.of(403, "the Bearer token is not the configured admin token");
      }
      return new Caller("token", true);
    }
    Principal user = request.getUserPrincipal();
    if (user != null) {
      if (adminRole.isEmpty()) {
        throw HttpError.of(403, "user '" + user.getName() + "' is signed in, but role-based access is off (admin.role is empty)");
      }
      if (!request.isUserInRole(adminRole)) {
        throw HttpError.of(403, "user '" + user.getName() + "' is not in role '" + adminRole + "'");
      }
      return new Caller(user.getName(), false);
    }
    if (adminToken.isEmpty()) {
      throw HttpError.of(403, String.format(CONFIGURE, adminRole.isEmpty() ? "pagecache-admin" : adminRole));
    }
    throw HttpError.of(401, "credentials required: send 'Authorization: Bearer <admin token>'"
        + (adminRole.isEmpty() ? "" : ", or sign in as a user in role '" + adminRole + "'"));
  }

  /** The token of an {@code Authorization: Bearer <token>} header (scheme case-insensitive), else null. */
  static String bearerToken(String authorization) {
    if (authorization == null || authorization.length() < 7
        || !authorization.substring(0, 7).toLowerCase(Locale.ROOT).equals("bearer ")) {
      return null;
    }
    return authorization.substring(7).trim();
  }

  /**
   * Constant-time comparison of two secrets. Both are hashed first, so not even the length of the
   * configured token leaks through timing (MessageDigest.isEqual is constant-time only for equal lengths).
   */
  static boolean sameSecret(String given, String expected) {
    return MessageDigest.isEqual(sha256(given), sha256(expected));
  }

  private static byte[] sha256(String s) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every Java platform", e);
    }
  }
}
