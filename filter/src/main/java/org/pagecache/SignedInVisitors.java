package org.pagecache;

import jakarta.servlet.http.HttpServletRequest;
import java.security.Principal;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import org.pagecache.internal.capture.CapturedResponse;
import org.pagecache.internal.capture.SessionValuesInBody;
import org.pagecache.internal.fragments.GroupPages;
import org.pagecache.internal.fragments.SignedInRule;
import org.pagecache.internal.key.PageKeys;
import org.pagecache.internal.stats.HandlerRecorder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The signed-in rule of the request path ({@code signed-in=}, docs/fragments.md): a signed-in
 * visitor is served the page of their group, keyed on a digest of what the policy names (roles, the
 * application's context, or the user when it asks), with their fragments filled in on every serve.
 * A build is shared with the group only on evidence: it read nothing personal outside its fragments
 * (no principal, through the request or a thread-local the application reports, no role outside the
 * key, no {@code Authorization}, no cookie, no session value; no session value, the user's name nor
 * their other personal values in the body). A build that did read one is its visitor's only,
 * and from then on this JVM sends the handler's visitors of that group past the cache; the cause (a
 * name only) is counted with the session evidence.
 */
final class SignedInVisitors {
  private static final Logger log = LoggerFactory.getLogger(SignedInVisitors.class);
  /** The Cache-Status detail of a signed-in visitor sent past the cache. */
  static final String BYPASS = "signed-in";

  private SignedInVisitors() {}

  /**
   * A signed-in visitor as the cache serves them: the user (kept in memory for the body check only),
   * the group, and where their other personal values come from ({@link PageCache#personalValues}; null: nowhere).
   */
  record Visitor(String user, SignedInRule rule, String group,
      Function<HttpServletRequest, ? extends Collection<String>> details) {}

  /** Why a build whose body shows one of the visitor's personal values is not shared. */
  static final String PERSONAL_VALUE = "personal-value";

  /**
   * The visitor of this request when the policy serves signed-in visitors from the cache and one is
   * signed in; null for an anonymous visitor or under {@code signed-in=bypass} (the old rules apply).
   */
  static Visitor of(HttpServletRequest req, CachePolicy policy, Function<HttpServletRequest, String> context,
      Function<HttpServletRequest, ? extends Collection<String>> details) {
    SignedInRule rule = policy.signedInRule();
    if (rule.mode() == SignedInRule.Mode.BYPASS) {
      return null;
    }
    Principal principal = req.getUserPrincipal();
    String user = principal != null ? principal.getName() : req.getRemoteUser();
    if (user == null) {
      return null;
    }
    return new Visitor(user, rule, rule.group(req, user, context), details);
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
        p.requestUri(), p.queryString(), p.handler(), p.policy().vary(), p.policy().cookies().vary(),
        p.policy().keyOnReads()));
  }

  /** Whether the handler's policy serves signed-in visitors pages per group, which an evict of its URLs must reach. */
  static boolean servesGroups(CachePolicy policy) {
    return policy.signedInRule().mode() != SignedInRule.Mode.BYPASS;
  }

  /**
   * The visitor's personal values from the application's source ({@link PageCache#personalValues}),
   * asked before their build for sharing runs (on the request's thread, where a security framework
   * keeps its context; outside the build, so this read is not the page's). Empty when the pages are
   * per user, when there is no source; a source that throws gives {@code null}: the build is not shared.
   */
  static Collection<String> detailsBeforeBuild(Visitor v, HttpServletRequest req) {
    if (v == null || v.details() == null || v.rule().principalKeyed()) {
      return List.of();
    }
    try {
      Collection<String> values = v.details().apply(req);
      return values == null ? List.of() : List.copyOf(values.stream().filter(Objects::nonNull).toList());
    } catch (RuntimeException e) {
      log.warn("pagecache: the application's personal values failed ({}); the page is not shared", e.getClass().getName());
      return null;
    }
  }

  /**
   * After a signed-in visitor's build ({@code v} null: an anonymous one, nothing to do): the session
   * rule's finding ({@code sessionUse}), else the user's name in the body, else one of their personal
   * values ({@code details} from {@link #detailsBeforeBuild}, and those the application declared for
   * this request with {@link PageCache#personal}), each as a word of 3 characters or more, as written
   * or HTML-escaped, makes the page theirs, and from then on this handler's visitors of that group go
   * past the cache. Returns why the page is not shared, or null.
   */
  static String afterBuild(Visitor v, CapturedResponse c, String sessionUse, Collection<String> details,
      Collection<String> declared, HandlerRecorder stats) {
    if (v == null) {
      return sessionUse;
    }
    String use = sessionUse;
    if (use == null && !c.passedThrough() && !v.rule().principalKeyed()) {
      if (SessionValuesInBody.containsWord(c.body(), v.user())) {
        use = "principal-name";
      } else if (details == null || SessionValuesInBody.containsAnyWord(c.body(), details)
          || SessionValuesInBody.containsAnyWord(c.body(), declared)) {
        use = PERSONAL_VALUE;
      }
      if (use != null) {
        stats.sessionBypass(use);
      }
    }
    if (use != null) {
      stats.signedInNotShared(v.group(), use);
    }
    return use;
  }
}
