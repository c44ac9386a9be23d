package org.pagecache.counters;

import java.time.Clock;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Loads starting values from the {@link CountSource}, at most one load per object key at a time
 * in this JVM: when a popular counter vanishes from memcached, the fifty threads that notice it
 * together wait for one database query instead of sending fifty.
 */
final class StartValues {
  private static final Logger LOG = LoggerFactory.getLogger(StartValues.class);

  /** @param loaded false when the source failed and {@code value} is a stand-in 0 */
  record Start(long value, boolean loaded) {}

  private final CountSource source;
  private final OutageLog outage;
  private final ConcurrentHashMap<String, CompletableFuture<Start>> loading = new ConcurrentHashMap<>();

  StartValues(CountSource source, Clock clock) {
    this.source = source;
    this.outage = new OutageLog(LOG, "the CountSource of view counters", clock);
  }

  /**
   * The start of {@code objectKey}; the thread that loads it also runs {@code publish} (e.g. the
   * memcached {@code add}) before the waiting threads go on, so they find the key in place.
   */
  Start obtain(String objectKey, Consumer<Start> publish) {
    CompletableFuture<Start> mine = new CompletableFuture<>();
    CompletableFuture<Start> running = loading.putIfAbsent(objectKey, mine);
    if (running != null) {
      return await(running);
    }
    try {
      Start start = load(objectKey);
      publish.accept(start);
      mine.complete(start);
      return start;
    } catch (RuntimeException e) {
      mine.completeExceptionally(e);
      throw e;
    } finally {
      loading.remove(objectKey, mine);
    }
  }

  private Start load(String objectKey) {
    try {
      long value = source.load(objectKey);
      outage.succeeded();
      return new Start(Math.max(0, value), true);
    } catch (Exception e) {
      outage.failed("counters start from 0 for a minute and ask again (first failed key: "
          + objectKey + ")", e);
      return new Start(0, false);
    }
  }

  private static Start await(CompletableFuture<Start> running) {
    try {
      return running.join();
    } catch (CompletionException e) {
      // The loader's own failure (memcached down during the add), rethrown as itself.
      if (e.getCause() instanceof RuntimeException cause) {
        throw cause;
      }
      throw e;
    }
  }
}
