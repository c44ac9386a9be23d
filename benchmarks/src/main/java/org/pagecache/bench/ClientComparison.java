package org.pagecache.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import net.spy.memcached.ConnectionFactoryBuilder;
import net.spy.memcached.MemcachedClient;
import net.spy.memcached.transcoders.Transcoder;
import org.pagecache.internal.store.PageCodec;
import org.pagecache.store.MemcachedStore;

/**
 * xmemcached (PageCache's client, through {@link MemcachedStore}) against spymemcached 2.12 on the
 * long tail's memcached path: 64 threads each doing what a lookup that misses the near cache does,
 * a multi-get of the handler's token and one page entry (an 8 KB page, gzipped and encoded: about
 * 2.5 KB), over 5 000 pages, in interleaved rounds. Both clients with one connection, text
 * protocol, the same op timeout. Prints gets per second and the mean time per multi-get.
 *
 * <pre>
 *   java -cp ... org.pagecache.bench.ClientComparison [threads] [seconds per round] [rounds]
 * </pre>
 */
public final class ClientComparison {
  private static final int PAGES = 5000;

  private ClientComparison() {}

  public static void main(String[] args) throws Exception {
    int threads = args.length > 0 ? Integer.parseInt(args[0]) : 64;
    Duration round = Duration.ofSeconds(args.length > 1 ? Integer.parseInt(args[1]) : 5);
    int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 3;
    try (BenchMemcached memcached = new BenchMemcached(1, 256)) {
      String server = memcached.node(0).address();
      MemcachedStore x = new MemcachedStore(MemcachedStore.Settings.defaults(server));
      byte[] entry = new PageCodec().encode(BenchPages.entry(BenchPages.html(8 * 1024, 1), true));
      for (int i = 0; i < PAGES; i++) {
        x.set("p" + i, entry, 3600);
      }
      x.set("token", "0".getBytes(), 3600);
      String[] hostPort = server.split(":");
      MemcachedClient spy = new MemcachedClient(new ConnectionFactoryBuilder()
          .setProtocol(ConnectionFactoryBuilder.Protocol.TEXT).setOpTimeout(200).setDaemon(true).build(),
          List.of(new InetSocketAddress(hostPort[0], Integer.parseInt(hostPort[1]))));
      Transcoder<byte[]> raw = new RawTranscoder();
      Map<String, Function<List<String>, Map<String, ?>>> clients = new java.util.LinkedHashMap<>();
      clients.put("xmemcached 2.4 (MemcachedStore)", keys -> x.getMulti(keys));
      clients.put("spymemcached 2.12", keys -> spy.getBulk(keys, raw));
      Map<String, List<double[]>> results = new java.util.LinkedHashMap<>();
      clients.forEach((name, c) -> run(c, threads, Duration.ofSeconds(2))); // warm-up
      for (int r = 0; r < rounds; r++) {
        for (Map.Entry<String, Function<List<String>, Map<String, ?>>> c : clients.entrySet()) {
          double[] m = run(c.getValue(), threads, round);
          results.computeIfAbsent(c.getKey(), k -> new ArrayList<>()).add(m);
          System.out.printf(Locale.ROOT, "round %d %s: %.0f multi-gets/s, %.0f us each%n", r + 1, c.getKey(), m[0], m[1]);
        }
      }
      results.forEach((name, ms) -> {
        double[] rates = ms.stream().mapToDouble(m -> m[0]).sorted().toArray();
        double[] micros = ms.stream().mapToDouble(m -> m[1]).sorted().toArray();
        System.out.printf(Locale.ROOT, "median %s: %.0f multi-gets/s, %.0f us each (%d threads, %d rounds of %d s)%n",
            name, rates[rates.length / 2], micros[micros.length / 2], threads, rounds, round.toSeconds());
      });
      spy.shutdown(5, TimeUnit.SECONDS);
      x.close();
    }
    System.exit(0);
  }

  /** Multi-gets per second and mean microseconds per multi-get over the window. */
  private static double[] run(Function<List<String>, Map<String, ?>> client, int threads, Duration window) {
    AtomicBoolean stop = new AtomicBoolean();
    LongAdder done = new LongAdder();
    LongAdder nanos = new LongAdder();
    List<Thread> ts = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      Thread th = new Thread(() -> {
        while (!stop.get()) {
          List<String> keys = List.of("token", "p" + ThreadLocalRandom.current().nextInt(PAGES));
          long start = System.nanoTime();
          Map<String, ?> got = client.apply(keys);
          nanos.add(System.nanoTime() - start);
          if (got.size() == 2) {
            done.increment();
          }
        }
      });
      th.start();
      ts.add(th);
    }
    long start = System.nanoTime();
    try {
      Thread.sleep(window.toMillis());
      stop.set(true);
      for (Thread th : ts) {
        th.join(10_000);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    long n = done.sum();
    return new double[] {n / seconds, n == 0 ? 0 : nanos.sum() / 1000.0 / n};
  }

  /** Values as the bytes memcached holds, as PageCache's RawBytesTranscoder does for xmemcached. */
  private static final class RawTranscoder implements Transcoder<byte[]> {
    @Override
    public boolean asyncDecode(net.spy.memcached.CachedData d) {
      return false;
    }

    @Override
    public net.spy.memcached.CachedData encode(byte[] o) {
      return new net.spy.memcached.CachedData(0, o, getMaxSize());
    }

    @Override
    public byte[] decode(net.spy.memcached.CachedData d) {
      return d.getData();
    }

    @Override
    public int getMaxSize() {
      return 1024 * 1024;
    }
  }
}
