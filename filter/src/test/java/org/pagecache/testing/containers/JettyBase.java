package org.pagecache.testing.containers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.pagecache.testing.MemcachedExtension;

/**
 * A standalone Jetty 12 or 10 from its distribution (jetty-home), set up the way an operator would: a
 * fresh Jetty base with the modules named (e.g. {@code http,ee10-deploy}, plus {@code ee10-jsp} for
 * JSPs; Jetty 10's have no ee10- prefix: {@code http,deploy,jsp}), WARs copied to webapps/
 * (webapps/ROOT.war is the root context), started with start.jar on a free loopback port.
 */
public final class JettyBase {
  private final Path jettyHome;
  private final Path base;
  private final Path workDir;

  /**
   * A new base at {@code base} with {@code modules} added ({@code --add-modules}); its modules/ and
   * etc/ may be written before, by the caller, for modules of its own.
   */
  public JettyBase(Path jettyHome, Path base, Path workDir, String modules) {
    this.jettyHome = jettyHome;
    this.base = base;
    this.workDir = workDir;
    try {
      Files.createDirectories(base.resolve("webapps"));
      Files.createDirectories(base.resolve("work")); // Jetty unpacks the WAR here instead of in /tmp
    } catch (IOException e) {
      throw new UncheckedIOException("jetty base " + base, e);
    }
    ContainerProcess.run("jetty --add-modules", List.of(ContainerProcess.java(), "-jar", startJar(),
        "jetty.home=" + jettyHome, "jetty.base=" + base, "--add-modules=" + modules),
        base, workDir.resolve("jetty-add-modules.log"), Duration.ofSeconds(60));
  }

  /** Copies {@code war} to webapps/{@code name}.war ({@code ROOT} for the root context). */
  public JettyBase war(String name, Path war) {
    RunningContainer.copy(war, base.resolve("webapps").resolve(name + ".war"));
    return this;
  }

  /** Starts Jetty with {@code env} and returns once {@code readyPath} answers 200. */
  public RunningContainer start(Map<String, String> env, String readyPath, Duration readyWithin) {
    int port = MemcachedExtension.freePort();
    return RunningContainer.start("jetty", List.of(ContainerProcess.java(), "-jar", startJar(),
        "jetty.home=" + jettyHome, "jetty.base=" + base, "jetty.http.host=127.0.0.1", "jetty.http.port=" + port),
        env, base, workDir.resolve("jetty.log"), port, readyPath, readyWithin);
  }

  private String startJar() {
    return jettyHome.resolve("start.jar").toString();
  }
}
