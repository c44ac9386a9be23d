package org.pagecache;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;

/**
 * Background load on a {@link CachedSite} for the fault tests: a few clients request the given
 * paths round-robin until stopped, or until {@code maxTime} passes so a failing test cannot hang
 * ({@link #start}); or each path exactly once ({@link #once}).
 * It counts what came back (statuses, X-Cache labels, requests that failed outright, the slowest
 * answer), so a test asserts behaviour ("no 5xx", "hits resume"), never throughput.
 *
 * <pre>{@code
 * try (SiteLoad load = SiteLoad.start(site, 4, paths, Duration.ofSeconds(30))) {
 *   memcached.node(0).stop();
 *   ...
 *   SiteLoad.Tally t = load.stop();
 *   assertEquals(0, t.serverErrors());
 * }
 * }</pre>
 */
final class SiteLoad implements AutoCloseable {
  private final CachedSite site;
  private final List<String> paths;
  private final long deadline;
  private final long budget;
  private final AtomicBoolean running = new AtomicBoolean(true);
  private final AtomicLong next = new AtomicLong();
  private final List<Thread> clients = new ArrayList<>();
  private final LongAdder requests = new LongAdder();
  private final LongAdder failures = new LongAdder();
  private final LongAccumulator slowestMillis = new LongAccumulator(Math::max, 0);
  private final Map<Integer, LongAdder> statuses = new ConcurrentHashMap<>();
  private final Map<String, LongAdder> labels = new ConcurrentHashMap<>();
  private volatile Throwable firstFailure;

  private SiteLoad(CachedSite site, List<String> paths, Duration maxTime, long budget) {
    this.site = site;
    this.paths = List.copyOf(paths);
    this.deadline = System.nanoTime() + maxTime.toNanos();
    this.budget = budget;
  }

  /** Requests the paths round-robin until {@link #stop()}, at most for {@code maxTime}. */
  static SiteLoad start(CachedSite site, int clients, List<String> paths, Duration maxTime) {
    return launch(new SiteLoad(site, paths, maxTime, Long.MAX_VALUE), clients);
  }

  /** Requests each path once (in order, shared by the clients); wait with {@link #awaitDone}. */
  static SiteLoad once(CachedSite site, int clients, List<String> paths) {
    return launch(new SiteLoad(site, paths, Duration.ofMinutes(1), paths.size()), clients);
  }

  private static SiteLoad launch(SiteLoad load, int clients) {
    for (int i = 0; i < clients; i++) {
      Thread t = new Thread(load::loop, "site-load-" + i);
      t.setDaemon(true);
      load.clients.add(t);
      t.start();
    }
    return load;
  }

  /** What has come back so far. */
  record Tally(long requests, long failures, Map<Integer, Long> statuses, Map<String, Long> labels,
      long slowestMillis, Throwable firstFailure) {

    long status(int code) {
      return statuses.getOrDefault(code, 0L);
    }

    long serverErrors() {
      return statuses.entrySet().stream().filter(e -> e.getKey() >= 500).mapToLong(Map.Entry::getValue).sum();
    }

    long hits() {
      return labels.getOrDefault("HIT", 0L);
    }

    @Override
    public String toString() {
      return requests + " requests, statuses " + statuses + ", X-Cache " + labels + ", failed outright "
          + failures + ", slowest " + slowestMillis + " ms" + (firstFailure == null ? "" : ", first failure: " + firstFailure);
    }
  }

  Tally tally() {
    Map<Integer, Long> s = new TreeMap<>();
    statuses.forEach((k, v) -> s.put(k, v.sum()));
    Map<String, Long> l = new TreeMap<>();
    labels.forEach((k, v) -> l.put(k, v.sum()));
    return new Tally(requests.sum(), failures.sum(), s, l, slowestMillis.get(), firstFailure);
  }

  /** Stops the clients, waits for their last requests, and returns the final tally. */
  Tally stop() {
    running.set(false);
    join(Duration.ofMinutes(1));
    return tally();
  }

  /** Waits until every request of {@link #once} has been answered; fails after {@code timeout}. */
  Tally awaitDone(Duration timeout) {
    join(timeout);
    if (clients.stream().anyMatch(Thread::isAlive)) {
      throw new AssertionError("not within " + timeout + ": " + budget + " requests answered; " + tally());
    }
    return tally();
  }

  private void join(Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    for (Thread t : clients) {
      try {
        t.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  @Override
  public void close() {
    stop();
  }

  private void loop() {
    while (running.get() && System.nanoTime() - deadline < 0) {
      long n = next.getAndIncrement();
      if (n >= budget) {
        return;
      }
      String path = paths.get((int) (n % paths.size()));
      long start = System.nanoTime();
      try {
        HttpResponse<byte[]> r = site.get(path);
        statuses.computeIfAbsent(r.statusCode(), k -> new LongAdder()).increment();
        labels.computeIfAbsent(r.headers().firstValue("X-Cache").orElse("none"), k -> new LongAdder()).increment();
      } catch (RuntimeException e) {
        failures.increment();
        if (firstFailure == null) {
          firstFailure = e;
        }
      }
      slowestMillis.accumulate((System.nanoTime() - start) / 1_000_000);
      requests.increment();
    }
  }
}
