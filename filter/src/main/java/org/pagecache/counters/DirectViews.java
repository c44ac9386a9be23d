package org.pagecache.counters;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;

/** Every view is one memcached {@code incr}: exact across frontends at any moment. */
record DirectViews(ViewCounter counter, FailOpen failOpen) implements ViewMode {

  @Override
  public long viewed(String objectKey) {
    return failOpen.callLong(() -> counter.increment(objectKey), () -> counter.lastKnown(objectKey));
  }

  @Override
  public long views(String objectKey) {
    return failOpen.callLong(() -> counter.current(objectKey), () -> counter.lastKnown(objectKey));
  }

  @Override
  public Map<String, Long> views(Collection<String> objectKeys) {
    return failOpen.call(() -> counter.current(objectKeys), () -> lastKnown(counter, objectKeys));
  }

  static Map<String, Long> lastKnown(ViewCounter counter, Collection<String> objectKeys) {
    Map<String, Long> known = new LinkedHashMap<>();
    for (String objectKey : objectKeys) {
      known.put(objectKey, counter.lastKnown(objectKey));
    }
    return known;
  }
}
