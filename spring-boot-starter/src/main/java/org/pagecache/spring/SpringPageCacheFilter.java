package org.pagecache.spring;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import org.pagecache.PageCache;
import org.pagecache.PageCacheFilter;

/**
 * The PageCacheFilter of a Spring MVC application: before the page is looked up, names the
 * request's handler after the controller method that will serve it ({@link PageCache#HANDLER_ATTRIBUTE}),
 * and gives the pattern it serves the request by ({@link PageCache#HANDLER_PATTERN_ATTRIBUTE}), so a
 * policy's {@code paths=} claims the URL only where at least as specific as the controller's mapping.
 */
final class SpringPageCacheFilter extends PageCacheFilter {
  private final ControllerHandlers handlers;

  /** @param handlers null without Spring MVC's request mappings: the filter's own rule names handlers */
  SpringPageCacheFilter(PageCache cache, ControllerHandlers handlers) {
    super(cache);
    this.handlers = handlers;
  }

  @Override
  public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    if (handlers != null && request instanceof HttpServletRequest req && request.getAttribute(PageCache.HANDLER_ATTRIBUTE) == null
        && ("GET".equals(req.getMethod()) || "HEAD".equals(req.getMethod()))) {
      ControllerHandlers.Served served = handlers.nameFor(req);
      if (served != null) {
        request.setAttribute(PageCache.HANDLER_ATTRIBUTE, served.handler());
        request.setAttribute(PageCache.HANDLER_PATTERN_ATTRIBUTE, served.pattern());
      }
    }
    super.doFilter(request, response, chain);
  }
}
