package org.pagecache.testing.containers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.pagecache.testing.MemcachedExtension;

/**
 * A standalone Tomcat (9, 10.1 or 11) from its distribution, set up the way an operator would: a
 * CATALINA_BASE of its own with the distribution's conf (the HTTP connector moved to a free loopback
 * port, the shutdown port off), WARs copied to webapps/ (webapps/ROOT.war is the root context), and
 * {@code java ... Bootstrap start}, what catalina.sh runs, without the shell script.
 */
public final class TomcatBase {
  private final Path catalinaHome;
  private final Path base;
  private final int port = MemcachedExtension.freePort();

  /** A new base under {@code workDir} on the distribution at {@code catalinaHome}, its conf copied and its port changed. */
  public TomcatBase(Path catalinaHome, Path workDir) {
    this.catalinaHome = catalinaHome;
    this.base = workDir.resolve("catalina-base");
    try {
      for (String dir : List.of("conf", "logs", "temp", "webapps", "work")) {
        Files.createDirectories(base.resolve(dir));
      }
      try (Stream<Path> conf = Files.list(catalinaHome.resolve("conf"))) {
        for (Path file : conf.filter(Files::isRegularFile).toList()) {
          RunningContainer.copy(file, base.resolve("conf").resolve(file.getFileName()));
        }
      }
      Path serverXml = base.resolve("conf/server.xml");
      String server = Files.readString(serverXml);
      String configured = server
          .replace("<Server port=\"8005\"", "<Server port=\"-1\"")
          .replace("<Connector port=\"8080\"", "<Connector port=\"" + port + "\" address=\"127.0.0.1\"");
      if (configured.equals(server) || !configured.contains("port=\"" + port + "\"")) {
        throw new IllegalStateException("conf/server.xml of " + catalinaHome + " has no shutdown port 8005 or HTTP connector on 8080 to change");
      }
      Files.writeString(serverXml, configured);
    } catch (IOException e) {
      throw new UncheckedIOException("catalina base " + base, e);
    }
  }

  /** The base's own directory: its conf/ may be changed before {@link #start}. */
  public Path base() {
    return base;
  }

  /** Copies {@code war} to webapps/{@code name}.war ({@code ROOT} for the root context). */
  public TomcatBase war(String name, Path war) {
    RunningContainer.copy(war, base.resolve("webapps").resolve(name + ".war"));
    return this;
  }

  /** Starts Tomcat with {@code env} and returns once {@code readyPath} answers 200. */
  public RunningContainer start(Map<String, String> env, String readyPath, Duration readyWithin) {
    List<String> command = new ArrayList<>(List.of(ContainerProcess.java(),
        // What catalina.sh adds on Java 17, so Tomcat's leak prevention works without warnings.
        "--add-opens=java.base/java.lang=ALL-UNNAMED",
        "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
        "--add-opens=java.base/java.io=ALL-UNNAMED",
        "--add-opens=java.base/java.util=ALL-UNNAMED",
        "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
        "--add-opens=java.rmi/sun.rmi.transport=ALL-UNNAMED",
        "-Dcatalina.home=" + catalinaHome,
        "-Dcatalina.base=" + base,
        "-Djava.io.tmpdir=" + base.resolve("temp"),
        "-Djava.util.logging.config.file=" + base.resolve("conf/logging.properties"),
        "-Djava.util.logging.manager=org.apache.juli.ClassLoaderLogManager",
        "-cp", catalinaHome.resolve("bin/bootstrap.jar") + java.io.File.pathSeparator + catalinaHome.resolve("bin/tomcat-juli.jar"),
        "org.apache.catalina.startup.Bootstrap", "start"));
    return RunningContainer.start("tomcat", command, env, base, base.getParent().resolve("tomcat.log"), port,
        readyPath, readyWithin);
  }
}
