package org.pagecache.internal.freshness;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.pagecache.internal.store.GuardedStore;
import org.pagecache.store.Namespace;
import org.pagecache.store.Store;

/**
 * The dog-pile lock: one request per page wins memcached {@code add} on the page's lock key and
 * rebuilds; everyone else serves the stale copy (or waits briefly when there is none). The value
 * names the owner so a slow builder does not delete a lock that has already passed to someone else.
 *
 * <p>Three things keep a lock from holding a page old (docs/failures.md, issue 27):
 * <ul>
 *   <li><b>A lock per version.</b> The key carries the newest update token or tag version the
 *       build's lookup saw, so a refresh never waits on a lock taken before it: the first request
 *       after the refresh finds the new version's lock free and rebuilds;
 *   <li><b>A short lease, renewed.</b> The lock lives {@link #LEASE_SECONDS} s (or {@code ttlSeconds},
 *       {@code lock.ttl}, if shorter); one thread per JVM renews every lock its builds hold each
 *       second, up to {@code lock.ttl} after it was taken. A builder whose JVM dies (a crash, a
 *       kill -9) frees its pages within the lease, not {@code lock.ttl}, as Facebook's memcache
 *       leases are short-lived tokens;
 *   <li><b>A placement.</b> A {@link Lease} carries where it was taken: the build stores its page
 *       and gives the lock back there, even if a node returns meanwhile.
 * </ul>
 */
public final class RebuildLock implements AutoCloseable {
  /** The lifetime of a lock that is not renewed: how long a dead builder holds its page, at most. */
  public static final int LEASE_SECONDS = 3;
  private static final long RENEW_EVERY_MILLIS = 1000;

  private final Store store;
  private final Namespace namespace;
  private final int ttlSeconds;
  private final int leaseSeconds;
  /**
   * How long after it was asked for a lock is surely still this build's, so that giving it back is
   * a {@code delete} sent {@code noreply} (no round trip) rather than a read of its owner first:
   * memcached's clock moves in whole seconds, so a lock added for n seconds lives more than n - 1;
   * half a second of margin on that. 0 when the lease is 1 s: always read the owner.
   */
  private final long surelyHeldNanos;
  private final String jvmId = UUID.randomUUID().toString().substring(0, 8);
  private final Set<Lease> held = ConcurrentHashMap.newKeySet();
  private final LongAdder renewals = new LongAdder();
  private ScheduledExecutorService renewer;

  /**
   * A lock this request holds.
   *
   * @param lockKey the key of the lock (the page's, for one version)
   * @param placement the store placed where the lock was taken: the build's page is stored, and
   *     the lock deleted, through it (a node's gutter stays the gutter for this build)
   * @param renewUntilNanos when renewals stop ({@code lock.ttl} after it was taken, on {@link System#nanoTime})
   * @param takenAtNanos when it was asked for ({@link System#nanoTime}, before the add was sent)
   */
  public record Lease(String pageKey, String lockKey, String owner, Store placement, long renewUntilNanos,
      long takenAtNanos) {}

  /**
   * A lock won, with what memcached held for the keys read after the add ({@link #tryAcquireReading}).
   *
   * @param readAfter the values of the keys asked for, present ones only, read after the lock was taken
   */
  public record Taken(Lease lease, Map<String, byte[]> readAfter) {}

  /** @param ttlSeconds {@code lock.ttl}: the longest a build holds its lock */
  public RebuildLock(Store store, Namespace namespace, int ttlSeconds) {
    this.store = store;
    this.namespace = namespace;
    this.ttlSeconds = ttlSeconds;
    this.leaseSeconds = Math.min(ttlSeconds, LEASE_SECONDS);
    this.surelyHeldNanos = Math.max(0, TimeUnit.SECONDS.toNanos(leaseSeconds - 1) - TimeUnit.MILLISECONDS.toNanos(500));
  }

  /** The version a build's lock is taken under: the newest of the handler's token and the page's tag versions. */
  public static long version(long token, Collection<Long> tagVersions) {
    long newest = token;
    for (long v : tagVersions) {
      newest = Math.max(newest, v);
    }
    return newest;
  }

