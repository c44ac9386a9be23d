package org.pagecache.demo;

import java.nio.file.Files;
import java.nio.file.Path;
import org.eclipse.jetty.ee10.webapp.WebAppContext;
import org.eclipse.jetty.server.Server;

/**
 * Runs the demo WAR in an embedded Jetty 12, as the README's run command does:
 * {@code java ... org.pagecache.demo.DemoServer [port] [war]}. Configuration comes from the
 * environment (PAGECACHE_MEMCACHED_SERVERS, PAGECACHE_ADMIN_TOKEN, ...), as on a real container.
 */
public final class DemoServer {
  private DemoServer() {}

  public static void main(String[] args) throws Exception {
    int port = args.length > 0 ? Integer.parseInt(args[0]) : 8080;
    Path war = Path.of(args.length > 1 ? args[1] : "webapp-demo/target/pagecache-demo.war");
    if (!Files.exists(war)) {
      throw new IllegalStateException("no WAR at " + war.toAbsolutePath() + ": build it with mvn -B package first");
    }
    Server server = new Server(port);
    WebAppContext webapp = new WebAppContext();
    webapp.setContextPath("/");
    webapp.setWar(war.toAbsolutePath().toString());
    server.setHandler(webapp);
    server.start();
    System.out.println("PageCache demo running: http://localhost:" + port + "/");
    server.join();
  }
}
