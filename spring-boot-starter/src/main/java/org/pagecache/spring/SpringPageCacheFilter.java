package org.pagecache.spring;

import jakarta.servlet.FilterChain;
import jakarta.servlet.FilterConfig;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletRegistration;
import jakarta.servlet.http.HttpServletMapping;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.pagecache.PageCache;
import org.pagecache.PageCacheFilter;
import org.springframework.web.servlet.DispatcherServlet;

/**
 * The PageCacheFilter of a Spring MVC application: before the page is looked up, names the
 * request's handler after the controller method that will serve it ({@link PageCache#HANDLER_ATTRIBUTE}),
 * and gives the pattern it serves the request by ({@link PageCache#HANDLER_PATTERN_ATTRIBUTE}), so a
 * policy's {@code paths=} claims the URL only where at least as specific as the controller's mapping.
 */
final class SpringPageCacheFilter extends PageCacheFilter {
  private final ControllerHandlers handlers;
  /** By servlet name: whether it is a DispatcherServlet (the registrations do not change once requests arrive). */
  private final Map<String, Boolean> dispatchers = new ConcurrentHashMap<>();
  private volatile ServletContext context;

  /** @param handlers null without Spring MVC's request mappings: the filter's own rule names handlers */
  SpringPageCacheFilter(PageCache cache, ControllerHandlers handlers) {
    super(cache);
    this.handlers = handlers;
  }

  @Override
  public void init(FilterConfig config) throws ServletException {
    super.init(config);
    this.context = config.getServletContext();
  }

  @Override
  public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    if (handlers != null && request instanceof HttpServletRequest req && request.getAttribute(PageCache.HANDLER_ATTRIBUTE) == null
        && ("GET".equals(req.getMethod()) || "HEAD".equals(req.getMethod())) && servedByDispatcher(req)) {
      ControllerHandlers.Served served = handlers.nameFor(req);
      if (served != null) {
        request.setAttribute(PageCache.HANDLER_ATTRIBUTE, served.handler());
        request.setAttribute(PageCache.HANDLER_PATTERN_ATTRIBUTE, served.pattern());
      }
    }
    super.doFilter(request, response, chain);
  }

  /**
   * True unless the container routes the request to a servlet other than a DispatcherServlet. A
   * plain servlet at {@code /reports/*} serves {@code /reports/x.css}; looked up in the handler
   * mapping, its path within that servlet ({@code /x.css}) could match a controller's catch-all and
   * file the servlet's page under a policy that is not its own.
   */
  private boolean servedByDispatcher(HttpServletRequest req) {
    HttpServletMapping mapping = req.getHttpServletMapping();
    String name = mapping == null ? null : mapping.getServletName();
    if (name == null || name.isEmpty()) {
      return true; // the container does not say: the handler mapping decides, as before
    }
    return dispatchers.computeIfAbsent(name, n -> isDispatcher(req.getServletContext(), n));
  }

  /**
   * True unless the servlet mappings route this path (within the context) to a servlet other than a
   * DispatcherServlet: {@code evict(url)} asks the controllers only about their own URLs, as requests do.
   */
  boolean servedByDispatcher(String path) {
    ServletContext ctx = context;
    if (ctx == null) {
      return true; // not started yet: the handler mapping decides, as before
    }
    String best = null;
    int bestRank = -1;
    for (Map.Entry<String, ? extends ServletRegistration> e : ctx.getServletRegistrations().entrySet()) {
      for (String pattern : e.getValue().getMappings()) {
        int rank = rank(pattern, path);
        if (rank > bestRank) {
          bestRank = rank;
          best = e.getKey();
        }
      }
    }
    return best == null || dispatchers.computeIfAbsent(best, n -> isDispatcher(ctx, n));
  }

  /** How a servlet mapping matches a path, in the Servlet spec's order (exact, longest prefix, extension, default); -1: no match. */
  private static int rank(String pattern, String path) {
    if (pattern.equals(path) || (pattern.isEmpty() && path.equals("/"))) {
      return Integer.MAX_VALUE;
    }
    if (pattern.equals("/")) {
      return 0;
    }
    if (pattern.startsWith("*.")) {
      return path.endsWith(pattern.substring(1)) ? 1 : -1;
    }
    if (pattern.endsWith("/*")) {
      String prefix = pattern.substring(0, pattern.length() - 2);
      return path.equals(prefix) || path.startsWith(prefix + "/") ? pattern.length() : -1;
    }
    return -1;
  }

  private static boolean isDispatcher(ServletContext context, String servletName) {
    ServletRegistration registration = context.getServletRegistration(servletName);
    String className = registration == null ? null : registration.getClassName();
    if (className == null) {
      return false;
    }
    try {
      ClassLoader loader = context.getClassLoader() != null ? context.getClassLoader() : DispatcherServlet.class.getClassLoader();
      return DispatcherServlet.class.isAssignableFrom(Class.forName(className, false, loader));
    } catch (ClassNotFoundException | LinkageError e) {
      return className.equals(DispatcherServlet.class.getName());
    }
  }
}
