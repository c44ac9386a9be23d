package org.pagecache.counters;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The application's database as the counters see it: a {@link CountSink} that adds each batch it
 * is given to a views column, and the {@link CountSource} that reads that column back. It
 * records every batch, so a test can say exactly what reached the database. A hook runs after
 * a batch is committed and before the sink answers (a slow answer).
 */
final class RecordingDatabase implements CountSource, CountSink {
  final List<Map<String, Long>> given = new CopyOnWriteArrayList<>();
  private final Map<String, Long> views = new ConcurrentHashMap<>();
  volatile Runnable afterCommit = () -> {};

  @Override
  public long load(String objectKey) {
    return views.getOrDefault(objectKey, 0L);
  }

  @Override
  public void flush(Map<String, Long> increments) {
    given.add(Map.copyOf(increments));
    increments.forEach((k, v) -> views.merge(k, v, Long::sum));
    afterCommit.run();
  }

  /** The durable count of {@code objectKey}. */
  long views(String objectKey) {
    return load(objectKey);
  }
}
