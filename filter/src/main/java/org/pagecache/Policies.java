package org.pagecache;

import jakarta.servlet.http.HttpServletMapping;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.MappingMatch;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.pagecache.internal.config.PathPatterns;
import org.pagecache.internal.config.Specs;
import org.pagecache.internal.fragments.SignedInRule;

/**
 * The policies of all handlers and which handler a request belongs to. A URL belongs to the handler
 * that serves it: the servlet's name, or the name an integration gives ({@link PageCache#HANDLER_ATTRIBUTE},
 * the Spring starter's controller method). A policy's {@code paths=} pattern claims the URL instead
 * only where it is at least as specific as the mapping that serves it, ranked as the Servlet spec
 * ranks mappings (exact, longest prefix, extension, default), or where its policy names the serving
 * handler in {@code overrides=}. So {@code assets: paths=*.css} splits a front servlet mapped at
 * {@code /} but cannot take {@code /account/x.css} from a servlet mapped at {@code /account/*}: the
 * account page would be stored under the assets' rules and served to others (web cache deception).
 *
 * <p>Syntax of the {@code policies} parameter: entries separated by {@code ;} or new lines, each
 * {@code handler: spec}; the handler {@code default} changes the defaults of every other handler.
 * <pre>
 *   default: ttl=2m; article: ttl=5m, paths=/article/*; home: ttl=30s
 * </pre>
 */
final class Policies {
  /** The rank of an exact match, above every prefix. */
  static final int EXACT = 100_000;
  /** The rank of the default mapping ({@code /}): it serves what no other mapping does. */
  static final int DEFAULT = 0;

  private final CachePolicy defaults;
  private final Map<String, CachePolicy> byHandler;
  private final List<Map.Entry<String, CachePolicy>> byPattern;
  private final Map<String, CachePolicy> derived = new ConcurrentHashMap<>();

  private Policies(CachePolicy defaults, Map<String, CachePolicy> byHandler) {
    this.defaults = defaults;
    this.byHandler = byHandler;
    List<Map.Entry<String, CachePolicy>> patterns = new ArrayList<>();
    for (CachePolicy p : byHandler.values()) {
      for (String path : p.paths()) {
        patterns.add(Map.entry(path, p));
      }
    }
    this.byPattern = patterns;
  }

  static Policies parse(String text, CachePolicy base) {
    Map<String, String> specs = new LinkedHashMap<>();
    for (Specs.Item entry : Specs.namedSpecs(text)) {
      if (!entry.wellFormed()) {
        throw new IllegalArgumentException("policies: '" + entry.text()
            + "' is not 'handler: spec'; e.g. article: ttl=5m, paths=/article/*");
      }
      String handler = entry.name();
      if (!handler.matches("[A-Za-z0-9_.\\-]{1,64}")) {
        throw new IllegalArgumentException("policies: handler name '" + handler
            + "' must be 1 to 64 characters of A-Z a-z 0-9 _ . -");
      }
      if (specs.put(handler, entry.value()) != null) {
        throw new IllegalArgumentException("policies: handler '" + handler + "' is configured twice");
      }
    }
    CachePolicy defaults = base;
    if (specs.containsKey("default")) {
      defaults = base.with(specs.remove("default"));
    }
    Map<String, CachePolicy> byHandler = new LinkedHashMap<>();
    for (Map.Entry<String, String> e : specs.entrySet()) {
      CachePolicy p = rename(defaults, e.getKey()).with(e.getValue());
      byHandler.put(e.getKey(), p);
    }
    Policies policies = new Policies(defaults, byHandler);
    policies.checkOverrides();
    return policies;
  }

  /**
   * Refuses an {@code overrides=} that would undo the overridden handler's own safety settings:
   * its {@code enabled=false}, or a stricter {@code sessions=}, {@code cookies=} or {@code signed-in=}
   * than the overriding policy's. A handler's own settings always apply to the URLs it serves.
   */
  private void checkOverrides() {
    for (CachePolicy p : byHandler.values()) {
      String param = "policies[" + p.handler() + "].overrides";
      if (!p.overrides().isEmpty() && p.paths().isEmpty()) {
        throw new IllegalArgumentException(param + ": '" + String.join("|", p.overrides())
            + "' needs paths= in the same policy; overrides names the handlers whose URLs its paths claim");
      }
      for (String target : p.overrides()) {
        // not policy(target): a handler only named here is not one "seen so far" on the admin page
        String why = looserThan(p, byHandler.getOrDefault(target, rename(defaults, target)));
        if (why != null) {
          throw new IllegalArgumentException(param + ": '" + target + "' is refused: " + why
              + "; a pattern may override only a handler whose enabled, sessions, cookies and signed-in it keeps"
              + " (give " + p.handler() + " the same settings, or drop the override so " + target + " keeps its URLs)");
        }
      }
    }
  }

