package org.pagecache;

import jakarta.servlet.FilterChain;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.pagecache.internal.key.RequestParts;
import org.pagecache.internal.stats.HandlerRecorder;

/** The request for a page being handled, with what every step needs: handler, policy, stats, key parts. */
record PageRequest(HttpServletRequest req, HttpServletResponse res, FilterChain chain,
    String handler, CachePolicy policy, HandlerRecorder stats, RequestParts parts) {

  boolean isHead() {
    return "HEAD".equals(req.getMethod());
  }
}
