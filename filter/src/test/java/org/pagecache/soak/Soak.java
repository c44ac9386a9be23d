package org.pagecache.soak;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.pagecache.internal.freshness.RebuildLock;
import org.pagecache.testing.MemcachedExtension;

/**
 * The mixed-faults soak of issue 27: frontends in child JVMs (killable with -9) sharing three
 * memcached nodes and a gutter, readers on {@code pages} pages through every live frontend, an
 * editor (an in-process PageCache, as a CMS would be) refreshing the page handler about every
 * {@code refreshEvery}, and, with {@code faults}, one fault at a time with calm in between, chosen
 * by a seeded random: a node hung (SIGSTOP) for a few seconds, a node killed and restarted empty,
 * a frontend killed with -9 and restarted. {@link Checker} judges every read.
 */
public final class Soak {
  /**
   * @param frontend settings of every frontend beyond the servers and namespace (a deliberately
   *     broken one shows the checker catching it)
   * @param bound the documented lag the checker allows: {@code near.trust} + {@code retry.interval}
   */
  public record Settings(Duration length, long seed, boolean faults, int frontends, int pages, int readers,
      Duration refreshEvery, Map<String, String> frontend, Duration bound) {}

  /** What happened: the verdict, the faults made, the figures. */
  public record Report(Checker.Verdict verdict, List<String> faults, int frontendRestarts) {
    public String summary() {
      Checker.Verdict v = verdict;
      return String.format("soak: %d reads, %d violations (%d late within the bound, %d STALE past it while a"
          + " rebuild was in flight), %d refreshes, %d refused, %d errors from live frontends, backend share outside"
          + " the second after a refresh %.1f %% (%d of %d), slowest read %d ms, %d background rebuilds reported"
          + " (longest %d ms), %d faults: %s", v.reads(),
          v.violations().size(), v.lateWithinBound(), v.staleWhileRebuilding(), v.refreshes(), v.refused(),
          v.liveErrors(), 100 * v.backendShareOutsideRefreshWindow(), v.backendOutsideRefreshWindow(),
          v.readsOutsideRefreshWindow(), v.slowestReadMillis(), v.backgroundRebuilds(), v.longestRebuildMillis(),
          faults.size(), faults);
    }
  }

  private final Settings s;
  private final List<MemcachedExtension.Node> main;
  private final MemcachedExtension.Node gutter;
  private final Path dir;
  private final Random random;
  private final List<Child> children = new ArrayList<>();
  private final List<Checker.Read> reads = new CopyOnWriteArrayList<>();
  private final List<Checker.Refresh> refreshes = new CopyOnWriteArrayList<>();
  /** The background rebuilds the frontends report in their logs. */
  private final RebuildReports rebuilds = new RebuildReports();
  /** Frontends killed and hung nodes resumed: a lock may be left with nobody to give it back. */
  private final List<Long> kills = new CopyOnWriteArrayList<>();
  private final List<String> faults = new CopyOnWriteArrayList<>();
  private volatile boolean running = true;
  private final long startedAt = System.nanoTime();
  private int restarts;

  private Soak(Settings s, List<MemcachedExtension.Node> main, MemcachedExtension.Node gutter, Path dir) {
    this.s = s;
    this.main = main;
    this.gutter = gutter;
    this.dir = dir;
    this.random = new Random(s.seed());
  }

  /** Runs the soak on these nodes (all running), in {@code dir}; every process it starts is gone when it returns. */
  public static Report run(Settings s, List<MemcachedExtension.Node> main, MemcachedExtension.Node gutter, Path dir,
      PrintStream out) throws Exception {
    return new Soak(s, main, gutter, dir).run(out);
  }

