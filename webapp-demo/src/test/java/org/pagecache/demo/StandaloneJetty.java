package org.pagecache.demo;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.pagecache.testing.containers.Deployment;
import org.pagecache.testing.containers.JettyBase;

/**
 * The demo WAR on a standalone Jetty 12 (the jetty-home distribution), set up the way
 * docs/deploy.md tells an operator to: a fresh Jetty base with the http and ee10-deploy modules,
 * a small module of our own for the login realm, and the WAR copied to webapps/ROOT.war.
 * {@link #deployStock} leaves the realm out: a stock base, nothing but http and ee10-deploy.
 */
final class StandaloneJetty {
  private StandaloneJetty() {}

  /** Creates a base under {@code workDir}, deploys {@code war} and starts Jetty with {@code env}. */
  static Deployment deploy(Path jettyHome, Path war, Path workDir, Map<String, String> env, Duration readyWithin) {
    Path base = workDir.resolve("jetty-base");
    try {
      Files.createDirectories(base.resolve("modules"));
      Files.createDirectories(base.resolve("etc"));
      Files.writeString(base.resolve("modules/pagecache-realm.mod"), REALM_MODULE);
      Files.writeString(base.resolve("etc/pagecache-realm.xml"), REALM_XML);
      Files.writeString(base.resolve("etc/pagecache-realm.properties"), "editor: editor,pagecache-admin\n");
    } catch (IOException e) {
      throw new UncheckedIOException("jetty base " + base, e);
    }
    return deploy(jettyHome, base, "http,ee10-deploy,pagecache-realm", war, workDir, env, readyWithin);
  }

  /**
   * The WAR on a stock Jetty base: {@code --add-modules=http,ee10-deploy} and nothing else, so the
   * server has no login service at all.
   */
  static Deployment deployStock(Path jettyHome, Path war, Path workDir, Map<String, String> env, Duration readyWithin) {
    return deploy(jettyHome, workDir.resolve("jetty-base"), "http,ee10-deploy", war, workDir, env, readyWithin);
  }

  private static Deployment deploy(Path jettyHome, Path base, String modules, Path war, Path workDir,
      Map<String, String> env, Duration readyWithin) {
    return new JettyBase(jettyHome, base, workDir, modules).war("ROOT", war)
        .start(env, DeployedDemoContract.READY_PATH, readyWithin);
  }

  /** The same files docs/deploy.md shows. */
  static final String REALM_MODULE = """
      [description]
      The PageCache demo's login realm: users of etc/pagecache-realm.properties.

      [depend]
      ee10-security

      [xml]
      etc/pagecache-realm.xml
      """;

  static final String REALM_XML = """
      <?xml version="1.0"?>
      <!DOCTYPE Configure PUBLIC "-//Jetty//Configure//EN" "https://jetty.org/configure_10_0.dtd">
      <Configure id="Server" class="org.eclipse.jetty.server.Server">
        <Call id="pagecacheRealmFactory" class="org.eclipse.jetty.util.resource.ResourceFactory" name="of">
          <Arg><Ref refid="Server"/></Arg>
          <Call id="pagecacheRealmFile" name="newResource">
            <Arg><Property name="jetty.base"/>/etc/pagecache-realm.properties</Arg>
          </Call>
        </Call>
        <Call name="addBean">
          <Arg>
            <New class="org.eclipse.jetty.security.HashLoginService">
              <!-- must equal the realm-name of the WAR's login-config -->
              <Set name="name">PageCache demo</Set>
              <Set name="config"><Ref refid="pagecacheRealmFile"/></Set>
            </New>
          </Arg>
        </Call>
      </Configure>
      """;
}
