package org.pagecache;

import jakarta.servlet.http.HttpServletRequest;
import java.security.Principal;
import java.util.function.Function;
import org.pagecache.internal.capture.CapturedResponse;
import org.pagecache.internal.capture.SessionValuesInBody;
import org.pagecache.internal.fragments.GroupPages;
import org.pagecache.internal.fragments.SignedInRule;
import org.pagecache.internal.key.PageKeys;
import org.pagecache.internal.stats.HandlerRecorder;

/**
 * The signed-in rule of the request path ({@code signed-in=}, docs/fragments.md): a signed-in
 * visitor is served the page of their group, keyed on a digest of what the policy names (roles, the
 * application's context, or the user when it asks), with their fragments filled in on every serve.
 * A build is shared with the group only on evidence: it read nothing personal outside its fragments
 * (no principal, no role outside the key, no {@code Authorization}, no cookie, no session value; no
 * session value nor the user's name in the body). A build that did read one is its visitor's only,
 * and from then on this JVM sends the handler's visitors of that group past the cache; the cause (a
 * name only) is counted with the session evidence.
 */
final class SignedInVisitors {
  /** The Cache-Status detail of a signed-in visitor sent past the cache. */
  static final String BYPASS = "signed-in";

  private SignedInVisitors() {}

  /** A signed-in visitor as the cache serves them: the user (kept in memory for the body check only) and the group. */
  record Visitor(String user, SignedInRule rule, String group) {}

  /**
   * The visitor of this request when the policy serves signed-in visitors from the cache and one is
   * signed in; null for an anonymous visitor or under {@code signed-in=bypass} (the old rules apply).
   */
  static Visitor of(HttpServletRequest req, CachePolicy policy, Function<HttpServletRequest, String> context) {
    SignedInRule rule = policy.signedInRule();
    if (rule.mode() == SignedInRule.Mode.BYPASS) {
      return null;
    }
    Principal principal = req.getUserPrincipal();
    String user = principal != null ? principal.getName() : req.getRemoteUser();
    if (user == null) {
      return null;
    }
    return new Visitor(user, rule, rule.group(req, user, context));
  }

  /**
   * {@link #BYPASS} when this signed-in visitor must go past the cache, else null: the request is
   * served as this visitor ({@code PageRequest.Notes#visitor}).
   */
  static String requestBypass(Visitor visitor, HandlerRecorder stats) {
    stats.signedInRequest();
    String cause = visitor.group() == null ? "no-group" : stats.signedInNotShared(visitor.group());
    if (cause != null) {
      stats.sessionBypass("signed-in:" + cause);
      return BYPASS;
    }
    return null;
  }

  /** The page key's part for this visitor's group. */
  static String[] keyPart(Visitor visitor) {
    return new String[] {SignedInRule.KEY_PART + visitor.rule().mode(), visitor.group()};
  }

  /**
   * The tag a group's page of this request carries: that of the URL's anonymous page, as {@link
   * UrlPages} keys it for an evict (scheme, host, port, path and query as sent, no varied header, no
   * cookie), so {@code PageCache.evict(url)} reaches the page of every group (docs/fragments.md).
   */
  static String urlTag(PageKeys keys, PageRequest p) {
    HttpServletRequest req = p.req();
    return GroupPages.urlTag(keys.forUrl(req.getScheme(), req.getServerName(), req.getServerPort(),
        req.getRequestURI(), req.getQueryString(), p.handler(), p.policy().vary(), p.policy().cookies().vary()));
  }

  /** Whether the handler's policy serves signed-in visitors pages per group, which an evict of its URLs must reach. */
  static boolean servesGroups(CachePolicy policy) {
    return policy.signedInRule().mode() != SignedInRule.Mode.BYPASS;
  }

  /**
   * After a signed-in visitor's build ({@code v} null: an anonymous one, nothing to do): the session
   * rule's finding ({@code sessionUse}), else the user's name in the body (as a word, 3 characters or
   * more), makes the page theirs, and from then on this handler's visitors of that group go past the
   * cache. Returns why the page is not shared, or null.
   */
  static String afterBuild(Visitor v, CapturedResponse c, String sessionUse, HandlerRecorder stats) {
    if (v == null) {
      return sessionUse;
    }
    String use = sessionUse;
    if (use == null && !c.passedThrough() && !v.rule().principalKeyed()
        && SessionValuesInBody.containsWord(c.body(), v.user())) {
      use = "principal-name";
      stats.sessionBypass(use);
    }
    if (use != null) {
      stats.signedInNotShared(v.group(), use);
    }
    return use;
  }
}
