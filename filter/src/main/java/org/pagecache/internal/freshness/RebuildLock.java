package org.pagecache.internal.freshness;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.UUID;
import org.pagecache.internal.store.GuardedStore;
import org.pagecache.store.Namespace;
import org.pagecache.store.Store;

/**
 * The dog-pile lock: one request per page wins memcached {@code add} on the page's lock key and
 * rebuilds; everyone else serves the stale copy (or waits briefly when there is none). The lock
 * expires by itself ({@code ttlSeconds}, longer than a build) so a crashed builder never blocks a
 * page for long; the value names the owner so a slow builder does not delete a lock that has
 * already passed to someone else.
 *
 * <p>A lock won is a {@link Lease} that carries where it was taken: the build stores its page and
 * gives the lock back there, even if a node returns meanwhile (docs/failures.md).
 */
public final class RebuildLock {
  private final Store store;
  private final Namespace namespace;
  private final int ttlSeconds;
  private final String jvmId = UUID.randomUUID().toString().substring(0, 8);

  /**
   * A lock this request holds.
   *
   * @param placement the store placed where the lock was taken: the build's page is stored, and
   *     the lock deleted, through it (a node's gutter stays the gutter for this build)
   */
  public record Lease(String pageKey, String owner, Store placement) {}

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

  /** The lock if {@code owner} won it, else null. */
  public Lease tryAcquire(String pageKey, String owner) {
    String lockKey = key(pageKey);
    Store at = store instanceof GuardedStore guarded ? guarded.placedFor(lockKey, pageKey) : store;
    return at.add(lockKey, owner.getBytes(StandardCharsets.US_ASCII), ttlSeconds) ? new Lease(pageKey, owner, at) : null;
  }

  /** Deletes the lock, where it was taken, if it is still the lease's. */
  public void release(Lease lease) {
    String lockKey = key(lease.pageKey());
    byte[] value = lease.placement().get(lockKey);
    if (value != null && Arrays.equals(value, lease.owner().getBytes(StandardCharsets.US_ASCII))) {
      lease.placement().delete(lockKey);
    }
  }
}