  /** Why the overriding policy would loosen the overridden handler's safety settings; null when it would not. */
  private static String looserThan(CachePolicy overriding, CachePolicy overridden) {
    String them = overridden.handler();
    if (!overridden.enabled()) {
      return them + " has enabled=false (never cached)";
    }
    if (sessionsLevel(overriding) > sessionsLevel(overridden)) {
      return them + " has sessions=" + sessionsWord(overridden) + " but " + overriding.handler() + " has sessions="
          + sessionsWord(overriding);
    }
    CookieRule mine = overriding.cookies();
    CookieRule theirs = overridden.cookies();
    if (!mine.equals(theirs) && mine.mode() != CookieRule.Mode.BYPASS && theirs.mode() != CookieRule.Mode.IGNORE) {
      return them + " has cookies=" + theirs.spec() + " but " + overriding.handler() + " has cookies=" + mine.spec();
    }
    if (!overriding.signedIn().equals(overridden.signedIn())
        && overriding.signedInRule().mode() != SignedInRule.Mode.BYPASS) {
      return them + " has signed-in=" + overridden.signedIn() + " but " + overriding.handler() + " has signed-in="
          + overriding.signedIn();
    }
    return null;
  }

  /** 0 for sessions=off (every request with a session bypasses), 1 for anonymous, 2 for allow. */
  private static int sessionsLevel(CachePolicy p) {
    return p.allowSessions() ? 2 : p.anonymousSessions() ? 1 : 0;
  }

  private static String sessionsWord(CachePolicy p) {
    return new String[] {"off", "anonymous", "allow"}[sessionsLevel(p)];
  }

  /**
   * The handler of a request: the one that serves it ({@link PageCache#HANDLER_ATTRIBUTE}, else the
   * servlet's name), unless a policy's pattern claims the URL ({@link #claim}).
   */
  String handlerFor(HttpServletRequest request) {
    String served = servedBy(request);
    if (byPattern.isEmpty()) {
      return served;
    }
    String claimed = claim(pathInContext(request), served, servingRank(request));
    return claimed != null ? claimed : served;
  }

  private static String servedBy(HttpServletRequest request) {
    if (request.getAttribute(PageCache.HANDLER_ATTRIBUTE) instanceof String named) {
      return named; // named by a framework integration (the Spring starter: the controller method)
    }
    HttpServletMapping mapping = request.getHttpServletMapping();
    String name = mapping == null ? null : mapping.getServletName();
    return name == null || name.isEmpty() ? "default" : name;
  }

  /**
   * How specific the mapping that serves the request is, on {@link #rank}'s scale: the integration's
   * pattern ({@link PageCache#HANDLER_PATTERN_ATTRIBUTE}; exact when it names a handler without one),
   * else the container's {@link HttpServletMapping}, which a filter sees before the servlet runs.
   */
  private static int servingRank(HttpServletRequest request) {
    if (request.getAttribute(PageCache.HANDLER_ATTRIBUTE) instanceof String) {
      return request.getAttribute(PageCache.HANDLER_PATTERN_ATTRIBUTE) instanceof String pattern
          ? mappingRank(pattern) : EXACT;
    }
    HttpServletMapping mapping = request.getHttpServletMapping();
    MappingMatch match = mapping == null ? null : mapping.getMappingMatch();
    if (match == null) {
      return DEFAULT; // no mapping reported: nothing more specific to protect than the default servlet
    }
    return switch (match) {
      case CONTEXT_ROOT, EXACT -> EXACT;
      case PATH -> mappingRank(mapping.getPattern());
      case EXTENSION -> 1;
      case DEFAULT -> DEFAULT;
    };
  }

