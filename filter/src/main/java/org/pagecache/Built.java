package org.pagecache;

import org.pagecache.internal.capture.CacheStatus;
import org.pagecache.internal.capture.CapturedResponse;
import org.pagecache.internal.store.StoredPage;

/**
 * What a build ends in, answered after the lock is given back: a page to serve (built, built by
 * another request meanwhile, or the stale copy), a response to replay to this client only, a
 * response that already went to the client as it was written, or a failure to rethrow.
 */
record Built(StoredPage page, CapturedResponse replay, CacheStatus status, Exception failure) {
  static Built serving(StoredPage page, CacheStatus status) {
    return new Built(page, null, status, null);
  }

  static Built replaying(CapturedResponse c, CacheStatus status) {
    return new Built(null, c, status, null);
  }

  static final Built SENT = new Built(null, null, null, null);

  /** The handler went async: the build goes on, and is answered when it ends (see {@link AsyncBuild}). */
  static final Built CONTINUES = new Built(null, null, null, null);
}
