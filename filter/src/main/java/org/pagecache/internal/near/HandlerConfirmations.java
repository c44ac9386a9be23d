package org.pagecache.internal.near;

import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.pagecache.internal.freshness.UpdateTokens;
import org.pagecache.internal.freshness.Versions;
import org.pagecache.store.Namespace;
import org.pagecache.store.Store;
import org.pagecache.store.StoreException;

/**
 * What the near cache needs from memcached to keep trusting a handler's pages, read once per
 * {@code near.trust} per handler instead of once per page: the handler's update token (another
 * server's refresh) and its evictions key (another server's evict, see {@code Evictions}), in one
 * multi-get. Tag versions have their own window ({@code tag.cache}, {@code TagVersions}).
 *
 * <p>The answer is a time: a near entry of the handler is trusted when memcached confirmed it (read
 * or wrote it) at or after {@link #trustedFrom}. That time moves forward when the evictions key is
 * seen changed, to when it was seen: a page read before an eviction was noticed is read again once,
 * a page read after it cannot be the evicted one (the key changes only after the delete). A refresh
 * needs no such time: the token read here is the one the near cache's caller judges pages by.
 *
 * <p>A lookup that goes to memcached for a page trusts the token the same way ({@link
 * #tokenConfirmed}): it reads the page alone, so a hit beyond the near cache costs one {@code get}.
 *
 * <p>One request per handler reads memcached when the window has passed; the others arriving
 * meanwhile wait for its answer (a few hundred microseconds) rather than each asking.
 */
public final class HandlerConfirmations {
  /** No evictions value confirmed within the window. */
  public static final long UNKNOWN = Long.MIN_VALUE;
  /** Trust nothing: memcached could not be asked. */
  static final long NOTHING = Long.MAX_VALUE;
  /** A handler never confirmed: far enough in the past that now minus it never overflows. */
  private static final long NEVER = Long.MIN_VALUE / 2;

  private final Store store;
  private final Namespace namespace;
  private final UpdateTokens tokens;
  private final Clock clock;
  private final long windowMillis;
  private final Map<String, Handler> handlers = new ConcurrentHashMap<>();

  /** One handler's last confirmation; guarded by itself while it is renewed. */
  private static final class Handler {
    volatile long askedAtMillis = NEVER;
    volatile long evictionsSeenAtMillis = NOTHING;
    volatile long evictions;
    volatile boolean seen;
  }

  public HandlerConfirmations(Store store, Namespace namespace, UpdateTokens tokens, Clock clock, long windowMillis) {
    this.store = store;
    this.namespace = namespace;
    this.tokens = tokens;
    this.clock = clock;
    this.windowMillis = windowMillis;
  }

  /**
   * Confirms a handler this JVM has not confirmed yet, before its first page is read: the pages
   * read after it are then trusted from the start (none older can be held).
   */
  void firstLookup(String handler) {
    Handler h = handlers.get(handler);
    if (h == null || h.askedAtMillis == NEVER) {
      trustedFrom(handler);
    }
  }

  /**
   * True when the handler's update token this JVM knows was confirmed in memcached within the
   * window (renewed here when the window has passed): a lookup may then read the page alone and
   * judge it by that token, as a near entry is judged, one key fewer in its round trip. False with
   * no window ({@code near.trust=0s}: every lookup reads the token) or when memcached cannot be asked.
   */
  public boolean tokenConfirmed(String handler) {
    return windowMillis > 0 && trustedFrom(handler) != NOTHING;
  }

  /**
   * The handler's evictions value as confirmed within the window (after {@link #tokenConfirmed}
   * said yes), or {@link #UNKNOWN}: what an identity copy is stamped with and checked against
   * ({@code IdentityCopies}).
   */
  public long evictionsConfirmed(String handler) {
    Handler h = handlers.get(handler);
    if (h == null || !h.seen || clock.millis() - h.askedAtMillis >= windowMillis) {
      return UNKNOWN;
    }
    return h.evictions;
  }

  /** After an evict made here: the handler is confirmed again at its next lookup, which sees the evict. */
  public void evicted(String handler) {
    Handler h = handlers.get(handler);
    if (h != null) {
      synchronized (h) { // after a renewal under way, which may have read the evictions key before the evict
        h.askedAtMillis = NEVER;
      }
    }
  }

  /**
   * The time from which near entries of the handler are trusted, asking memcached when the last
   * confirmation is older than the window; {@link Long#MAX_VALUE} when memcached cannot be asked.
   */
  long trustedFrom(String handler) {
    Handler h = handlers.computeIfAbsent(handler, k -> new Handler());
    if (clock.millis() - h.askedAtMillis < windowMillis) {
      return h.evictionsSeenAtMillis;
    }
    synchronized (h) {
      long askedAt = clock.millis();
      if (askedAt - h.askedAtMillis < windowMillis) {
        return h.evictionsSeenAtMillis; // another request renewed it while this one waited
      }
      String tokenKey = tokens.key(handler);
      String evictionsKey = namespace.evictions(handler);
      Map<String, byte[]> got;
      try {
        got = store.getMulti(List.of(tokenKey, evictionsKey));
      } catch (StoreException e) {
        return NOTHING; // the request asks memcached for the page, and fails open there
      }
      tokens.effective(handler, got.get(tokenKey));
      long evictions = Versions.parse(got.get(evictionsKey));
      if (!h.seen || evictions != h.evictions) {
        // Entries confirmed before this answer may predate an eviction: each is read again once.
        h.evictionsSeenAtMillis = clock.millis();
        h.evictions = evictions;
        h.seen = true;
      }
      h.askedAtMillis = askedAt;
      return h.evictionsSeenAtMillis;
    }
  }
}
