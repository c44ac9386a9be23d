package org.pagecache.internal.freshness;

import java.time.Clock;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.pagecache.store.Namespace;
import org.pagecache.store.Store;
import org.pagecache.store.StoreException;

/**
 * Per-handler update tokens: a refresh raises the handler's token to "now", which condemns every
 * page built under an older token without touching any other handler (never flush_all), and
 * without leaving a generation of garbage keys behind (unlike key-prefix versioning: the page keys
 * stay the same and are overwritten on rebuild).
 *
 * <p>Tokens never expire (they are tiny and read at least once per {@code near.trust} by every JVM
 * serving the handler, so they stay hot), which keeps
 * each token alive at least as long as the longest-lived page of its handler. Against eviction or a
 * node that restarts, each JVM remembers the largest token it has seen per handler, uses the larger
 * of that and what memcached says, and puts a lost token back with {@code add} (never overwriting a
 * newer one written meanwhile; a node that comes back holding an older token is raised with cas).
 */
public final class UpdateTokens {
  private final Store store;
  private final Namespace namespace;
  private final Clock clock;
  private final Map<String, Long> lastSeen = new ConcurrentHashMap<>();
  private final java.util.Set<String> created = ConcurrentHashMap.newKeySet();

  public UpdateTokens(Store store, Namespace namespace, Clock clock) {
    this.store = store;
    this.namespace = namespace;
    this.clock = clock;
  }

  public String key(String handler) {
    return namespace.token(handler);
  }

  /**
   * The token to judge pages by, from the value memcached returned (null when it has none): to a
   * handler's confirmation ({@code HandlerConfirmations}), a lookup's multi-get or a build's second look. Repairs a lost token; the repair's failure is not the
   * request's problem.
   */
  public long effective(String handler, byte[] fromStore) {
    long stored = Versions.parse(fromStore);
    long remembered = lastSeen.getOrDefault(handler, 0L);
    if (fromStore == null && remembered == 0 && created.add(handler)) {
      // A never-refreshed handler: store its token as 0 (same meaning as none) so that hits stop
      // counting as memcached misses and its get hit ratio reads true. Once per handler per JVM.
      try {
        store.add(key(handler), Versions.encode(0), 0);
      } catch (StoreException e) {
        created.remove(handler);
      }
    }
    if (stored > remembered) {
      lastSeen.merge(handler, stored, Math::max);
      return stored;
    }
    if (remembered > stored) {
      try {
        Versions.atLeast(store, key(handler), remembered, 0);
      } catch (StoreException e) {
        // memcached is failing; the page path already fails open
      }
    }
    return remembered;
  }

  /** Raises the handler's token; every page it built before now is STALE from here on. */
  public long refresh(String handler) {
    long token = Versions.raise(store, key(handler), clock, 0);
    lastSeen.merge(handler, token, Math::max);
    return token;
  }

  /**
   * The tokens memcached holds for these handlers, in one multi-get: the time of each one's last
   * refresh, from whichever server it came. Handlers never refreshed are absent.
   *
   * Reads memcached only; no JVM's memory of tokens is involved, hence static.
   *
   * @throws StoreException when memcached cannot be read
   */
  public static Map<String, Long> stored(Store store, Namespace namespace, Collection<String> handlers) {
    Map<String, String> keys = new LinkedHashMap<>();
    handlers.forEach(h -> keys.put(namespace.token(h), h));
    Map<String, Long> tokens = new LinkedHashMap<>();
    store.getMulti(keys.keySet()).forEach((key, value) -> {
      long token = Versions.parse(value);
      if (token > 0) {
        tokens.put(keys.get(key), token);
      }
    });
    return tokens;
  }

  /** The largest token this JVM has seen for the handler, 0 if none. */
  public long remembered(String handler) {
    return lastSeen.getOrDefault(handler, 0L);
  }
}
