package org.pagecache.testing.containers;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.pagecache.testing.Eventually;
import org.pagecache.testing.MemcachedExtension;

/**
 * Payara Micro 6 (GlassFish's line) from its one jar, started the way its documentation shows:
 * {@code java -jar payara-micro.jar --deploy app.war --port N}, one instance for all the WARs a test
 * class needs, since its start-up is the slowest of the containers. WARs are copied as
 * {@code NAME.war}, which Payara Micro serves at {@code /NAME} ({@code ROOT.war} at {@code /}).
 * Clustering (Hazelcast) and the phone-home are off: a single instance on a machine without the
 * internet. Its configuration lives in a root directory of its own under the work directory.
 *
 * <p>Ready means: the ready path answers 200 and Payara Micro has logged that it is ready (every
 * WAR loaded; a context it has not loaded yet answers 404, which a test would misread).
 */
public final class PayaraMicroBase {
  private final Path jar;
  private final Path workDir;
  private final Path webapps;
  private final List<Path> wars = new ArrayList<>();
  private final List<String> jvmOptions = new ArrayList<>();
  private final List<String> prebootCommands = new ArrayList<>();

  /** A new instance directory under {@code workDir} for the payara-micro jar at {@code jar}. */
  public PayaraMicroBase(Path jar, Path workDir) {
    if (!Files.isRegularFile(jar)) {
      throw new IllegalStateException("no payara-micro jar at " + jar
          + ": run the deployment tests with mvn verify, which copies it in pre-integration-test");
    }
    this.jar = jar;
    this.workDir = workDir;
    this.webapps = workDir.resolve("payara-webapps");
    try {
      Files.createDirectories(webapps);
    } catch (IOException e) {
      throw new UncheckedIOException(webapps.toString(), e);
    }
  }

  /** Copies {@code war} to NAME.war, served at {@code /name} ({@code ROOT} for the root context). */
  public PayaraMicroBase war(String name, Path war) {
    Path target = webapps.resolve(name + ".war");
    RunningContainer.copy(war, target);
    wars.add(target);
    return this;
  }

  /** A system property for the server's JVM ({@code -Dname=value}). */
  public PayaraMicroBase systemProperty(String name, String value) {
    jvmOptions.add("-D" + name + "=" + value);
    return this;
  }

  /** An asadmin command run before the server boots ({@code --prebootcommandfile}). */
  public PayaraMicroBase prebootCommand(String command) {
    prebootCommands.add(command);
    return this;
  }

  /** Starts Payara Micro with {@code env} and returns once every WAR is loaded and {@code readyPath} answers 200. */
  public RunningContainer start(Map<String, String> env, String readyPath, Duration readyWithin) {
    int port = MemcachedExtension.freePort();
    Path log = workDir.resolve("payara-micro.log");
    List<String> command = new ArrayList<>(List.of(ContainerProcess.java(),
        // Start-up over peak speed on two shared cores: the client compiler only, one GC thread.
        "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
        "-Djava.io.tmpdir=" + mkdirs(workDir.resolve("payara-tmp"))));
    command.addAll(jvmOptions);
    command.addAll(List.of("-jar", jar.toString(),
        "--nocluster", "--nohazelcast", "--disablephonehome",
        "--port", Integer.toString(port),
        "--rootdir", mkdirs(workDir.resolve("payara-root")).toString()));
    if (!prebootCommands.isEmpty()) {
      Path file = workDir.resolve("payara-preboot.txt");
      try {
        Files.write(file, prebootCommands, StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new UncheckedIOException(file.toString(), e);
      }
      command.addAll(List.of("--prebootcommandfile", file.toString()));
    }
    for (Path war : wars) {
      command.addAll(List.of("--deploy", war.toString()));
    }
    long start = System.nanoTime();
    RunningContainer payara = RunningContainer.start("payara-micro", command, env, workDir, log, port, readyPath,
        readyWithin);
    Duration left = readyWithin.minusNanos(System.nanoTime() - start);
    LogWatch watch = new LogWatch(log);
    if (!Eventually.within(left.isNegative() ? Duration.ZERO : left, () -> watch.saw(") ready in "))) {
      payara.close();
      throw new IllegalStateException("payara-micro answered " + readyPath + " but never logged that it was ready "
          + "within " + readyWithin + "; see " + log);
    }
    return payara;
  }

  /**
   * Reads a growing log from where it left off, for Payara Micro's last start-up line ("Payara
   * Micro 6.x (build n) ready in N (ms)"); a line cut at the end of a read is read again whole.
   */
  private static final class LogWatch {
    private final Path log;
    private long offset;

    LogWatch(Path log) {
      this.log = log;
    }

    boolean saw(String text) {
      try (RandomAccessFile file = new RandomAccessFile(log.toFile(), "r")) {
        long length = file.length();
        if (length <= offset) {
          return false;
        }
        byte[] bytes = new byte[(int) (length - offset)];
        file.seek(offset);
        file.readFully(bytes);
        String read = new String(bytes, StandardCharsets.ISO_8859_1);
        int lastLine = read.lastIndexOf('\n');
        if (lastLine >= 0) {
          offset += lastLine + 1;
        }
        return read.contains(text);
      } catch (IOException e) {
        return false;
      }
    }
  }

  private static Path mkdirs(Path dir) {
    try {
      return Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException(dir.toString(), e);
    }
  }
}
