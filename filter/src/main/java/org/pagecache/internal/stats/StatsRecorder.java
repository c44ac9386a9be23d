package org.pagecache.internal.stats;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/** The {@link HandlerRecorder} of every handler seen by this JVM. */
public final class StatsRecorder {
  private final Map<String, HandlerRecorder> byHandler = new ConcurrentHashMap<>();
  private final List<Consumer<HandlerRecorder>> listeners = new CopyOnWriteArrayList<>();
  private final List<BiConsumer<HandlerRecorder, String>> reasonListeners = new CopyOnWriteArrayList<>();

  public HandlerRecorder handler(String name) {
    HandlerRecorder s = byHandler.get(name);
    if (s != null) {
      return s;
    }
    HandlerRecorder created = new HandlerRecorder(name, (h, reason) -> reasonListeners.forEach(l -> l.accept(h, reason)));
    HandlerRecorder raced = byHandler.putIfAbsent(name, created);
    if (raced != null) {
      return raced;
    }
    listeners.forEach(l -> l.accept(created)); // outside the map's lock: a listener may register meters
    return created;
  }

  public Collection<HandlerRecorder> all() {
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
  public void forEachHandler(Consumer<HandlerRecorder> listener) {
    listeners.add(listener);
    byHandler.values().forEach(listener);
  }

  /**
   * Calls {@code listener} for every bypass reason of every handler so far and for each new one
   * later (once per handler and reason, possibly twice for one appearing while it is added).
   */
  public void forEachBypassReason(BiConsumer<HandlerRecorder, String> listener) {
    reasonListeners.add(listener);
    byHandler.values().forEach(h -> h.bypassReasons().keySet().forEach(r -> listener.accept(h, r)));
  }
}