  /**
   * The rank of a servlet-mapping pattern that serves a request: {@code /} the default, {@code *.ext}
   * an extension, {@code /prefix/*} a prefix (longer ranks higher), anything else (an exact path,
   * {@code ""} the context root) exact.
   */
  static int mappingRank(String pattern) {
    if (pattern == null || pattern.equals("/")) {
      return DEFAULT;
    }
    if (pattern.startsWith("*.")) {
      return 1;
    }
    return pattern.endsWith("/*") ? pattern.length() : EXACT;
  }

  /**
   * The handler whose {@code paths=} pattern claims a path from the handler that serves it, or null:
   * the most specific matching pattern that is at least as specific as the serving mapping
   * ({@code servingRank}), or whose policy names the serving handler in {@code overrides=}.
   */
  String claim(String path, String served, int servingRank) {
    String best = null;
    int bestRank = -1;
    for (Map.Entry<String, CachePolicy> e : byPattern) {
      int rank = rank(e.getKey(), path);
      boolean may = rank >= servingRank || e.getValue().overrides().contains(served);
      if (rank >= 0 && may && rank > bestRank) {
        bestRank = rank;
        best = e.getValue().handler();
      }
    }
    return best;
  }

  /** The configured handlers whose {@code refreshed-by=} matches a write to this path (within the context). */
  List<String> refreshedByWriteTo(String path) {
    List<String> out = new ArrayList<>();
    byHandler.forEach((handler, p) -> {
      if (p.refreshedBy().stream().anyMatch(pattern -> PathPatterns.matches(pattern, path))) {
        out.add(handler);
      }
    });
    return out;
  }

  CachePolicy policy(String handler) {
    CachePolicy p = byHandler.get(handler);
    return p != null ? p : derived.computeIfAbsent(handler, h -> rename(defaults, h));
  }

  /** Every handler with a configured policy or seen so far. */
  Collection<CachePolicy> known() {
    Map<String, CachePolicy> all = new LinkedHashMap<>(byHandler);
    derived.forEach(all::putIfAbsent);
    return all.values();
  }

  /** The pool of each configured handler whose pages live in a named pool. */
  Map<String, String> pools() {
    Map<String, String> pools = new LinkedHashMap<>();
    byHandler.forEach((handler, p) -> {
      if (!p.pool().isEmpty()) {
        pools.put(handler, p.pool());
      }
    });
    return pools;
  }

  /** The pool of every handler without a policy of its own ({@code default: pool=...}); empty for the main cluster. */
  String defaultPool() {
    return defaults.pool();
  }

  boolean configured(String handler) {
    return byHandler.containsKey(handler) || derived.containsKey(handler);
  }

  private static CachePolicy rename(CachePolicy p, String handler) {
    return p.named(handler);
  }

  /**
   * The path the container routed the request by: decoded and normalised, so {@code /%61ccount/me}
   * or {@code /x/../account/me} meet the same pattern as {@code /account/me} (the raw request URI
   * would let a hostile spelling escape a policy that turns caching off).
   */
  static String pathInContext(HttpServletRequest request) {
    String servletPath = request.getServletPath();
    String pathInfo = request.getPathInfo();
    String path = (servletPath == null ? "" : servletPath) + (pathInfo == null ? "" : pathInfo);
    return path.isEmpty() ? "/" : path;
  }

  static boolean matches(String pattern, String path) {
    if (pattern.startsWith("*.")) {
      return path.endsWith(pattern.substring(1));
    }
    if (pattern.endsWith("/*")) {
      String prefix = pattern.substring(0, pattern.length() - 2);
      return path.equals(prefix) || path.startsWith(prefix + "/");
    }
    return path.equals(pattern);
  }

  /**
   * How well a URL pattern matches a path, in servlet-mapping order: an exact match (the empty
   * pattern is the context root) before prefixes, longer prefixes before shorter, extensions last;
   * -1 when it does not match. Policies' {@code paths=} and the application's servlet mappings
   * (for {@code evict}) are ranked by this one rule.
   */
  static int rank(String pattern, String path) {
    if (pattern.equals(path) || (pattern.isEmpty() && path.equals("/"))) {
      return EXACT;
    }
    if (pattern.isEmpty() || !matches(pattern, path)) {
      return -1;
    }
    return pattern.startsWith("*.") ? 1 : pattern.length();
  }
}
