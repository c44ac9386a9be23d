package org.pagecache.demo;

import java.nio.file.Files;
import java.nio.file.Path;
import org.eclipse.jetty.ee10.webapp.WebAppContext;
import org.eclipse.jetty.security.HashLoginService;
import org.eclipse.jetty.security.UserStore;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.security.Password;

/**
 * Runs the demo WAR in an embedded Jetty 12, as scripts/demo.sh does:
 * {@code java ... org.pagecache.demo.DemoServer [port] [war]}. Configuration comes from the
 * environment (PAGECACHE_MEMCACHED_SERVERS, PAGECACHE_ADMIN_TOKEN, DEMO_DELAY_MS...), as on a real
 * container. The editor signs in as {@code editor}/{@code editor} (role {@code pagecache-admin}).
 */
public final class DemoServer {
  /** The realm-name of the WAR's login-config; a container's login service must carry it. */
  static final String REALM = "PageCache demo";

  private DemoServer() {}

  public static void main(String[] args) throws Exception {
    int port = args.length > 0 ? Integer.parseInt(args[0]) : 8080;
    Path war = Path.of(args.length > 1 ? args[1] : "webapp-demo/target/pagecache-demo.war");
    if (!Files.exists(war)) {
      throw new IllegalStateException("no WAR at " + war.toAbsolutePath() + ": build it with mvn -B package first");
    }
    Server server = start(port, war);
    System.out.println("PageCache demo running: http://localhost:" + port + "/  (editor: editor/editor at /cms/)");
    server.join();
  }

  /** Starts the WAR on a port (0: a free one) with the demo's editor user. */
  static Server start(int port, Path war) throws Exception {
    Server server = new Server(port);
    server.addBean(editorLogin());
    WebAppContext webapp = new WebAppContext();
    webapp.setContextPath("/");
    webapp.setWar(war.toAbsolutePath().toString());
    server.setHandler(webapp);
    server.setStopAtShutdown(true); // Ctrl-C stops the webapp cleanly and removes its unpacked WAR
    server.start();
    return server;
  }

  /** The demo's one user: editor/editor in the role pagecache-admin (the editor and the cache admin). */
  static HashLoginService editorLogin() {
    UserStore users = new UserStore();
    users.addUser("editor", new Password("editor"), new String[] {"pagecache-admin"});
    HashLoginService login = new HashLoginService(REALM);
    login.setUserStore(users);
    return login;
  }
}
