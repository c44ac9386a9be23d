package org.pagecache.testing.containers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * A standalone servlet container running as a child process of the test JVM, on the test JVM's own
 * {@code java}. It is started from a command, considered ready when a URL answers 200, and stopped
 * with its whole process tree: a polite destroy, a wait, then destroyForcibly. A shutdown hook does
 * the same for containers a crashed or interrupted test left running, so no process outlives the build.
 *
 * <pre>
 *   try (ContainerProcess tomcat = ContainerProcess.start("tomcat", command, env, dir, log)) {
 *     tomcat.awaitReady(uri("/cms/stats"), Duration.ofSeconds(60));
 *     ...
 *   }
 * </pre>
 */
public final class ContainerProcess implements AutoCloseable {
  private static final Set<ContainerProcess> RUNNING = ConcurrentHashMap.newKeySet();
  private static final Duration POLITE_STOP = Duration.ofSeconds(10);

  static {
    Runtime.getRuntime().addShutdownHook(new Thread(
        () -> RUNNING.forEach(ContainerProcess::kill), "container-process-cleanup"));
  }

  private final String name;
  private final Process process;
  private final Path log;

  private ContainerProcess(String name, Process process, Path log) {
    this.name = name;
    this.process = process;
    this.log = log;
  }

  /** The {@code java} binary of this JVM, so the containers run on the JDK the build runs on. */
  public static String java() {
    return ProcessHandle.current().info().command()
        .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
  }

  /**
   * Runs {@code command} in {@code dir} with the given environment on top of this JVM's (minus any
   * PAGECACHE_ and DEMO_ variables of the machine, so only the test's configuration counts);
   * stdout and stderr go to {@code log}.
   */
  public static ContainerProcess start(String name, List<String> command, Map<String, String> env, Path dir, Path log) {
    ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile())
        .redirectErrorStream(true).redirectOutput(log.toFile());
    pb.environment().keySet().removeIf(k -> k.startsWith("PAGECACHE_") || k.startsWith("DEMO_"));
    pb.environment().putAll(env);
    try {
      ContainerProcess container = new ContainerProcess(name, pb.start(), log);
      RUNNING.add(container);
      return container;
    } catch (IOException e) {
      throw new UncheckedIOException(name + ": could not run " + command, e);
    }
  }

  /** Runs a short command to completion (e.g. creating a Jetty base); fails with its output. */
  public static void run(String name, List<String> command, Path dir, Path log, Duration timeout) {
    try (ContainerProcess p = start(name, command, Map.of(), dir, log)) {
      if (!p.process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        throw new IllegalStateException(name + " did not finish within " + timeout + "\n" + p.logTail());
      }
      if (p.process.exitValue() != 0) {
        throw new IllegalStateException(name + " failed with exit code " + p.process.exitValue() + "\n" + p.logTail());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(name + " interrupted", e);
    }
  }

  /** Polls {@code url} until it answers 200; fails early if the process dies, with the log's tail. */
  public void awaitReady(URI url, Duration timeout) {
    HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
    long deadline = System.nanoTime() + timeout.toNanos();
    int lastStatus = -1;
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IllegalStateException(name + " exited with code " + process.exitValue() + " before it was ready\n" + logTail());
      }
      try {
        HttpResponse<Void> r = client.send(HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(2)).build(),
            HttpResponse.BodyHandlers.discarding());
        lastStatus = r.statusCode();
        if (lastStatus == 200) {
          return;
        }
      } catch (ConnectException | HttpTimeoutException e) {
        // not listening yet
      } catch (IOException e) {
        // connection reset while starting
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(name + ": interrupted while waiting", e);
      }
      sleep(200);
    }
    throw new IllegalStateException(name + " was not ready within " + timeout + " (" + url + " last answered "
        + (lastStatus < 0 ? "nothing" : lastStatus) + ")\n" + logTail());
  }

  public long pid() {
    return process.pid();
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  /** The last lines the container wrote, for failure messages. */
  public String logTail() {
    try {
      List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
      return "---- last lines of " + log + " ----\n" + String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    } catch (IOException | RuntimeException e) {
      return "(no log at " + log + ": " + e + ")";
    }
  }

  /** Stops the process tree: destroy (SIGTERM), wait, then destroyForcibly what is left. */
  @Override
  public void close() {
    try {
      List<ProcessHandle> tree = process.descendants().toList();
      tree.forEach(ProcessHandle::destroy);
      process.destroy();
      if (!process.waitFor(POLITE_STOP.toMillis(), TimeUnit.MILLISECONDS)) {
        kill();
      }
      tree.forEach(ProcessHandle::destroyForcibly);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      kill();
    } finally {
      RUNNING.remove(this);
    }
  }

  private void kill() {
    process.descendants().forEach(ProcessHandle::destroyForcibly);
    process.destroyForcibly();
    try {
      process.waitFor(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public String toString() {
    return name + " (pid " + process.pid() + ")";
  }
}
