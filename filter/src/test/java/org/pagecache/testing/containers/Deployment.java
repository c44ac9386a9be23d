package org.pagecache.testing.containers;

import java.net.URI;

/** A WAR running somewhere (a standalone container, an embedded server): where it answers, and how to take it down. */
public interface Deployment extends AutoCloseable {
  /** An absolute URI for a path of the site, e.g. {@code uri("/article/7")}. */
  URI uri(String pathAndQuery);

  @Override
  void close();
}
