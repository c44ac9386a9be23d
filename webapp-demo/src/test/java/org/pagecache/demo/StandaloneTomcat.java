package org.pagecache.demo;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.pagecache.testing.containers.Deployment;
import org.pagecache.testing.containers.TomcatBase;

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
    TomcatBase tomcat = new TomcatBase(catalinaHome, workDir);
    if (editorUser) {
      try {
        Files.writeString(tomcat.base().resolve("conf/tomcat-users.xml"), USERS);
      } catch (IOException e) {
        throw new UncheckedIOException("tomcat-users.xml in " + tomcat.base(), e);
      }
    }
    return tomcat.war("ROOT", war).start(env, DeployedDemoContract.READY_PATH, readyWithin);
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
