package org.pagecache.stats;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * This JVM's counts, per handler, at one moment: an immutable snapshot (as Caffeine's
 * {@code CacheStats}); the cache goes on counting in an object of its own.
 *
 * @param handlers every handler seen by this JVM, by name (sorted)
 */
public record Stats(Map<String, HandlerStats> handlers) {
  /** Copies {@code handlers}, sorted by name. */
  public Stats {
    handlers = Collections.unmodifiableSortedMap(new TreeMap<>(handlers));
  }

  /** Whether this JVM has seen a request of the handler. */
  public boolean seen(String handler) {
    return handlers.containsKey(handler);
  }

  /** The handler's counts; all zero for a handler this JVM has not seen. */
  public HandlerStats handler(String handler) {
    HandlerStats h = handlers.get(handler);
    return h != null ? h : HandlerStats.none(handler);
  }

  /** The sums over every handler (named {@code *}; no trace, refresh or evidence of its own). */
  public HandlerStats total() {
    return handlers.values().stream().reduce(HandlerStats.none("*"), HandlerStats::plus);
  }
}
