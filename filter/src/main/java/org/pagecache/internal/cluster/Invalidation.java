package org.pagecache.internal.cluster;

import java.nio.charset.StandardCharsets;
import org.pagecache.internal.freshness.Evictions;
import org.pagecache.internal.freshness.Versions;
import org.pagecache.store.Store;

/**
 * One refresh, tag invalidation or eviction as another cluster receives it. Applying it twice, or
 * after a later one of the same key, changes nothing that matters, so a retry is always safe and
 * a backlog may keep just the latest per key.
 *
 * @param kind what it does
 * @param key the memcached key it concerns: the handler's token, the tag's version, the page
 * @param version the token or tag version written by the originating cluster (0 for an eviction)
 */
public record Invalidation(Kind kind, String key, long version) {
  /**
   * How long an eviction holds off copies of the page in a warming cluster (FB's "hold-off"
   * after a delete, §4.3): a copy read from the warm cluster before the eviction and stored after
   * it would otherwise bring the evicted page back. Seconds; far longer than a copy takes.
   */
  public static final int HOLD_OFF_SECONDS = 10;

  /** What an invalidation does in a cluster. */
  public enum Kind {
    /** A handler refresh: its token raised past the originating value. */
    TOKEN,
    /** A tag invalidation: its version raised past the originating value. */
    TAG,
    /** An eviction: the page deleted, copies held off for {@link #HOLD_OFF_SECONDS}. */
    EVICT
  }

  public static Invalidation token(String key, long token) {
    return new Invalidation(Kind.TOKEN, key, token);
  }

  public static Invalidation tag(String key, long version) {
    return new Invalidation(Kind.TAG, key, version);
  }

  public static Invalidation evict(String pageKey) {
    return new Invalidation(Kind.EVICT, pageKey, 0);
  }

  /** The key that marks a page as just evicted, in every cluster. */
  public static String holdOffKey(String pageKey) {
    return pageKey + ":evicted";
  }

  /**
   * Writes it to a cluster. A token or tag version becomes max(originating value, its value there
   * + 1): in force there whatever the clocks say, and never older than the originating one.
   *
   * @throws org.pagecache.store.StoreException when the cluster cannot be reached
   */
  void applyTo(Store store) {
    switch (kind) {
      case TOKEN, TAG -> Versions.raisePast(store, key, version, 0);
      case EVICT -> {
        store.set(holdOffKey(key), "1".getBytes(StandardCharsets.US_ASCII), HOLD_OFF_SECONDS); // before the delete
        store.delete(key);
        Evictions.deleted(store, key, System.currentTimeMillis()); // seen by that cluster's near caches
      }
    }
  }

  /** This one and a later one of the same key as one: the larger version (evictions are alike). */
  Invalidation merge(Invalidation later) {
    return later.version >= version ? later : this;
  }

  /** For operators' logs: what was invalidated, never a value. */
  String describe() {
    return kind.name().toLowerCase() + " " + key;
  }
}
