package org.pagecache.internal.stats;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/** The {@link HandlerStats} of every handler seen by this JVM. */
public final class CacheStats {
  private final Map<String, HandlerStats> byHandler = new ConcurrentHashMap<>();
  private final List<Consumer<HandlerStats>> listeners = new CopyOnWriteArrayList<>();
  private final List<BiConsumer<HandlerStats, String>> reasonListeners = new CopyOnWriteArrayList<>();

  public HandlerStats handler(String name) {
    HandlerStats s = byHandler.get(name);
    if (s != null) {
      return s;
    }
    HandlerStats created = new HandlerStats(name, (h, reason) -> reasonListeners.forEach(l -> l.accept(h, reason)));
    HandlerStats raced = byHandler.putIfAbsent(name, created);
    if (raced != null) {
      return raced;
    }
    listeners.forEach(l -> l.accept(created)); // outside the map's lock: a listener may register meters
    return created;
  }

  public Collection<HandlerStats> all() {
    return byHandler.values();
  }

  public boolean seen(String name) {
    return byHandler.containsKey(name);
  }

  /**
   * Calls {@code listener} for every handler seen so far and for each one seen later (once per
   * handler, though a handler seen while the listener is being added may be passed twice).
   * Reporters such as the Micrometer binder use it to register a handler's meters when it appears.
   */
  public void forEachHandler(Consumer<HandlerStats> listener) {
    listeners.add(listener);
    byHandler.values().forEach(listener);
  }

  /**
   * Calls {@code listener} for every bypass reason of every handler so far and for each new one
   * later (once per handler and reason, possibly twice for one appearing while it is added).
   */
  public void forEachBypassReason(BiConsumer<HandlerStats, String> listener) {
    reasonListeners.add(listener);
    byHandler.values().forEach(h -> h.bypassReasons().keySet().forEach(r -> listener.accept(h, r)));
  }
}
