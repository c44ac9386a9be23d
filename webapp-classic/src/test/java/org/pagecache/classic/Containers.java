package org.pagecache.classic;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.Map;
import org.pagecache.testing.containers.Deployment;
import org.pagecache.testing.containers.JettyBase;
import org.pagecache.testing.containers.PayaraMicroBase;
import org.pagecache.testing.containers.TomcatBase;
import org.pagecache.testing.containers.UndertowBase;

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

  /** Undertow 2.3 as WildFly runs it: each WAR's web.xml read into a deployment, JSPs by Jasper (see UndertowLauncher). */
  static Deployment undertow(Map<String, Path> wars, Path workDir, Map<String, String> env, String readyPath) {
    UndertowBase undertow = new UndertowBase(workDir).jsp();
    wars.forEach(undertow::war);
    return undertow.start(env, readyPath, ClassicWarContract.READY_WITHIN);
  }

  /** Payara Micro's start-up took 90 s on a loaded 2-core machine: three Spring WARs, each with Faces and CDI. */
  static final Duration PAYARA_READY_WITHIN = Duration.ofSeconds(240);

  /**
   * Payara Micro 6 with the three WARs in one instance (the WAR answering {@code readyPath} deployed
   * last), configured as a Spring WAR needs on Payara 6. spring-web carries a Faces class
   * ({@code DelegatingPhaseListenerMulticaster}), so Payara's Mojarra initialises Faces for every
   * Spring WAR and fails its start ("CDI is not available") unless Payara may start CDI for it
   * ({@code fish.payara.faces.integration.allowFacesCdiInitialisation}, Payara's switch for exactly
   * this); implicit CDI off, as Payara advises for Spring applications, so Weld does not scan Spring's jars.
   * A stock Payara answers 400 to a GET with a body before any filter runs (its HTTP setting
   * allow-payload-for-undefined-http-methods is false); it is turned on so that issue 35's GET-with-a-body
   * attack reaches PageCache here too.
   */
  static Deployment payara(Map<String, Path> wars, Path workDir, Map<String, String> env, String readyPath) {
    PayaraMicroBase payara = new PayaraMicroBase(Path.of(property("payara.micro.jar")), workDir)
        .systemProperty("fish.payara.faces.integration.allowFacesCdiInitialisation", "true")
        .prebootCommand("set configs.config.server-config.cdi-service.enable-implicit-cdi=false")
        .prebootCommand("set configs.config.server-config.network-config.protocols.protocol.http-listener.http"
            + ".allow-payload-for-undefined-http-methods=true");
    String last = readyPath.split("/")[1];
    wars.entrySet().stream().sorted(Comparator.comparing((Map.Entry<String, Path> war) -> war.getKey().equals(last))
        .thenComparing(Map.Entry::getKey)).forEach(war -> payara.war(war.getKey(), war.getValue()));
    return payara.start(env, readyPath, PAYARA_READY_WITHIN);
  }

  private static String property(String name) {
    String value = System.getProperty(name);
    assertTrue(value != null, name + " is set by the failsafe configuration (run with mvn verify)");
    return value;
  }

  private static Path distribution(String property) {
    String dir = System.getProperty(property);
    assertTrue(dir != null && Files.isDirectory(Path.of(dir)), property + " names an unpacked distribution: " + dir);
    return Path.of(dir);
  }
}
