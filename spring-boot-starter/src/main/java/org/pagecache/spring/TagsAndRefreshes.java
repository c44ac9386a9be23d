package org.pagecache.spring;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.pagecache.PageCache;
import org.pagecache.store.StoreException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.HandlerMapping;
import org.springframework.web.servlet.ModelAndView;

/**
 * Tags pages and refreshes them after writes, from {@link CachedPage#tags()},
 * {@link RefreshesPages} and the {@code tags=} key of {@code pagecache.policies}
 * ({@link PolicyRules}). The policy key {@code refreshed-by=} is the filter's: it refreshes after
 * a write as this does, before the answer starts.
 *
 * <p>A write's refreshes run in {@code postHandle}: after the controller method returned without
 * an exception and before a view or redirect is sent, so the browser that follows the redirect
 * already gets the rebuilt page. Only 2xx and 3xx count; a form shown again with errors under a
 * 4xx status changed nothing. A memcached failure is logged, never turned into the user's error:
 * the write itself has succeeded.
 */
final class TagsAndRefreshes implements HandlerInterceptor {
  private static final Logger log = LoggerFactory.getLogger(TagsAndRefreshes.class);
  private static final Set<String> WRITES = Set.of("POST", "PUT", "PATCH", "DELETE");

  private final ObjectProvider<PageCache> cache;
  private final ObjectProvider<ControllerHandlers> handlers;
  private final PolicyRules rules;

  TagsAndRefreshes(ObjectProvider<PageCache> cache, ObjectProvider<ControllerHandlers> handlers, PolicyRules rules) {
    this.cache = cache;
    this.handlers = handlers;
    this.rules = rules;
  }

  @Override
  public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
    if (!(handler instanceof HandlerMethod hm) || WRITES.contains(request.getMethod())) {
      return true;
    }
    List<String> templates = new ArrayList<>();
    CachedPage page = AnnotatedElementUtils.findMergedAnnotation(hm.getMethod(), CachedPage.class);
    if (page != null) {
      templates.addAll(List.of(page.tags()));
    }
    ControllerHandlers h = handlers.getIfAvailable();
    String name = h != null ? h.nameOf(hm) : null;
    if (name != null) {
      templates.addAll(rules.tags().getOrDefault(name, List.of()));
    }
    if (!templates.isEmpty()) {
      Map<String, String> vars = uriVariables(request);
      PageCache.tag(request, templates.stream().map(t -> TagTemplates.expand(t, vars)).toArray(String[]::new));
    }
    return true;
  }

  @Override
  public void postHandle(HttpServletRequest request, HttpServletResponse response, Object handler, ModelAndView mav) {
    int status = response.getStatus();
    if (!WRITES.contains(request.getMethod()) || status < 200 || status >= 400) {
      return;
    }
    Set<String> tags = new LinkedHashSet<>();
    Set<String> refreshed = new LinkedHashSet<>();
    if (handler instanceof HandlerMethod hm) {
      RefreshesPages r = AnnotatedElementUtils.findMergedAnnotation(hm.getMethod(), RefreshesPages.class);
      if (r != null) {
        Map<String, String> vars = uriVariables(request);
        for (String t : r.tags()) {
          tags.add(TagTemplates.expand(t, vars));
        }
        refreshed.addAll(List.of(r.handlers()));
      }
    }
    if (tags.isEmpty() && refreshed.isEmpty()) {
      return;
    }
    PageCache pc = cache.getIfAvailable();
    if (pc == null) {
      return;
    }
    String by = "write " + request.getMethod() + " " + request.getRequestURI();
    try {
      for (String tag : tags) {
        pc.invalidateTag(tag);
      }
      for (String h : refreshed) {
        pc.refreshHandler(h, by);
      }
    } catch (StoreException | IllegalArgumentException | IllegalStateException e) {
      log.warn("pagecache: after {}, the pages it changed could not be refreshed ({}); they stay until their TTL", by, e.toString());
    }
  }

  @SuppressWarnings("unchecked")
  private static Map<String, String> uriVariables(HttpServletRequest request) {
    Object vars = request.getAttribute(HandlerMapping.URI_TEMPLATE_VARIABLES_ATTRIBUTE);
    return vars instanceof Map<?, ?> m ? (Map<String, String>) m : Map.of();
  }
}
