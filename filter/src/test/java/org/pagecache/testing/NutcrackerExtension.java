package org.pagecache.testing;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A real twemproxy ({@code nutcracker}, Debian's package) in front of real memcached servers, for
 * tests of PageCache behind a memcached proxy. Starts the memcached nodes (a
 * {@link MemcachedExtension} of its own), writes a nutcracker configuration to a temporary
 * directory and starts nutcracker on a free loopback port; stops both after all tests.
 *
 * <pre>{@code
 * @RegisterExtension static NutcrackerExtension proxy = NutcrackerExtension.inFrontOf(3);
 *
 * site = ... .set("memcached.servers", proxy.server()) ...
 * proxy.memcached().node(1).stop();   // a node behind the proxy dies
 * }</pre>
 *
 * <p>The proxy ejects a node after {@value #FAILURE_LIMIT} failure ({@code auto_eject_hosts}), so
 * its keys are placed on the others, and tries it again only after {@link #RETRY_TIMEOUT_MILLIS}
 * ms: long enough that a test that killed a node sees it stay out. Its own timeout towards a node,
 * {@value #TIMEOUT_MILLIS} ms, is below the op timeout tests give PageCache, as docs/failures.md
 * asks of a production proxy.
 */
public final class NutcrackerExtension implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback {
  static final int FAILURE_LIMIT = 1;
  static final int RETRY_TIMEOUT_MILLIS = 30_000;
  static final int TIMEOUT_MILLIS = 1000;
  private static final String HOST = "127.0.0.1";
  private static final Set<Process> LIVE = ConcurrentHashMap.newKeySet();

  static {
    Runtime.getRuntime().addShutdownHook(new Thread(
        () -> LIVE.forEach(Process::destroyForcibly), "nutcracker-extension-cleanup"));
  }

  private final MemcachedExtension memcached;
  private final boolean ejecting;
  private Path dir;
  private Process process;
  private int port;

  private NutcrackerExtension(MemcachedExtension memcached, boolean ejecting) {
    this.memcached = memcached;
    this.ejecting = ejecting;
  }

  /** nutcracker in front of {@code nodes} memcached servers of 64 MB. */
  public static NutcrackerExtension inFrontOf(int nodes) {
    return new NutcrackerExtension(MemcachedExtension.nodes(nodes), true);
  }

  /**
   * The same proxy with {@code auto_eject_hosts: false}: a node that is down stays in its ring, so
   * every command for one of its keys is answered "SERVER_ERROR" by the proxy.
   */
  public NutcrackerExtension withoutEjecting() {
    return new NutcrackerExtension(memcached, false);
  }

  /** The memcached servers behind the proxy (stop, pause, look at them behind its back). */
  public MemcachedExtension memcached() {
    return memcached;
  }

  /** The proxy's {@code 127.0.0.1:port}, what {@code memcached.servers} names. */
  public String server() {
    return HOST + ":" + port;
  }

  /** A raw text-protocol client of the proxy. */
  public MemcachedText text() {
    return new MemcachedText(HOST, port);
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    memcached.beforeAll(context);
    try {
      dir = Files.createTempDirectory("nutcracker-");
      start(findBinary());
    } catch (IOException e) {
      stop();
      throw new UncheckedIOException("cannot start nutcracker", e);
    } catch (RuntimeException e) {
      stop();
      throw e;
    }
  }

  /** Every memcached node running again; the proxy keeps its view (an ejected node stays out until its retry). */
  @Override
  public void beforeEach(ExtensionContext context) {
    memcached.beforeEach(context);
  }

  @Override
  public void afterAll(ExtensionContext context) {
    stop();
    memcached.afterAll(context);
  }

  private void start(String binary) throws IOException {
    RuntimeException last = null;
    for (int attempt = 0; attempt < 3; attempt++) { // a free port can be taken between asking and binding
      port = MemcachedExtension.freePort();
      Path config = dir.resolve("nutcracker.yml");
      Files.writeString(config, config(port), StandardCharsets.UTF_8);
      Path log = dir.resolve("nutcracker.log");
      List<String> command = List.of(binary, "-c", config.toString(), "-o", log.toString(),
          "-a", HOST, "-s", Integer.toString(MemcachedExtension.freePort()), "-p", dir.resolve("pid").toString());
      process = new ProcessBuilder(command).redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("out.log").toFile())).start();
      LIVE.add(process);
      Process started = process;
      if (Eventually.within(MemcachedExtension.READY_TIMEOUT, () -> !started.isAlive() || answers())
          && started.isAlive()) {
        return;
      }
      last = new IllegalStateException("nutcracker on port " + port + " did not answer; its log: " + read(log)
          + " " + read(dir.resolve("out.log")));
      stopProcess();
    }
    throw last;
  }

  private String config(int listen) {
    StringBuilder c = new StringBuilder();
    c.append("pagecache:\n")
        .append("  listen: ").append(HOST).append(':').append(listen).append('\n')
        .append("  hash: fnv1a_64\n")
        .append("  distribution: ketama\n")
        .append("  timeout: ").append(TIMEOUT_MILLIS).append('\n')
        .append("  auto_eject_hosts: ").append(ejecting).append('\n')
        .append("  server_failure_limit: ").append(FAILURE_LIMIT).append('\n')
        .append("  server_retry_timeout: ").append(RETRY_TIMEOUT_MILLIS).append('\n')
        .append("  servers:\n");
    for (int i = 0; i < memcached.size(); i++) {
      c.append("   - ").append(memcached.node(i).address()).append(":1 node").append(i).append('\n');
    }
    return c.toString();
  }

  /** The proxy answers a data command (it refuses stats and flush_all by design). */
  private boolean answers() {
    try {
      text().getBytes("nutcracker-extension-ready");
      return true;
    } catch (UncheckedIOException | IllegalStateException e) {
      return false;
    }
  }

  private void stop() {
    stopProcess();
    if (dir != null) {
      try (var files = Files.list(dir)) {
        for (Path p : files.toList()) {
          Files.deleteIfExists(p);
        }
        Files.deleteIfExists(dir);
      } catch (IOException e) {
        // a stray temp directory
      }
    }
  }

  private void stopProcess() {
    Process p = process;
    process = null;
    if (p == null) {
      return;
    }
    p.destroy();
    LIVE.remove(p);
    try {
      if (!p.waitFor(5, TimeUnit.SECONDS)) {
        p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      p.destroyForcibly();
    }
  }

  private static String read(Path file) {
    try {
      return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8).strip() : "(none)";
    } catch (IOException e) {
      return "(unreadable: " + e.getMessage() + ")";
    }
  }

  private static String findBinary() {
    List<String> dirs = new ArrayList<>();
    String path = System.getenv("PATH");
    if (path != null) {
      dirs.addAll(List.of(path.split(File.pathSeparator)));
    }
    dirs.addAll(List.of("/usr/sbin", "/usr/bin", "/usr/local/sbin", "/usr/local/bin"));
    for (String d : dirs) {
      File candidate = new File(d, "nutcracker");
      if (candidate.isFile() && candidate.canExecute()) {
        return candidate.getPath();
      }
    }
    throw new IllegalStateException("nutcracker (twemproxy) not found on PATH or in /usr/sbin, /usr/bin,"
        + " /usr/local/sbin, /usr/local/bin; run scripts/test.sh (it installs it), or: apt-get install nutcracker");
  }
}
