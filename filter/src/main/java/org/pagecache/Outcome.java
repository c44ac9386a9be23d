package org.pagecache;

import org.pagecache.internal.capture.CacheStatus;
import org.pagecache.internal.capture.CapturedResponse;
import org.pagecache.internal.store.StoredPage;

/**
 * What a request's route ends in, answered in one place ({@link PageFlow#answer}), by the request
 * or, for a build that went async, when the build ends. {@code handOn} is a page this request wrote
 * or found for the requests of this JVM waiting for its key (null when there is none).
 */
sealed interface Outcome {
  /** Serve a stored page: a hit, the stale copy, a page built or found while waiting. */
  record Serve(StoredPage page, CacheStatus status, HandOn handOn) implements Outcome {}

  /** Send a captured response to this client only (refused, or not stored). */
  record Replay(CapturedResponse response, CacheStatus status, HandOn handOn) implements Outcome {}

  /** Run the handler past the cache: a request check, a page that passes, memcached unreachable. */
  record Pass(String reason) implements Outcome {}

  /** The response went to the client as it was written (too large, async): nothing left to send. */
  record Sent(HandOn handOn) implements Outcome {}

  /** The handler failed and no stale copy stands in: rethrown to the container. */
  record Failed(Exception failure) implements Outcome {}

  /** The handler went async: the build goes on and is answered when it ends ({@link Build}). */
  record Continues() implements Outcome {}

  /** A page for the requests of this JVM waiting for {@code key}. */
  record HandOn(String key, StoredPage page) {}

  Continues CONTINUES = new Continues();

  static Serve serving(StoredPage page, CacheStatus status) {
    return new Serve(page, status, null);
  }

  /** The page a build wrote or found, served, and handed to the waiters of {@code key}. */
  static Serve handingOn(String key, StoredPage page, CacheStatus status) {
    return new Serve(page, status, new HandOn(key, page));
  }
}
