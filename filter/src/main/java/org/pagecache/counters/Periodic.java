package org.pagecache.counters;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * One background task on its own daemon thread, repeated with a fixed delay and stoppable. A
 * daemon thread so a forgotten {@code close()} never keeps a JVM alive; its own thread so a slow
 * database flush never delays the memcached pushes of local aggregation.
 */
final class Periodic implements AutoCloseable {
  private final ScheduledExecutorService executor;

  Periodic(String threadName, Duration every, Runnable task) {
    executor = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, threadName);
      t.setDaemon(true);
      return t;
    });
    long millis = every.toMillis();
    executor.scheduleWithFixedDelay(task, millis, millis, TimeUnit.MILLISECONDS);
  }

  /** Stops the task, waiting briefly for a run in progress so no two runs ever overlap. */
  @Override
  public void close() {
    executor.shutdown();
    try {
      executor.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
