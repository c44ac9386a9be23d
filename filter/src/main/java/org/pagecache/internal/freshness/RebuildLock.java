package org.pagecache.internal.freshness;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.UUID;
import org.pagecache.store.Namespace;
import org.pagecache.store.Store;

/**
 * The dog-pile lock: one request per page wins memcached {@code add} on the page's lock key and
 * rebuilds; everyone else serves the stale copy (or waits briefly when there is none). The lock
 * expires by itself ({@code ttlSeconds}, longer than a build) so a crashed builder never blocks a
 * page for long; the value names the owner so a slow builder does not delete a lock that has
 * already passed to someone else.
 */
public final class RebuildLock {
  private final Store store;
  private final Namespace namespace;
  private final int ttlSeconds;
  private final String jvmId = UUID.randomUUID().toString().substring(0, 8);

  public RebuildLock(Store store, Namespace namespace, int ttlSeconds) {
    this.store = store;
    this.namespace = namespace;
    this.ttlSeconds = ttlSeconds;
  }

  public String key(String pageKey) {
    return namespace.lock(pageKey);
  }

  /** An owner id unique to this attempt. */
  public String newOwner() {
    return jvmId + "-" + Thread.currentThread().getId() + "-" + System.nanoTime();
  }

  public boolean tryAcquire(String pageKey, String owner) {
    return store.add(key(pageKey), owner.getBytes(StandardCharsets.US_ASCII), ttlSeconds);
  }

  /** Deletes the lock if it is still ours. */
  public void release(String pageKey, String owner) {
    String lockKey = key(pageKey);
    byte[] value = store.get(lockKey);
    if (value != null && Arrays.equals(value, owner.getBytes(StandardCharsets.US_ASCII))) {
      store.delete(lockKey);
    }
  }
}
