package org.pagecache.internal.cluster;

import java.nio.charset.StandardCharsets;
import org.pagecache.internal.freshness.Evictions;
import org.pagecache.internal.store.IdentityCopies;
import org.pagecache.internal.freshness.Versions;
import org.pagecache.store.Store;

/**
 * One refresh, tag invalidation or eviction as another cluster receives it. Delivering it twice,
 * or after a later one of the same key, does no more than delivering it once (issue 37: two
 * frontends may both deliver the same backlog entry), so a retry is always safe and a backlog may
 * keep just the latest per key.
 *
 * @param kind what it does
 * @param key the memcached key it concerns: the handler's token, the tag's version, the page
 *     ({@code *} for {@link Kind#EMPTY})
 * @param version the token or tag version written by the originating cluster; for an eviction
 *     or an emptying, the time it was made there
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
    /** A handler refresh: its token raised to at least the originating value. */
    TOKEN('T'),
    /** A tag invalidation: its version raised to at least the originating value. */
    TAG('G'),
    /** An eviction: the page deleted unless rebuilt since, copies held off for {@link #HOLD_OFF_SECONDS}. */
    EVICT('E'),
    /**
     * Invalidations were lost (a backlog overflowed, or its index was lost): the whole cluster is
     * emptied once, which covers every invalidation made before, hard purges and evictions included.
     */
    EMPTY('X');

    final char letter;

    Kind(char letter) {
      this.letter = letter;
    }

    static Kind of(char letter) {
      for (Kind k : values()) {
        if (k.letter == letter) {
          return k;
        }
      }
      throw new IllegalArgumentException("no invalidation kind '" + letter + "'");
    }
  }

  public static Invalidation token(String key, long token) {
    return new Invalidation(Kind.TOKEN, key, token);
  }

  public static Invalidation tag(String key, long version) {
    return new Invalidation(Kind.TAG, key, version);
  }

  /** @param atMillis when the page was evicted here: it tells a replay from a later eviction */
  public static Invalidation evict(String pageKey, long atMillis) {
    return new Invalidation(Kind.EVICT, pageKey, atMillis);
  }

  /** @param atMillis when the loss was found: the emptying covers every invalidation made before */
  static Invalidation empty(long atMillis) {
    return new Invalidation(Kind.EMPTY, "*", atMillis);
  }

  /** The key that marks a page as just evicted, in every cluster. */
  public static String holdOffKey(String pageKey) {
    return pageKey + ":evicted";
  }

  /**
   * The key, in the receiving cluster, of the largest version (or eviction time) of this target
   * delivered there: what makes a second delivery a no-op. No key part contains {@code ~}.
   */
  static String appliedKey(String key) {
    return key + "~applied";
  }

  /**
   * Writes a refresh, tag invalidation or eviction to a cluster (an emptying is the
   * {@link RemoteCluster}'s), unless it, or a later one of the same target, was delivered there
   * already (its {@link #appliedKey}): a replay by a second frontend changes nothing, and pages built
   * there since stay. A first delivery does what it always did: a token or tag version becomes
   * max(originating value, its value there + 1), in force there whatever the clocks say; a page is
   * deleted, copies held off. The mark is written after the change: a JVM killed between the two
   * leaves one more delivery to do, which condemns the pages once more (a rebuild, never a stale page).
   *
   * @throws org.pagecache.store.StoreException when the cluster cannot be reached
   */
  void applyTo(Store store) {
    String applied = appliedKey(key);
    if (Versions.parse(store.get(applied)) >= version) {
      return; // delivered before, by this frontend or another one
    }
    switch (kind) {
      case TOKEN, TAG -> Versions.raisePast(store, key, version, 0);
      case EVICT -> {
        store.set(holdOffKey(key), "1".getBytes(StandardCharsets.US_ASCII), HOLD_OFF_SECONDS); // before the delete
        store.delete(key);
        Evictions.deleted(store, key, System.currentTimeMillis()); // seen by that cluster's near caches
        IdentityCopies.delete(store, key); // and its copies no longer trusted: this only saves the memory
      }
      case EMPTY -> throw new IllegalStateException("an emptying is delivered by the RemoteCluster");
    }
    Versions.atLeast(store, applied, version, kind == Kind.EVICT ? EVICT_MARK_SECONDS : 0);
  }

  /**
   * How long the mark of a delivered eviction is kept: one per evicted page, so not forever. A
   * replay later than this (a backlog that waited a week) deletes the page once more: a rebuild.
   */
  static final int EVICT_MARK_SECONDS = 7 * 24 * 3600;

  /** True for the same handler, tag or page (or both emptyings): a backlog keeps one of them. */
  boolean sameTarget(Invalidation other) {
    return kind == other.kind && key.equals(other.key);
  }

  /** This one and a later one of the same target as one: the larger version or time. */
  Invalidation merge(Invalidation later) {
    return later.version >= version ? later : this;
  }

  /** The backlog's identity of its target. */
  String target() {
    return kind.letter + key;
  }

  /** For operators' logs: what was invalidated, never a value. */
  String describe() {
    return kind == Kind.EMPTY ? "emptying" : kind.name().toLowerCase() + " " + key;
  }
}
