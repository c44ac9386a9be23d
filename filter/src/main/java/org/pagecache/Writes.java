package org.pagecache;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.util.function.Consumer;
import org.pagecache.internal.capture.ResponseStartWatch;
import org.pagecache.internal.capture.TagsHeaderHidden;
import org.pagecache.internal.freshness.InvalidationTargets;
import org.pagecache.store.StoreException;

/**
 * Any other method than GET and HEAD runs uncached; when it succeeds, the pages it changed (its
 * URL and the same-host {@code Location} / {@code Content-Location} it answered with, RFC 9111 4.4)
 * are evicted before its answer starts, so the client cannot ask for them again first, unless the
 * handler's policy says {@code invalidate=off} or the handler set
 * {@link PageCache#CHANGES_NO_PAGE_ATTRIBUTE}. See {@link InvalidationTargets}.
 */
final class Writes {
  private final Policies policies;
  private final Consumer<String> evict;

  Writes(Policies policies, Consumer<String> evict) {
    this.policies = policies;
    this.evict = evict;
  }

  void run(HttpServletRequest req, HttpServletResponse res, FilterChain chain) throws IOException, ServletException {
    CachePolicy policy = policies.policy(policies.handlerFor(req));
    if (!policy.invalidateOnWrite()) {
      chain.doFilter(req, new TagsHeaderHidden(res));
      return;
    }
    ResponseStartWatch watched = new ResponseStartWatch(res, (status, location, contentLocation) -> {
      if (req.getAttribute(PageCache.CHANGES_NO_PAGE_ATTRIBUTE) != null) {
        return; // the handler says its write changed no page
      }
      try {
        String query = req.getQueryString();
        URI target = URI.create(req.getRequestURL() + (query == null ? "" : "?" + query));
        for (URI url : InvalidationTargets.of(req.getMethod(), status, target, location, contentLocation)) {
          evict.accept(url.toString());
        }
      } catch (StoreException | IllegalArgumentException e) {
        // memcached unreachable (its pages expire by themselves) or a URL the cache cannot key
      }
    });
    chain.doFilter(req, watched);
    watched.finish();
  }
}
