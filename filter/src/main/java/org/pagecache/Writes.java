package org.pagecache;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.pagecache.internal.capture.ResponseStartWatch;
import org.pagecache.internal.capture.TagsHeaderHidden;
import org.pagecache.internal.freshness.InvalidationTargets;
import org.pagecache.store.StoreException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Any other method than GET and HEAD runs uncached; when it succeeds, the pages it changed (its
 * URL and the same-host {@code Location} / {@code Content-Location} it answered with, RFC 9111 4.4)
 * are evicted before its answer starts, so the client cannot ask for them again first, unless the
 * handler's policy says {@code invalidate=off} or the handler set
 * {@link PageCache#CHANGES_NO_PAGE_ATTRIBUTE}. See {@link InvalidationTargets}. The handlers whose
 * {@code refreshed-by=} matches the write's path are refreshed at the same moment (whatever the
 * writing handler's {@code invalidate=}): pages whose URL says nothing of the write, such as a
 * list or a blog's front page after a post in its editor.
 */
final class Writes {
  private static final Logger log = LoggerFactory.getLogger(PageCache.class);

  private final Policies policies;
  private final Consumer<String> evict;
  private final BiConsumer<String, String> refresh;
  /** What the write invalidates on its thread is an edit: its pages are rebuilt in the foreground ({@link BackgroundRebuilds.Edits}). */
  private final BackgroundRebuilds.Edits edits;

  Writes(Policies policies, Consumer<String> evict, BiConsumer<String, String> refresh,
      BackgroundRebuilds.Edits edits) {
    this.edits = edits;
    this.policies = policies;
    this.evict = evict;
    this.refresh = refresh;
  }

  void run(HttpServletRequest req, HttpServletResponse res, FilterChain chain) throws IOException, ServletException {
    CachePolicy policy = policies.policy(policies.handlerFor(req));
    boolean evicts = policy.invalidateOnWrite();
    List<String> refreshes = policies.refreshedByWriteTo(Policies.pathInContext(req));
    if (!evicts && refreshes.isEmpty()) {
      edits.during(req, () -> chain.doFilter(req, new TagsHeaderHidden(res)));
      return;
    }
    ResponseStartWatch watched = new ResponseStartWatch(res, (status, location, contentLocation) -> {
      if (req.getAttribute(PageCache.CHANGES_NO_PAGE_ATTRIBUTE) != null
          || !InvalidationTargets.changes(req.getMethod(), status)) {
        return; // the handler says its write changed no page, or it was not a write that succeeded
      }
      if (evicts) {
        evictTargets(req, status, location, contentLocation);
      }
      refreshAll(req, refreshes);
    });
    edits.during(req, () -> {
      chain.doFilter(req, watched);
      watched.finish();
    });
  }

  private void evictTargets(HttpServletRequest req, int status, String location, String contentLocation) {
    try {
      String query = req.getQueryString();
      URI target = URI.create(req.getRequestURL() + (query == null ? "" : "?" + query));
      for (URI url : InvalidationTargets.of(req.getMethod(), status, target, location, contentLocation)) {
        evict.accept(url.toString());
      }
    } catch (StoreException | IllegalArgumentException e) {
      // memcached unreachable (its pages expire by themselves) or a URL the cache cannot key
    }
  }

  /** Each handler once; a failure is logged, never the writer's error: the write itself succeeded. */
  private void refreshAll(HttpServletRequest req, List<String> handlers) {
    String by = "write " + req.getMethod() + " " + req.getRequestURI(); // as sent: encoded, no control character
    for (String handler : handlers) {
      try {
        refresh.accept(handler, by);
      } catch (StoreException | IllegalArgumentException e) {
        log.warn("pagecache: after {}, handler '{}' could not be refreshed ({}); its pages stay until their TTL",
            by, handler, e.toString());
      }
    }
  }
}
