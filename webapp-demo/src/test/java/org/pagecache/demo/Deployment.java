package org.pagecache.demo;

import java.net.URI;

/** The demo WAR running somewhere: where it answers, and how to take it down. */
interface Deployment extends AutoCloseable {
  /** An absolute URI for a path of the site, e.g. {@code uri("/article/7")}. */
  URI uri(String pathAndQuery);

  @Override
  void close();
}
