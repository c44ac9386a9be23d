package org.pagecache.testing.containers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** A standalone container serving WARs on a loopback port: {@link TomcatBase}, {@link JettyBase}. */
public final class RunningContainer implements Deployment {
  private final ContainerProcess process;
  private final int port;

  private RunningContainer(ContainerProcess process, int port) {
    this.process = process;
    this.port = port;
  }

  /**
   * Starts {@code command}, which makes a container listen on {@code port}, and returns once
   * {@code readyPath} answers 200 there; a container that does not is stopped before the exception propagates.
   */
  public static RunningContainer start(String name, List<String> command, Map<String, String> env, Path dir, Path log,
      int port, String readyPath, Duration readyWithin) {
    RunningContainer container = new RunningContainer(ContainerProcess.start(name, command, env, dir, log), port);
    try {
      container.process.awaitReady(container.uri(readyPath), readyWithin);
    } catch (RuntimeException e) {
      container.close();
      throw e;
    }
    return container;
  }

  /** Copies a file of the set-up (the WAR, a distribution's config), replacing what is there. */
  public static void copy(Path from, Path to) {
    try {
      Files.copy(from, to, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      throw new UncheckedIOException("copy " + from + " to " + to, e);
    }
  }

  @Override
  public URI uri(String pathAndQuery) {
    return URI.create("http://127.0.0.1:" + port + pathAndQuery);
  }

  @Override
  public void close() {
    process.close();
  }

  @Override
  public String toString() {
    return "standalone " + process;
  }
}
