package org.pagecache.internal.capture;

import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;

/**
 * The response as the handler sees it whenever the filter is in front: everything passes but the
 * {@code X-Cache-Tags} header, which is addressed to the cache and never reaches the client,
 * whichever path the request took (used as it is where the response goes straight to the client,
 * for other methods than GET and a bypassed HEAD; {@link CapturingResponse} builds on it for
 * what it lets through once it stops capturing).
 */
public class TagsHeaderHidden extends HttpServletResponseWrapper {
  public TagsHeaderHidden(HttpServletResponse response) {
    super(response);
  }

  @Override
  public void setHeader(String name, String value) {
    if (!PageBuilder.forTheCacheOnly(name)) {
      super.setHeader(name, value);
    }
  }

  @Override
  public void addHeader(String name, String value) {
    if (!PageBuilder.forTheCacheOnly(name)) {
      super.addHeader(name, value);
    }
  }
}
