package org.pagecache;

import jakarta.servlet.http.HttpServletMapping;
import jakarta.servlet.http.HttpServletRequest;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.pagecache.internal.config.PathPatterns;
import org.pagecache.internal.config.Specs;

/**
 * The policies of all handlers and which handler a request belongs to: a policy's URL patterns
 * first (needed behind a single front servlet), else the name of the servlet that serves the request.
 *
 * <p>Syntax of the {@code policies} parameter: entries separated by {@code ;} or new lines, each
 * {@code handler: spec}; the handler {@code default} changes the defaults of every other handler.
 * <pre>
 *   default: ttl=2m; article: ttl=5m, paths=/article/*; home: ttl=30s
 * </pre>
 */
final class Policies {
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
    return new Policies(defaults, byHandler);
  }

  /** The handler of a request: a policy's URL pattern, else {@link PageCache#HANDLER_ATTRIBUTE}, else the servlet's name. */
  String handlerFor(HttpServletRequest request) {
    if (!byPattern.isEmpty()) {
      String byPolicy = handlerForPath(pathInContext(request));
      if (byPolicy != null) {
        return byPolicy;
      }
    }
    if (request.getAttribute(PageCache.HANDLER_ATTRIBUTE) instanceof String named) {
      return named; // named by a framework integration (the Spring starter: the controller method)
    }
    HttpServletMapping mapping = request.getHttpServletMapping();
    String name = mapping == null ? null : mapping.getServletName();
    return name == null || name.isEmpty() ? "default" : name;
  }

  /** The handler for a path within the context, when no request is at hand (evict by URL). */
  String handlerForPath(String path) {
    String best = null;
    int bestRank = -1;
    for (Map.Entry<String, CachePolicy> e : byPattern) {
      int rank = rank(e.getKey(), path);
      if (rank > bestRank) {
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
      return 100_000;
    }
    if (pattern.isEmpty() || !matches(pattern, path)) {
      return -1;
    }
    return pattern.startsWith("*.") ? 1 : pattern.length();
  }
}
