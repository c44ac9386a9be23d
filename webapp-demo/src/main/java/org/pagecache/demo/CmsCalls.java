package org.pagecache.demo;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/** How many times each handler called the CMS since start-up: the number the cache keeps low. */
public final class CmsCalls {
  private final Map<String, LongAdder> byHandler = new ConcurrentHashMap<>();
  private final LongAdder total = new LongAdder();

  void record(String handler) {
    byHandler.computeIfAbsent(handler, h -> new LongAdder()).increment();
    total.increment();
  }

  public long total() {
    return total.sum();
  }

  public long of(String handler) {
    LongAdder n = byHandler.get(handler);
    return n == null ? 0 : n.sum();
  }

  /** A snapshot, handlers in alphabetical order. */
  public Map<String, Long> byHandler() {
    Map<String, Long> snapshot = new TreeMap<>();
    byHandler.forEach((h, n) -> snapshot.put(h, n.sum()));
    return snapshot;
  }
}
