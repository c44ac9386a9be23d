package org.pagecache.demo;

import java.net.URI;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import org.eclipse.jetty.server.NetworkConnector;
import org.eclipse.jetty.server.Server;
import org.pagecache.testing.containers.Deployment;

/**
 * The demo WAR in the embedded Jetty of {@link DemoServer}, what scripts/demo.sh runs. In one JVM
 * there is no environment to set, so the same settings go in as the system properties the WAR
 * also reads (pagecache.memcached.servers, pagecache.admin.token, demo.delay.ms).
 */
class DemoServerIT extends DeployedDemoContract {
  /** {@code PAGECACHE_ADMIN_TOKEN} → {@code pagecache.admin.token}, the name the WAR also reads. */
  static String property(String envName) {
    return envName.toLowerCase(Locale.ROOT).replace('_', '.');
  }

  @Override
  Deployment deploy(Path war, Path workDir, Map<String, String> env) {
    env.forEach((name, value) -> System.setProperty(property(name), value));
    Server server;
    try {
      server = DemoServer.start(DemoServer.DEFAULT_HOST, 0, war);
    } catch (Exception e) {
      env.keySet().forEach(name -> System.clearProperty(property(name)));
      throw new IllegalStateException("DemoServer did not start: " + e, e);
    }
    int port = ((NetworkConnector) server.getConnectors()[0]).getLocalPort();
    return new Deployment() {
      @Override
      public URI uri(String pathAndQuery) {
        return URI.create("http://127.0.0.1:" + port + pathAndQuery);
      }

      @Override
      public void close() {
        try {
          server.stop();
        } catch (Exception e) {
          throw new IllegalStateException(e);
        } finally {
          env.keySet().forEach(name -> System.clearProperty(property(name)));
        }
      }

      @Override
      public String toString() {
        return "embedded Jetty on port " + port;
      }
    };
  }
}
