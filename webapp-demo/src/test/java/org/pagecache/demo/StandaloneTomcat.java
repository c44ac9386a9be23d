package org.pagecache.demo;

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
 * The demo WAR on a standalone Tomcat 11, set up the way docs/deploy.md tells an operator to:
 * a CATALINA_BASE of its own (the distribution's conf, the HTTP connector on a free loopback port,
 * the shutdown port off), the editor in conf/tomcat-users.xml, the WAR as webapps/ROOT.war.
 * Started with {@code java ... Bootstrap start}, what catalina.sh runs, without the shell script.
 * {@link #deployStock} keeps the distribution's tomcat-users.xml, which has no users.
 */
final class StandaloneTomcat {
  private StandaloneTomcat() {}

  static Deployment deploy(Path catalinaHome, Path war, Path workDir, Map<String, String> env, Duration readyWithin) {
    return deploy(catalinaHome, war, workDir, env, readyWithin, true);
  }

  /** The WAR on the distribution's configuration: only the port changed, no user added to the realm. */
  static Deployment deployStock(Path catalinaHome, Path war, Path workDir, Map<String, String> env, Duration readyWithin) {
    return deploy(catalinaHome, war, workDir, env, readyWithin, false);
  }

  private static Deployment deploy(Path catalinaHome, Path war, Path workDir, Map<String, String> env,
      Duration readyWithin, boolean editorUser) {
    Path base = workDir.resolve("catalina-base");
    int port = MemcachedExtension.freePort();
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
      if (editorUser) {
        Files.writeString(base.resolve("conf/tomcat-users.xml"), USERS);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("catalina base " + base, e);
    }
    RunningContainer.copy(war, base.resolve("webapps/ROOT.war"));

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
    return RunningContainer.start("tomcat", command, env, base, workDir.resolve("tomcat.log"), port, readyWithin);
  }

  /** The same file docs/deploy.md shows. */
  static final String USERS = """
      <?xml version="1.0" encoding="UTF-8"?>
      <tomcat-users xmlns="http://tomcat.apache.org/xml"
                    xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
                    xsi:schemaLocation="http://tomcat.apache.org/xml tomcat-users.xsd"
                    version="1.0">
        <role rolename="pagecache-admin"/>
        <user username="editor" password="editor" roles="pagecache-admin"/>
      </tomcat-users>
      """;
}
