package org.pagecache.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * Closed-loop HTTP load over loopback with {@link HttpClient} (HTTP/1.1, kept-alive connections):
 * a fixed number of clients, each sending its next request as soon as the previous answer has
 * arrived, until a request budget or a deadline, whichever comes first. Latency is measured per
 * request, from send to the last body byte.
 *
 * <pre>{@code
 * LoadDriver driver = new LoadDriver("Accept-Encoding", "gzip");
 * LoadDriver.Result r = driver.run("hits", 32, 200_000, Duration.ofSeconds(10), () -> site.uri(...));
 * r.rps(); r.millis(0.99); r.label("HIT");
 * }</pre>
 *
 * <p>Closed loop: when the server slows down, clients send less, so latency under saturation is
 * about concurrency / throughput. The report says so next to every table.
 */
final class LoadDriver {
  private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);
  private final HttpClient client = newClient();
  private final Supplier<String[]> headers;

  /** Every request carries these headers (name, value pairs). */
  LoadDriver(String... headers) {
    String[] fixed = headers.clone();
    this.headers = () -> fixed;
  }

  /** Each request carries the headers the supplier gives for it (name, value pairs): a mix of visitors. */
  LoadDriver(Supplier<String[]> headers) {
    this.headers = headers;
  }

  /** What one run measured. Latencies are sorted, in nanoseconds. */
  record Result(String name, int concurrency, long requests, long nanos, long errors, long serverErrors,
      long bodyBytes, Map<String, Long> labels, long[] latencies) {

    double seconds() {
      return nanos / 1e9;
    }

    /** The answers by label, e.g. {@code HIT 1200, MISS 3}, for a table cell. */
    String labelsText() {
      StringBuilder b = new StringBuilder();
      labels.forEach((k, v) -> b.append(b.isEmpty() ? "" : ", ").append(k).append(' ').append(v));
      return b.toString();
    }

    /** The middle value of a row's rounds (the upper middle of an even count), NaN for none. */
    static double median(double[] values) {
      double[] v = values.clone();
      java.util.Arrays.sort(v);
      return v.length == 0 ? Double.NaN : v[v.length / 2];
    }

    double rps() {
      return requests / seconds();
    }

    /** The latency at quantile {@code q} (0.5, 0.99), in milliseconds; NaN without requests. */
    double millis(double q) {
      if (latencies.length == 0) {
        return Double.NaN;
      }
      int i = (int) Math.ceil(q * latencies.length) - 1;
      return latencies[Math.max(0, Math.min(i, latencies.length - 1))] / 1e6;
    }

    /** How many requests took {@code millis} or longer. */
    long slowerThan(long millis) {
      long nanos = millis * 1_000_000;
      int i = Arrays.binarySearch(latencies, nanos);
      if (i < 0) {
        i = -i - 1;
      }
      while (i > 0 && latencies[i - 1] >= nanos) {
        i--;
      }
      return latencies.length - i;
    }

    double maxMillis() {
      return latencies.length == 0 ? Double.NaN : latencies[latencies.length - 1] / 1e6;
    }

    /** Several runs as one: counts and times added, latencies merged. */
    static Result combine(String name, List<Result> runs) {
      long requests = 0;
      long nanos = 0;
      long errors = 0;
      long serverErrors = 0;
      long bytes = 0;
      Map<String, Long> labels = new TreeMap<>();
      long[] all = new long[0];
      for (Result r : runs) {
        requests += r.requests;
        nanos += r.nanos;
        errors += r.errors;
        serverErrors += r.serverErrors;
        bytes += r.bodyBytes;
        r.labels.forEach((k, v) -> labels.merge(k, v, Long::sum));
        int at = all.length;
        all = Arrays.copyOf(all, at + r.latencies.length);
        System.arraycopy(r.latencies, 0, all, at, r.latencies.length);
      }
      Arrays.sort(all);
      return new Result(name, runs.get(0).concurrency, requests, nanos, errors, serverErrors, bytes, labels, all);
    }

    /** Responses whose X-Cache header was {@code label} ("none" for responses without one). */
    long label(String label) {
      return labels.getOrDefault(label, 0L);
    }
  }

  /**
   * As {@link #run}, with {@code event} (when not null) run on a thread of its own {@code eventAt}
   * after the load starts (a node stopped, killed or started again) and waited for at the end.
   */
  Result runWithEvent(String name, int concurrency, long maxRequests, Duration maxTime, Supplier<URI> target,
      Duration eventAt, Runnable event) {
    Thread eventThread = null;
    if (event != null) {
      eventThread = new Thread(() -> {
        try {
          Thread.sleep(eventAt.toMillis()); // the event's place in the phase, not a synchronisation
        } catch (InterruptedException e) {
          return;
        }
        event.run();
      }, "event-" + name);
      eventThread.start();
    }
    Result r = run(name, concurrency, maxRequests, maxTime, target);
    if (eventThread != null) {
      try {
        eventThread.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    return r;
  }

  /** Runs {@code concurrency} clients until {@code maxRequests} answers or {@code maxTime}. */
  Result run(String name, int concurrency, long maxRequests, Duration maxTime, Supplier<URI> target) {
    AtomicLong budget = new AtomicLong(maxRequests);
    Client[] clients = new Client[concurrency];
    CountDownLatch start = new CountDownLatch(1);
    long[] deadline = new long[1];
    List<Thread> threads = new ArrayList<>();
    for (int i = 0; i < concurrency; i++) {
      Client c = clients[i] = new Client(client);
      Thread t = new Thread(() -> {
        await(start);
        while (System.nanoTime() - deadline[0] < 0 && budget.getAndDecrement() > 0) {
          c.send(target.get());
        }
      }, "load-" + name + "-" + i);
      threads.add(t);
      t.start();
    }
    long begin = System.nanoTime();
    deadline[0] = begin + maxTime.toNanos();
    start.countDown();
    threads.forEach(LoadDriver::join);
    return merge(name, concurrency, System.nanoTime() - begin, clients);
  }

  /**
   * {@code n} clients each send exactly one request to {@code target}, all released at once. Each
   * has its own HttpClient (so its own connection) and first opens it with a request to
   * {@code warm}, so the burst measures the server, not n TCP handshakes at once. (With one shared
   * client, requests of the burst raced for the pooled connections, some opened new ones, and a
   * few took over a second: the retry delay of a connection attempt the listen backlog dropped.)
   */
  Result burst(String name, int n, URI warm, URI target) {
    Client[] clients = new Client[n];
    CyclicBarrier barrier = new CyclicBarrier(n + 1);
    List<Thread> threads = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Client c = clients[i] = new Client(newClient());
      Thread t = new Thread(() -> {
        c.call(warm);
        await(barrier);
        await(barrier);
        c.send(target);
      }, "burst-" + name + "-" + i);
      threads.add(t);
      t.start();
    }
    await(barrier); // every connection is open
    long begin = System.nanoTime();
    await(barrier); // go
    threads.forEach(LoadDriver::join);
    return merge(name, n, System.nanoTime() - begin, clients);
  }

  /** One client's counts, merged into a Result at the end (no sharing while running). */
  private final class Client {
    private final HttpClient http;
    private long[] latencies = new long[1024];
    private int count;
    private long errors;
    private long serverErrors;
    private long bodyBytes;
    private final Map<String, Long> labels = new TreeMap<>();

    Client(HttpClient http) {
      this.http = http;
    }

    void send(URI uri) {
      long t0 = System.nanoTime();
      HttpResponse<byte[]> r = call(uri);
      long took = System.nanoTime() - t0;
      if (count == latencies.length) {
        latencies = Arrays.copyOf(latencies, count * 2);
      }
      latencies[count++] = took;
      if (r == null) {
        errors++;
        return;
      }
      if (r.statusCode() >= 500) {
        serverErrors++;
      }
      bodyBytes += r.body().length;
      labels.merge(r.headers().firstValue("X-Cache").orElse("none"), 1L, Long::sum);
    }

    HttpResponse<byte[]> call(URI uri) {
      HttpRequest.Builder b = HttpRequest.newBuilder(uri).timeout(REQUEST_TIMEOUT).GET();
      String[] these = headers.get();
      if (these.length > 0) {
        b.headers(these);
      }
      try {
        return http.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
      } catch (IOException e) {
        return null;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return null;
      }
    }
  }

  private static Result merge(String name, int concurrency, long nanos, Client[] clients) {
    long total = 0;
    for (Client c : clients) {
      total += c.count;
    }
    long[] all = new long[(int) total];
    int at = 0;
    long errors = 0;
    long serverErrors = 0;
    long bytes = 0;
    Map<String, Long> labels = new TreeMap<>();
    for (Client c : clients) {
      System.arraycopy(c.latencies, 0, all, at, c.count);
      at += c.count;
      errors += c.errors;
      serverErrors += c.serverErrors;
      bytes += c.bodyBytes;
      c.labels.forEach((k, v) -> labels.merge(k, v, Long::sum));
    }
    Arrays.sort(all);
    return new Result(name, concurrency, total, nanos, errors, serverErrors, bytes, labels, all);
  }

  private static HttpClient newClient() {
    return HttpClient.newBuilder()
        .version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(5))
        .build();
  }

  private static void await(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void await(CyclicBarrier barrier) {
    try {
      barrier.await();
    } catch (Exception e) {
      throw new IllegalStateException("burst barrier broken", e);
    }
  }

  private static void join(Thread t) {
    try {
      t.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
