package org.pagecache.admin;

import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** The {@link HandlerStats} of every handler seen by this JVM. */
public final class CacheStats {
  private final Map<String, HandlerStats> byHandler = new ConcurrentHashMap<>();

  public HandlerStats handler(String name) {
    return byHandler.computeIfAbsent(name, HandlerStats::new);
  }

  public Collection<HandlerStats> all() {
    return byHandler.values();
  }

  public boolean seen(String name) {
    return byHandler.containsKey(name);
  }
}
