package org.pagecache.internal.freshness;

import org.pagecache.store.Namespace;
import org.pagecache.store.Store;

/**
 * Makes an eviction visible to the near caches of other JVMs: after a page is deleted, its
 * handler's evictions key ({@link Namespace#evictions}) changes. A JVM reads that key with the
 * handler's token once per {@code near.trust} and trusts no page of the handler it had confirmed
 * before the change (see {@code HandlerConfirmations}). The value only has to change: it is
 * incremented, and created as the current time when missing (so a key memcached lost and made anew
 * does not come back to a value a JVM saw before).
 */
public final class Evictions {
  private Evictions() {}

  /**
   * Records that the page under {@code pageKey} was just deleted; call after the delete.
   *
   * @throws org.pagecache.store.StoreException when memcached cannot be reached
   */
  public static void deleted(Store store, String pageKey, long nowMillis) {
    String key = Namespace.evictionsOfPage(pageKey);
    if (key != null) {
      store.incr(key, 1, nowMillis, 0);
    }
  }
}
