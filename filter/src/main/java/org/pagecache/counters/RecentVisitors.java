package org.pagecache.counters;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Visitors this JVM already counted in the current online window, so their later requests skip
 * the memcached {@code add} that would only say "already counted". With sticky sessions most
 * requests of a visitor reach the same JVM. Forgotten when the window changes; stops remembering
 * past {@link #CAPACITY} visitors (the others just pay the round trip).
 */
final class RecentVisitors {
  static final int CAPACITY = 100_000;

  private record Window(long number, Set<String> visitors) {}

  private volatile Window current = new Window(Long.MIN_VALUE, ConcurrentHashMap.newKeySet());

  boolean contains(long window, String visitorId) {
    Window w = current;
    return w.number == window && w.visitors.contains(visitorId);
  }

  void remember(long window, String visitorId) {
    Window w = current;
    if (w.number != window) {
      synchronized (this) {
        w = current;
        if (w.number != window) {
          w = new Window(window, ConcurrentHashMap.newKeySet());
          current = w;
        }
      }
    }
    if (w.visitors.size() < CAPACITY) {
      w.visitors.add(visitorId);
    }
  }
}
