package org.pagecache.classic;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.pagecache.testing.containers.Deployment;
import org.pagecache.testing.containers.JettyBase;
import org.pagecache.testing.containers.TomcatBase;

/** The stock containers the classic WARs are deployed on, from the distributions Maven unpacked. */
final class Containers {
  private Containers() {}

  static Deployment tomcat(String homeProperty, Map<String, Path> wars, Path workDir, Map<String, String> env,
      String readyPath) {
    TomcatBase tomcat = new TomcatBase(distribution(homeProperty), workDir);
    wars.forEach(tomcat::war);
    return tomcat.start(env, readyPath, ClassicWarContract.READY_WITHIN);
  }

  static Deployment jetty(Map<String, Path> wars, Path workDir, Map<String, String> env, String readyPath) {
    return jetty("jetty.home", "http,ee10-deploy,ee10-jsp", wars, workDir, env, readyPath);
  }

  /**
   * A stock Jetty base with {@code modules}, from the distribution {@code homeProperty} names: Jetty 12's
   * are {@code http,ee10-deploy,ee10-jsp}; Jetty 10's, one servlet API only, {@code http,deploy,jsp}.
   */
  static Deployment jetty(String homeProperty, String modules, Map<String, Path> wars, Path workDir,
      Map<String, String> env, String readyPath) {
    JettyBase jetty = new JettyBase(distribution(homeProperty), workDir.resolve("jetty-base"), workDir, modules);
    wars.forEach(jetty::war);
    return jetty.start(env, readyPath, ClassicWarContract.READY_WITHIN);
  }

  private static Path distribution(String property) {
    String dir = System.getProperty(property);
    assertTrue(dir != null && Files.isDirectory(Path.of(dir)), property + " names an unpacked distribution: " + dir);
    return Path.of(dir);
  }
}
