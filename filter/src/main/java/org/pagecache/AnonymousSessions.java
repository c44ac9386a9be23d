package org.pagecache;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpSession;
import java.util.Set;
import org.pagecache.internal.capture.CapturedResponse;
import org.pagecache.internal.capture.SessionReads;
import org.pagecache.internal.capture.SessionValuesInBody;
import org.pagecache.internal.stats.HandlerRecorder;

/**
 * The session rule of the request path ({@code sessions=}, docs/safety.md "Sessions"): a request
 * with a session id and no signed-in user is served from the cache, unless its session holds an
 * attribute the handler's builds were seen to read; a page built while the handler used the
 * session, or whose body shows a session value, goes to its visitor only. Every session bypass and
 * every build not shared is counted per handler with its cause (names only): the evidence.
 *
 * <p>Costs on the hit path: the principal and one look into the container's session (which also
 * keeps it alive, as the handler would have); never a memcached round trip.
 */
final class AnonymousSessions {
  /** The Cache-Status detail of every session bypass (a stable contract); the cause goes to the evidence. */
  static final String BYPASS = "session";

  private AnonymousSessions() {}

  /**
   * {@link #BYPASS} when this request must go past the cache because of its session, else null.
   *
   * @param signedIn a signed-in visitor the policy serves from the cache (the signed-in rule)
   */
  static String requestBypass(HttpServletRequest req, CachePolicy policy, HandlerRecorder stats, boolean signedIn) {
    if (policy.allowSessions() || req.getRequestedSessionId() == null) {
      return null;
    }
    String cause = cause(req, policy, stats.sessionAttributesRead(), signedIn);
    if (cause == null) {
      return null;
    }
    stats.sessionBypass(cause);
    return BYPASS;
  }

  /** @param signedIn a signed-in visitor the policy serves from the cache (the signed-in rule) */
  private static String cause(HttpServletRequest req, CachePolicy policy, Set<String> readByBuilds, boolean signedIn) {
    if (!policy.anonymousSessions()) {
      return "sessions=off";
    }
    // A signed-in user's page is theirs (Spring Security's wrapper answers null for an anonymous token).
    if (!signedIn && (req.getUserPrincipal() != null || req.getRemoteUser() != null) && !policy.allowAuthorized()) {
      return "user";
    }
    // Asked for even when no attribute matters: a page served from the cache must keep the visitor's
    // session alive as the handler would have (Tomcat updates its last access only when it is asked for).
    HttpSession session = req.getSession(false);
    if (session == null || readByBuilds.isEmpty()) {
      return null; // no session (an expired id), or nothing in it the builds read: the page is everyone's
    }
    try {
      for (String name : readByBuilds) {
        if (session.getAttribute(name) != null) {
          return "attribute:" + name;
        }
      }
    } catch (IllegalStateException invalidated) {
      return "invalidated";
    }
    return null;
  }

  /**
   * After a build: learns the session attributes it asked for, and says why the page may carry
   * session data ({@link SessionReads#firstUse()}, then a session value found in the body), or null
   * when it can be shared. A signed-in visitor's build is judged further by the signed-in rule.
   */
  static String afterBuild(HttpServletRequest original, SessionReads reads, CapturedResponse c,
      HandlerRecorder stats) {
    stats.sessionAttributesRead(reads.names());
    String use = reads.firstUse();
    if (use == null && !c.passedThrough()) {
      use = SessionValuesInBody.find(original.getSession(false), c.body());
    }
    if (use != null) {
      stats.sessionBypass(use);
    }
    return use;
  }
}