  private Map<String, String> frontendSettings() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("memcached.servers", String.join(",", main.stream().map(MemcachedExtension.Node::address).toList()));
    m.put("memcached.gutter", gutter.address());
    m.put("namespace", "soak" + Math.abs(s.seed() % 1000) + "x" + ProcessHandle.current().pid() % 1000);
    m.putAll(s.frontend());
    return m;
  }

  private Report run(PrintStream out) throws Exception {
    GenerationPage.publish(dir, 1);
    Frontend editor = Frontend.start(frontendSettings(), dir);
    try {
      for (int i = 0; i < s.frontends(); i++) {
        Child c = new Child(i);
        c.start();
        children.add(c);
      }
      long end = System.nanoTime() + s.length().toNanos();
      List<Thread> threads = new ArrayList<>();
      // Every thread's seed drawn here, in one order: the same seed gives the same schedule of faults.
      long editorSeed = random.nextLong();
      long faultSeed = random.nextLong();
      for (int r = 0; r < s.readers(); r++) {
        long readerSeed = random.nextLong();
        threads.add(thread("reader-" + r, () -> read(new Random(readerSeed), end)));
      }
      threads.add(thread("editor", () -> edit(editor, new Random(editorSeed), end)));
      if (s.faults()) {
        threads.add(thread("faults", () -> faults(new Random(faultSeed), end)));
      }
      threads.forEach(Thread::start);
      for (Thread t : threads) {
        t.join(s.length().toMillis() + 60_000);
      }
      running = false;
    } finally {
      running = false;
      children.forEach(Child::kill);
      editor.close();
      main.forEach(n -> {
        if (!n.isRunning()) {
          n.start();
        }
        n.resume();
      });
    }
    List<Checker.Rebuild> reported = rebuilds.all(System.nanoTime());
    Checker.Verdict v = Checker.check(reads, refreshes, reported, kills, s.bound().toNanos(),
        TimeUnit.SECONDS.toNanos(RebuildLock.LEASE_SECONDS), TimeUnit.SECONDS.toNanos(1));
    Report report = new Report(v, List.copyOf(faults), restarts);
    out.println(report.summary());
    reported.stream().max(java.util.Comparator.comparingLong(r -> r.endNanos() - r.startNanos())).ifPresent(r -> out.println(
        "  longest background rebuild: page " + r.page() + " from " + ms(r.startNanos()) + " to " + ms(r.endNanos())
            + " ms, " + r.outcome()));
    if (!v.violations().isEmpty()) {
      java.util.Map<String, java.util.LongSummaryStatistics> byKind = new java.util.TreeMap<>();
      v.violations().forEach(x -> byKind.computeIfAbsent(x.read().xCache().split("[ ;]")[0],
          k -> new java.util.LongSummaryStatistics()).accept(x.lateMillis()));
      byKind.forEach((kind, late) -> out.println("  " + late.getCount() + " " + kind + " violations, late "
          + late.getMin() + "-" + late.getMax() + " ms"));
    }
    // the latest ones: the furthest past the bound
    for (Checker.Violation x : v.violations().stream()
        .sorted(java.util.Comparator.comparingLong(Checker.Violation::lateMillis).reversed()).limit(10).toList()) {
      out.println("  violation at " + ms(x.read().startNanos()) + " ms: " + x);
      // what the frontends reported of that page around it, to tell why nobody was rebuilding it
      reported.stream().filter(r -> r.page() == x.read().page()
              && Math.abs(r.startNanos() - x.read().startNanos()) < TimeUnit.SECONDS.toNanos(5))
          .forEach(r -> out.println("    background rebuild from " + ms(r.startNanos()) + " to " + ms(r.endNanos())
              + " ms: " + r.outcome()));
      refreshes.stream().filter(r -> r.generation() == x.expectedAtLeast()).forEach(r -> out.println(
          "    refresh " + r.generation() + " from " + ms(r.startNanos()) + " to " + ms(r.endNanos()) + " ms"));
    }
    return report;
  }

  /** Milliseconds since the soak started, of a time on its clock. */
  private long ms(long nanos) {
    return (nanos - startedAt) / 1_000_000;
  }

  private static Thread thread(String name, Runnable body) {
    Thread t = new Thread(body, "soak-" + name);
    t.setDaemon(true);
    return t;
  }

  // ---- readers ----

  private void read(Random r, long end) {
    for (int i = 0; i < 10_000_000 && System.nanoTime() < end && running; i++) {
      Child c = children.get(r.nextInt(children.size()));
      int port = c.port;
      long epoch = c.epoch;
      if (port == 0) {
        Thread.onSpinWait();
        continue;
      }
      int page = r.nextInt(s.pages());
      long start = System.nanoTime();
      try {
        RawHttp.Answer a = RawHttp.get(port, "/p/" + page, 5000);
        // X-Cache, then Cache-Status's detail (why STALE: its reason), for the report of a violation
        String xCache = a.cacheStatus().isEmpty() ? a.xCache() : a.xCache() + " (" + a.cacheStatus() + ")";
        reads.add(new Checker.Read(start, System.nanoTime(), c.index, page, a.status(), xCache,
            GenerationPage.generationOf(a.body()), false, c.epoch == epoch && c.port == port));
      } catch (IOException | RuntimeException e) {
        reads.add(new Checker.Read(start, System.nanoTime(), c.index, page, 0, "", -1, true,
            c.epoch == epoch && c.port == port));
      }
    }
  }

  // ---- the editor ----

  private void edit(Frontend editor, Random r, long end) {
    int generation = 1;
    while (running && System.nanoTime() < end) {
      long pause = s.refreshEvery().toMillis() * (75 + r.nextInt(51)) / 100;
      if (!pauseFor(pause, end)) {
        return;
      }
      generation++;
      try {
        GenerationPage.publish(dir, generation);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      long start = System.nanoTime();
      boolean refused = false;
      try {
        editor.cache.refreshHandler("page", "soak");
      } catch (RuntimeException e) {
        refused = true;
      }
      refreshes.add(new Checker.Refresh(generation, start, System.nanoTime(), refused));
    }
  }

  // ---- faults ----

  private void faults(Random r, long end) {
    for (int n = 0; running && System.nanoTime() < end && n < 1000; n++) {
      if (!pauseFor(3000 + r.nextInt(2000), end)) { // calm
        return;
      }
      long at = (System.nanoTime() - startedAt) / 1_000_000;
      switch (r.nextInt(3)) {
        case 0 -> {
          int node = r.nextInt(main.size());
          int millis = 2000 + r.nextInt(3000);
          faults.add(at + "ms hang node " + node + " " + millis + "ms");
          main.get(node).pause();
          pauseFor(millis, Long.MAX_VALUE);
          main.get(node).resume();
          kills.add(System.nanoTime()); // lock adds that timed out are applied now, owned by nobody
        }
        case 1 -> {
          int node = r.nextInt(main.size());
          int millis = 1000 + r.nextInt(2000);
          faults.add(at + "ms kill node " + node + ", restart empty after " + millis + "ms");
          main.get(node).stop();
          pauseFor(millis, Long.MAX_VALUE);
          main.get(node).start();
        }
        default -> {
          Child c = children.get(r.nextInt(children.size()));
          faults.add(at + "ms kill -9 frontend " + c.index);
          kills.add(System.nanoTime());
          c.kill();
          try {
            c.start();
            restarts++;
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        }
      }
    }
  }

  /** Waits (the soak's schedule, not a synchronisation) unless the soak ends first; false when it ended. */
  private boolean pauseFor(long millis, long end) {
    long until = Math.min(end, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis));
    while (running && System.nanoTime() < until) {
      try {
        Thread.sleep(Math.max(1, Math.min(100, TimeUnit.NANOSECONDS.toMillis(until - System.nanoTime()))));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }
    return running && System.nanoTime() < end;
  }

  /** A frontend in a child JVM; {@code port} is 0 while it is down, {@code epoch} counts its starts. */
  private final class Child {
    final int index;
    volatile int port;
    volatile long epoch;
    private Process process;

    Child(int index) {
      this.index = index;
    }

    synchronized void start() throws IOException {
      Path log = Path.of(System.getProperty("soak.logs", dir.toString())).resolve("frontend-" + index + ".log");
      process = new ProcessBuilder(Frontend.command(frontendSettings(), dir, RebuildReports.JVM_OPTIONS))
          .redirectErrorStream(true).start();
      BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
      for (int i = 0; i < 1000; i++) {
        String line = out.readLine();
        if (line == null) {
          throw new IOException("frontend " + index + " ended before it served; see " + log);
        }
        if (line.startsWith("PORT ")) {
          epoch++;
          String started = index + "." + epoch;
          Thread drain = thread("frontend-log-" + index, () -> {
            try {
              Files.write(log, (Iterable<String>) out.lines().peek(l -> rebuilds.line(started, l))::iterator,
                  StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.CREATE,
                  java.nio.file.StandardOpenOption.APPEND);
            } catch (IOException | UncheckedIOException e) {
              // the process went away
            }
          });
          drain.start();
          port = Integer.parseInt(line.substring(5).trim());
          return;
        }
      }
      throw new IOException("frontend " + index + " did not start");
    }

    synchronized void kill() {
      port = 0;
      rebuilds.killed(index + "." + epoch, System.nanoTime());
      epoch++;
      if (process != null) {
        process.destroyForcibly(); // SIGKILL
        try {
          process.waitFor(20, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    }
  }
}
