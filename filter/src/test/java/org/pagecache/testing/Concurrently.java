package org.pagecache.testing;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Runs a task on {@code n} threads released together by a latch, for tests of what happens when
 * requests or views arrive at once; waits for all of them within a bound and rethrows a failure.
 */
public final class Concurrently {
  private Concurrently() {}

  /** One thread's work; {@code index} is 0 to n-1. */
  @FunctionalInterface
  public interface Task<T> {
    T run(int index) throws Exception;
  }

  /** The results of {@code n} runs of {@code task}, in index order. */
  public static <T> List<T> run(int n, Duration limit, Task<T> task) {
    ExecutorService pool = Executors.newFixedThreadPool(n);
    CountDownLatch start = new CountDownLatch(1);
    try {
      List<Future<T>> futures = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        int index = i;
        futures.add(pool.submit(() -> {
          start.await();
          return task.run(index);
        }));
      }
      start.countDown();
      long deadline = System.nanoTime() + limit.toNanos();
      List<T> results = new ArrayList<>(n);
      for (Future<T> f : futures) {
        results.add(f.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS));
      }
      return results;
    } catch (Exception e) {
      throw new AssertionError("concurrent run of " + n + " failed or took longer than " + limit, e);
    } finally {
      pool.shutdownNow();
    }
  }
}
