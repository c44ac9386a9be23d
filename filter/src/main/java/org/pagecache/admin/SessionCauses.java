package org.pagecache.admin;

/** One line on the admin page for each cause of a session bypass (docs/safety.md, "Sessions"). */
final class SessionCauses {
  private SessionCauses() {}

  static String explain(String cause) {
    if (cause.startsWith("attribute:")) {
      return "the handler read this session attribute while building";
    }
    if (cause.startsWith("value-of:")) {
      return "this session attribute's text was in the page";
    }
    if (cause.startsWith("signed-in:")) {
      return "a signed-in visitor sent past the cache: a build of their group was not shared";
    }
    if (cause.startsWith("role:")) {
      return "a signed-in visitor's build asked for a role outside the policy's roles";
    }
    if (cause.startsWith("written:")) {
      return "the handler wrote this session attribute while building";
    }
    return switch (cause) {
      case "user" -> "a signed-in user";
      case "principal" -> "a signed-in visitor's build read the principal";
      case "principal-name" -> "the signed-in user's name was in the page";
      case "authorization" -> "a signed-in visitor's build read the Authorization header";
      case "cookies" -> "a signed-in visitor's build read a cookie not in the key (or the Cookie header)";
      case "sessions=off" -> "the policy says sessions=off";
      case "csrf-token" -> "the page read the CSRF token kept in the session";
      case "session-id" -> "the page used the session id";
      default -> "the handler used the session while building";
    };
  }
}
