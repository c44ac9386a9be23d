package org.pagecache.capture;

import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;

/**
 * The response as the handler sees it on the paths that go straight to the client (other methods
 * than GET, a bypassed HEAD): everything passes but the {@code X-Cache-Tags} header, which is
 * addressed to the cache and never reaches the client, whichever path the request took.
 */
public final class TagsHeaderHidden extends HttpServletResponseWrapper {
  public TagsHeaderHidden(HttpServletResponse response) {
    super(response);
  }

  @Override
  public void setHeader(String name, String value) {
    if (!PageBuilder.TAGS_HEADER.equalsIgnoreCase(name)) {
      super.setHeader(name, value);
    }
  }

  @Override
  public void addHeader(String name, String value) {
    if (!PageBuilder.TAGS_HEADER.equalsIgnoreCase(name)) {
      super.addHeader(name, value);
    }
  }
}
