package org.pagecache.internal.nodes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.pagecache.testing.MemcachedExtension;

/**
 * Issue 22's quiet logs: one node of three dead for 60 s (by the breaker's clock, and a few real
 * seconds for the client's own threads), then one node hung as long, gives at most two lines per
 * node at WARN or above, none with a stack trace, and each node's return is logged. The store runs
 * in a child JVM with the client library's loggers at INFO, as an application gets them by
 * default (this build turns them off for its other tests).
 */
class OneNodeOutageLogTest {
  @RegisterExtension
  static MemcachedExtension memcached = MemcachedExtension.nodes(3);

  private static final int SECONDS_OF_OUTAGE = 60;
  private static final long REAL_MILLIS_AT_LEAST = 3000;

  @Test
  void aSixtySecondOutageOfOneNodeLogsAtMostTwoLinesPerNodeWithoutStackTraces() throws Exception {
    Path log = Files.createTempFile("outage-log-", ".txt");
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process child = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
        "-Dorg.slf4j.simpleLogger.defaultLogLevel=info", OutageLogScenario.class.getName(), memcached.servers())
        .redirectError(log.toFile()).start();
    try (PrintWriter commands = new PrintWriter(child.getOutputStream(), true, StandardCharsets.UTF_8);
        BufferedReader answers = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
      assertEquals("ready", answers.readLine());
      Driver d = new Driver(commands, answers);

      memcached.node(1).stop();
      outage(d);
      memcached.node(1).start();
      d.run("advance 1000");
      d.run("calls 60");

      memcached.node(2).pause();
      outage(d);
      memcached.node(2).resume();
      d.run("advance 1000");
      d.run("calls 60");
      commands.println("quit");
    } finally {
      if (!child.waitFor(30, TimeUnit.SECONDS)) {
        child.destroyForcibly();
      }
    }
    List<String> lines = Files.readAllLines(log);
    Files.deleteIfExists(log);
    String all = String.join("\n", lines);
    for (int node = 1; node <= 2; node++) {
      String address = memcached.node(node).address();
      long loud = lines.stream().filter(l -> l.contains(" WARN ") || l.contains(" ERROR "))
          .filter(l -> l.contains(address)).count();
      assertTrue(loud >= 1 && loud <= 2, "node " + node + ": " + loud + " lines at WARN or above:\n" + all);
      assertTrue(lines.stream().anyMatch(l -> l.contains(address) && l.contains("is back")), "its return logged:\n" + all);
    }
    assertEquals(List.of(), lines.stream().filter(l -> l.contains(" ERROR ")).toList(), all);
    assertEquals(List.of(), lines.stream().filter(l -> l.startsWith("\tat ") || l.startsWith("Caused by")).toList(),
        "no stack traces:\n" + all);
  }

  /**
   * Issue 27: a node killed while calls are in flight resets their connections under them, which
   * xmemcached logs as "network layout exception" at ERROR with a stack trace (Connection reset,
   * Broken pipe). Per node and outage: at most one WARN and one INFO line, no ERROR, no stack trace.
   */
  @Test
  void aNodeKilledUnderLoadLogsOneWarnAndOneInfoLineAndNoStackTrace() throws Exception {
    Path log = Files.createTempFile("outage-load-log-", ".txt");
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process child = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
        "-Dorg.slf4j.simpleLogger.defaultLogLevel=info", OutageLogScenario.class.getName(), memcached.servers())
        .redirectError(log.toFile()).start();
    try (PrintWriter commands = new PrintWriter(child.getOutputStream(), true, StandardCharsets.UTF_8);
        BufferedReader answers = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
      assertEquals("ready", answers.readLine());
      Driver d = new Driver(commands, answers);
      d.run("load 4");
      d.run("calls 200");
      for (int kill = 0; kill < 3; kill++) { // three outages of node 1, each killed under load
        memcached.node(1).stop();
        outage(d);
        memcached.node(1).start();
        d.run("advance 1000");
        d.run("calls 60");
      }
      d.run("load 0");
      commands.println("quit");
    } finally {
      if (!child.waitFor(30, TimeUnit.SECONDS)) {
        child.destroyForcibly();
      }
    }
    List<String> lines = Files.readAllLines(log);
    Files.deleteIfExists(log);
    String all = String.join("\n", lines);
    String address = memcached.node(1).address();
    long warn = lines.stream().filter(l -> l.contains(" WARN ") && l.contains(address)).count();
    // PageCache's own lines; xmemcached's connector also says "Add a session"/"Remove a session" at
    // INFO for every connection, outage or not (an application keeps com.google.code.yanf4j at WARN).
    long info = lines.stream().filter(l -> l.contains(" INFO org.pagecache") && l.contains(address)).count();
    assertTrue(warn >= 1 && warn <= 3, "one WARN line per outage (3): " + warn + "\n" + all);
    assertTrue(info <= 3, "at most one INFO line per outage (3): " + info + "\n" + all);
    assertEquals(List.of(), lines.stream().filter(l -> l.contains(" ERROR ")).toList(), all);
    assertEquals(List.of(), lines.stream().filter(l -> l.startsWith("\tat ") || l.startsWith("Caused by")).toList(),
        "no stack traces:\n" + all);
  }

  /** SECONDS_OF_OUTAGE retries of the breaker, spread over at least a few real seconds. */
  private static void outage(Driver d) throws IOException {
    long start = System.nanoTime();
    d.run("calls 60");
    for (int second = 0; second < SECONDS_OF_OUTAGE; second++) {
      d.run("advance 1000");
      d.run("calls 10");
    }
    for (int i = 0; i < 10_000 && (System.nanoTime() - start) / 1_000_000 < REAL_MILLIS_AT_LEAST; i++) {
      d.run("calls 10"); // the client's own threads run on real time: give them time to (not) log
    }
  }

  private record Driver(PrintWriter commands, BufferedReader answers) {
    void run(String command) throws IOException {
      commands.println(command);
      assertEquals("done", answers.readLine(), command);
    }
  }
}
