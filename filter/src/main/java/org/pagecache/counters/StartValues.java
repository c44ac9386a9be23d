package org.pagecache.counters;

import com.github.benmanes.caffeine.cache.Caffeine;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts counters, at most one start per object key at a time in this JVM: when a popular
 * counter vanishes from memcached, the fifty threads that notice it together wait for one
 * database query instead of sending fifty. Also turns a failing {@link CountSource} into a
 * stand-in 0 and one log line per outage.
 */
final class StartValues {
  private static final Logger LOG = LoggerFactory.getLogger(StartValues.class);

  /** Where a starting value came from. */
  enum Origin {
    /** The counter was in memcached after all (another frontend or thread started it). */
    FOUND,
    /** Loaded from the source. */
    LOADED,
    /**
     * Loaded from the source and created by this JVM with every view it still owed the sink
     * added ({@link ViewLedger#rebase}): the views it had not sent are in it already.
     */
    REBASED,
    /** The source failed: a stand-in 0. */
    STAND_IN
  }

  record Start(long value, Origin origin) {
    boolean trusted() {
      return origin != Origin.STAND_IN;
    }
  }

  private final CountSource source;
  private final OutageLog outage;
  private final ConcurrentHashMap<String, CompletableFuture<Start>> starting = new ConcurrentHashMap<>();
  /** Numbers the starts, so a caller can ask whether a counter was started since it looked. */
  private final AtomicLong sequence = new AtomicLong();
  private final Map<String, Numbered> done =
      Caffeine.newBuilder().maximumSize(LastSeen.CAPACITY).executor(Runnable::run).<String, Numbered>build().asMap();

  /** A completed start and its number. */
  private record Numbered(long number, Start start) {}

  StartValues(CountSource source, Clock clock) {
    this.source = source;
    this.outage = new OutageLog(LOG, "the CountSource of view counters", clock);
  }

  /**
   * Runs {@code start} for {@code objectKey} unless another thread of this JVM is already doing
   * so, in which case its result is shared.
   */
  Start obtain(String objectKey, Supplier<Start> start) {
    CompletableFuture<Start> mine = new CompletableFuture<>();
    CompletableFuture<Start> running = starting.putIfAbsent(objectKey, mine);
    if (running != null) {
      return await(running);
    }
    try {
      Start result = start.get();
      done.put(objectKey, new Numbered(sequence.incrementAndGet(), result));
      mine.complete(result);
      return result;
    } catch (RuntimeException e) {
      mine.completeExceptionally(e);
      throw e;
    } finally {
      starting.remove(objectKey, mine);
    }
  }

  /** The current position in the numbering of starts; see {@link #startedSince}. */
  long sequence() {
    return sequence.get();
  }

  /**
   * The start of this object that completed after {@code sequence} was read, as found present
   * (it is someone else's now); null when there was none.
   */
  Start startedSince(String objectKey, long sequence) {
    Numbered n = done.get(objectKey);
    return n == null || n.number() <= sequence ? null : new Start(n.start().value(),
        n.start().origin() == Origin.STAND_IN ? Origin.STAND_IN : Origin.FOUND);
  }

  /** The source's count, or a stand-in 0 when the source fails. */
  Start load(String objectKey) {
    try {
      long value = source.load(objectKey);
      outage.succeeded();
      return new Start(Math.max(0, value), Origin.LOADED);
    } catch (Exception e) {
      outage.failed("counters start from 0 for a minute and ask again (first failed key: "
          + objectKey + ")", e);
      return new Start(0, Origin.STAND_IN);
    }
  }

  private static Start await(CompletableFuture<Start> running) {
    try {
      return running.join();
    } catch (CompletionException e) {
      // The starting thread's own failure (memcached down during the add), rethrown as itself.
      if (e.getCause() instanceof RuntimeException cause) {
        throw cause;
      }
      throw e;
    }
  }
}