  /** The lock of a page for builds under {@code version} (see {@link #version}). */
  public String key(String pageKey, long version) {
    return namespace.lock(pageKey) + "." + Long.toString(Math.max(0, version), 36);
  }

  /** An owner id unique to this attempt. */
  public String newOwner() {
    return jvmId + "-" + Thread.currentThread().getId() + "-" + System.nanoTime();
  }

  /** The lock if {@code owner} won it, else null; it is renewed until {@link #release}d or {@code lock.ttl} has passed. */
  public Lease tryAcquire(String pageKey, long version, String owner) {
    Taken taken = tryAcquireReading(pageKey, version, owner, null);
    return taken == null ? null : taken.lease();
  }

  /**
   * The lock if {@code owner} won it, with the values of {@code readKeys} as memcached held them
   * after the lock was taken (the build's second look), else null. Where the store can, the add and
   * the reads go together, one round trip ({@link Store#addThenGetMulti}); the reads are then
   * still answered after the add, so a page another builder stored before giving the lock back is
   * seen. {@code readKeys} null: the add alone.
   */
  public Taken tryAcquireReading(String pageKey, long version, String owner, Collection<String> readKeys) {
    String lockKey = key(pageKey, version);
    Store at = store instanceof GuardedStore guarded ? guarded.placedFor(lockKey, pageKey) : store;
    long askedAt = System.nanoTime();
    byte[] ownerBytes = owner.getBytes(StandardCharsets.US_ASCII);
    Map<String, byte[]> readAfter = null;
    if (readKeys == null) {
      if (!at.add(lockKey, ownerBytes, leaseSeconds)) {
        return null;
      }
    } else {
      readAfter = at.addThenGetMulti(lockKey, ownerBytes, leaseSeconds, readKeys);
      if (readAfter == null) {
        return null;
      }
    }
    Lease lease = new Lease(pageKey, lockKey, owner, at, askedAt + TimeUnit.SECONDS.toNanos(ttlSeconds), askedAt);
    if (leaseSeconds < ttlSeconds) {
      held.add(lease);
      startRenewing();
    }
    return new Taken(lease, readAfter);
  }

  /**
   * Deletes the lock, where it was taken, if it is still the lease's. Soon after it was taken it
   * surely is (see {@link #surelyHeldNanos}): one {@code delete} sent {@code noreply}, no round trip.
   * Later its owner is read first, as it may have expired and passed to another build.
   */
  public void release(Lease lease) {
    held.remove(lease);
    if (System.nanoTime() - lease.takenAtNanos() < surelyHeldNanos) {
      lease.placement().deleteNoReply(lease.lockKey());
      return;
    }
    byte[] value = lease.placement().get(lease.lockKey());
    if (value != null && Arrays.equals(value, lease.owner().getBytes(StandardCharsets.US_ASCII))) {
      lease.placement().delete(lease.lockKey());
    }
  }

  /** Locks held now by this JVM's builds (tests, the admin page). */
  public int held() {
    return held.size();
  }

  /** Locks renewed so far (tests). */
  public long renewals() {
    return renewals.sum();
  }

  private synchronized void startRenewing() {
    if (renewer == null) {
      renewer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "pagecache-lock-renewal");
        t.setDaemon(true);
        return t;
      });
      renewer.scheduleWithFixedDelay(this::renewAll, RENEW_EVERY_MILLIS, RENEW_EVERY_MILLIS, TimeUnit.MILLISECONDS);
    }
  }

  /** Touches every lock held; a lock past {@code lock.ttl} is left to expire, as a build that never ends. */
  private void renewAll() {
    long now = System.nanoTime();
    for (Lease lease : held) {
      if (now - lease.renewUntilNanos() >= 0) {
        held.remove(lease);
        continue;
      }
      try {
        if (lease.placement().touch(lease.lockKey(), leaseSeconds)) {
          renewals.increment();
        }
      } catch (RuntimeException e) {
        // its node failed: the lock expires by itself, the breaker has said so
      }
    }
  }

  @Override
  public synchronized void close() {
    if (renewer != null) {
      renewer.shutdownNow();
    }
    held.clear();
  }
}
