package org.pagecache.counters;

import java.time.Clock;
import org.pagecache.store.Store;

/**
 * The memcached the counter tests run against: every {@link #connect()} is a new client (a new
 * "frontend") to the same data, and the whole thing can be taken down and brought back.
 */
interface Backend {
  /** A new client of the shared data, as a second frontend JVM would have. */
  Store connect();

  /** The clock that expires data in this backend, when a test can move it; else null. */
  Clock expiryClock();

  void down();

  void up();
}
