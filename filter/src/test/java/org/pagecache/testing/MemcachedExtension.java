package org.pagecache.testing;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.StringJoiner;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Real memcached servers for a test class: no mocks, so tests see memcached's own semantics,
 * timings and failures. Starts {@code memcached} processes on free loopback ports before all
 * tests and stops them after (a JVM shutdown hook also kills them, so none outlive the build).
 *
 * <pre>{@code
 * @RegisterExtension static MemcachedExtension memcached = MemcachedExtension.nodes(3).memoryMb(16);
 *
 * Store store = new MemcachedStore(MemcachedStore.Settings.defaults(memcached.servers()));
 * memcached.node(1).stop();   // a crashed server
 * memcached.node(2).pause();  // a hung one (SIGSTOP)
 * memcached.text(0).statLong("curr_items");
 * }</pre>
 *
 * <p>Before each test every node is running and not paused again (a test that stopped one does
 * not break the next), but data is kept: tests use their own keys, or call {@link #clear()}.
 * Nothing here ever sends {@code flush_all}, so tests may assert {@code cmd_flush} stays 0; such
 * tests must not flush either.
 *
 * <p>Register it on a {@code static} field. The {@code memcached} binary is looked up on
 * {@code PATH}, then in /usr/bin and /usr/local/bin.
 */
public final class MemcachedExtension implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback {
  static final Duration READY_TIMEOUT = Duration.ofSeconds(10);
  private static final int DEFAULT_MEMORY_MB = 64;
  private static final Set<Process> LIVE = ConcurrentHashMap.newKeySet();

  static {
    Runtime.getRuntime().addShutdownHook(new Thread(
        () -> LIVE.forEach(Process::destroyForcibly), "memcached-extension-cleanup"));
  }

  private final int count;
  private final int memoryMb;
  private final List<Node> nodes = new ArrayList<>();
  private int depth;

  private MemcachedExtension(int count, int memoryMb) {
    if (count < 1 || memoryMb < 1) {
      throw new IllegalArgumentException("need at least one node and 1 MB, got " + count + " nodes, " + memoryMb + " MB");
    }
    this.count = count;
    this.memoryMb = memoryMb;
  }

  /** {@code count} memcached servers with 64 MB each. */
  /**
   * Op timeout for tests that check what the cache does, not how fast: generous, so a loaded
   * 2-core CI machine never turns a slow answer into a miss. Failure tests choose short ones.
   */
  public static final java.time.Duration TEST_OP_TIMEOUT = java.time.Duration.ofSeconds(2);

  public static MemcachedExtension nodes(int count) {
    return new MemcachedExtension(count, DEFAULT_MEMORY_MB);
  }

  /** The same nodes with {@code -m mb} each (small memory makes evictions easy to provoke). */
  public MemcachedExtension memoryMb(int mb) {
    return new MemcachedExtension(count, mb);
  }

  @Override
  public synchronized void beforeAll(ExtensionContext context) {
    // Nested test classes inherit the extension: only the outermost class starts the nodes.
    if (depth++ > 0) {
      return;
    }
    String binary = findBinary();
    try {
      for (int i = 0; i < count; i++) {
        nodes.add(Node.startOnFreePort(i, binary, memoryMb));
      }
    } catch (RuntimeException e) {
      stopAll();
      throw e;
    }
  }

  @Override
  public synchronized void afterAll(ExtensionContext context) {
    if (--depth == 0) {
      stopAll();
    }
  }

  /** Undoes a previous test's {@code stop()} or {@code pause()}; data is left alone. */
  @Override
  public void beforeEach(ExtensionContext context) {
    if (nodes.isEmpty()) {
      throw new IllegalStateException("MemcachedExtension must be registered on a static field");
    }
    nodes.forEach(Node::start);
  }

  /** {@code 127.0.0.1:p1,127.0.0.1:p2,...}, the format {@code MemcachedStore.Settings} takes. */
  public String servers() {
    StringJoiner servers = new StringJoiner(",");
    nodes.forEach(node -> servers.add(node.address()));
    return servers.toString();
  }

  /** Like {@link #servers()} with a Ketama weight per node: {@code 127.0.0.1:p1:1,...}. */
  public String weightedServers(int... weights) {
    if (weights.length != nodes.size()) {
      throw new IllegalArgumentException(nodes.size() + " nodes but " + weights.length + " weights");
    }
    StringJoiner servers = new StringJoiner(",");
    for (int i = 0; i < weights.length; i++) {
      servers.add(nodes.get(i).address() + ":" + weights[i]);
    }
    return servers.toString();
  }

  public int size() {
    return nodes.size();
  }

  public Node node(int i) {
    return nodes.get(i);
  }

  /** A raw text-protocol client for node {@code i}, to look at memcached behind the code's back. */
  public MemcachedText text(int i) {
    return nodes.get(i).text();
  }

  /**
   * Empties every node by restarting it on the same port (not {@code flush_all}, so
   * {@code cmd_flush} stays 0). Clients reconnect in the background, so a client built before
   * must be given time (poll) before its next call succeeds.
   */
  public void clear() {
    nodes.forEach(node -> {
      node.stop();
      node.start();
    });
  }

  /** A loopback port nothing listened on a moment ago (for "server never started" tests). */
  public static int freePort() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("no free port", e);
    }
  }

  private void stopAll() {
    nodes.forEach(Node::stop);
    nodes.forEach(Node::deleteLog);
    nodes.clear();
  }

  private static String findBinary() {
    List<String> dirs = new ArrayList<>();
    String path = System.getenv("PATH");
    if (path != null) {
      dirs.addAll(List.of(path.split(File.pathSeparator)));
    }
    dirs.addAll(List.of("/usr/bin", "/usr/local/bin"));
    for (String dir : dirs) {
      File candidate = new File(dir, "memcached");
      if (candidate.isFile() && candidate.canExecute()) {
        return candidate.getPath();
      }
    }
    throw new IllegalStateException("memcached not found on PATH, in /usr/bin or /usr/local/bin; "
        + "run the test script described in the README (it installs memcached), "
        + "or install it yourself: apt-get install memcached");
  }

  /**
   * One memcached process on a fixed loopback port. {@link #stop()} and {@link #start()} keep the
   * port, so clients configured with it reconnect to the restarted server as they would in
   * production. Every method waits until its effect is observable and is idempotent.
   */
  public static final class Node {
    private static final String HOST = "127.0.0.1";

    private final int index;
    private final String binary;
    private final int memoryMb;
    private final int port;
    private final Path log;
    private Process process;
    private boolean paused;

    private Node(int index, String binary, int memoryMb, int port, Path log) {
      this.index = index;
      this.binary = binary;
      this.memoryMb = memoryMb;
      this.port = port;
      this.log = log;
    }

    /** Free ports can be taken between asking and binding: try a few. */
    static Node startOnFreePort(int index, String binary, int memoryMb) {
      RuntimeException last = null;
      for (int attempt = 0; attempt < 3; attempt++) {
        Node node = new Node(index, binary, memoryMb, freePort(), newLog());
        try {
          node.start();
          return node;
        } catch (RuntimeException e) {
          node.stop();
          node.deleteLog();
          last = e;
        }
      }
      throw last;
    }

    public int port() {
      return port;
    }

    /** {@code 127.0.0.1:port}, as {@code Store.ServerStats.address()} reports it. */
    public String address() {
      return HOST + ":" + port;
    }

    public InetSocketAddress socketAddress() {
      return new InetSocketAddress(HOST, port);
    }

    public MemcachedText text() {
      return new MemcachedText(HOST, port);
    }

    public synchronized boolean isRunning() {
      return process != null && process.isAlive();
    }

    /** Starts memcached (again) on this node's port and returns once it answers {@code version}. */
    public synchronized void start() {
      if (isRunning()) {
        resume();
        return;
      }
      List<String> command = List.of(binary, "-l", HOST, "-p", Integer.toString(port), "-U", "0",
          "-m", Integer.toString(memoryMb), "-t", "1", "-c", "1024",
          // memcached refuses to run as root without -u; as any other user it ignores it.
          "-u", System.getProperty("user.name"));
      try {
        process = new ProcessBuilder(command).redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
      } catch (IOException e) {
        throw new UncheckedIOException("cannot run " + command, e);
      }
      LIVE.add(process);
      paused = false;
      Process started = process;
      boolean ready = Eventually.within(READY_TIMEOUT, () -> !started.isAlive() || answers());
      if (!ready || !started.isAlive()) {
        String why = started.isAlive() ? "did not answer within " + READY_TIMEOUT : "exited";
        stop();
        throw new IllegalStateException(this + " " + why + "; its output: " + logText());
      }
    }

    /** Kills memcached (its data is lost) and returns once the port refuses connections. */
    public synchronized void stop() {
      if (process == null) {
        return;
      }
      Process dying = process;
      if (paused) {
        // A stopped process keeps SIGTERM pending until SIGCONT: wake it so it can exit.
        signal("CONT");
        paused = false;
      }
      dying.destroy();
      try {
        if (!dying.waitFor(5, TimeUnit.SECONDS)) {
          dying.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        dying.destroyForcibly();
      }
      LIVE.remove(dying);
      process = null;
      if (!Eventually.within(Duration.ofSeconds(5), () -> !accepts())) {
        throw new IllegalStateException(this + " still accepts connections after its process ended");
      }
    }

    /**
     * Freezes memcached with SIGSTOP: connections stay open and the kernel still accepts new
     * ones, but nothing answers, like a hung server. Undo with {@link #resume()}.
     */
    public synchronized void pause() {
      if (!isRunning()) {
        throw new IllegalStateException(this + " is not running");
      }
      if (!paused) {
        signal("STOP");
        paused = true;
        Eventually.within(Duration.ofSeconds(2), this::stoppedByKernel);
      }
    }

    /** Sends SIGCONT and returns once memcached answers again. */
    public synchronized void resume() {
      if (paused) {
        signal("CONT");
        paused = false;
        if (!Eventually.within(READY_TIMEOUT, this::answers)) {
          throw new IllegalStateException(this + " did not answer after SIGCONT");
        }
      }
    }

    public synchronized long pid() {
      if (process == null) {
        throw new IllegalStateException(this + " is not running");
      }
      return process.pid();
    }

    @Override
    public String toString() {
      return "memcached node " + index + " (" + address() + ")";
    }

    private boolean answers() {
      try {
        text().version();
        return true;
      } catch (UncheckedIOException e) {
        return false;
      }
    }

    private boolean accepts() {
      try (Socket socket = new Socket()) {
        socket.connect(socketAddress(), 200);
        return true;
      } catch (IOException e) {
        return false;
      }
    }

    /** Linux shows a SIGSTOPped process as state T in /proc; elsewhere trust the signal. */
    private boolean stoppedByKernel() {
      Path stat = Path.of("/proc", Long.toString(process.pid()), "stat");
      try {
        String text = Files.readString(stat);
        return text.substring(text.lastIndexOf(')') + 2).startsWith("T");
      } catch (IOException | RuntimeException e) {
        return true;
      }
    }

    private void signal(String name) {
      List<String> command = List.of("kill", "-" + name, Long.toString(process.pid()));
      try {
        Process kill = new ProcessBuilder(command).redirectErrorStream(true).start();
        if (!kill.waitFor(5, TimeUnit.SECONDS) || kill.exitValue() != 0) {
          throw new IllegalStateException(String.join(" ", command) + " failed: "
              + new String(kill.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
        }
      } catch (IOException e) {
        throw new UncheckedIOException("cannot run " + command, e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while running " + command, e);
      }
    }

    private String logText() {
      try {
        return Files.readString(log, StandardCharsets.UTF_8).strip();
      } catch (IOException e) {
        return "(no output: " + e.getMessage() + ")";
      }
    }

    private static Path newLog() {
      try {
        Path log = Files.createTempFile("memcached-", ".log");
        log.toFile().deleteOnExit();
        return log;
      } catch (IOException e) {
        throw new UncheckedIOException("cannot create a log file for memcached", e);
      }
    }

    private void deleteLog() {
      try {
        Files.deleteIfExists(log);
      } catch (IOException e) {
        // A stray file in the temp directory; deleteOnExit tries again.
      }
    }
  }
}
