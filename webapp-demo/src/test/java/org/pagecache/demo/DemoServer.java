package org.pagecache.demo;

import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import org.eclipse.jetty.ee10.webapp.WebAppContext;
import org.eclipse.jetty.security.HashLoginService;
import org.eclipse.jetty.security.UserStore;
import org.eclipse.jetty.server.NetworkConnector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.security.Password;

/**
 * Runs the demo WAR in an embedded Jetty 12, as scripts/demo.sh does:
 * {@code java ... org.pagecache.demo.DemoServer [port] [war]}. Configuration comes from the
 * environment (PAGECACHE_MEMCACHED_SERVERS, PAGECACHE_ADMIN_TOKEN, DEMO_DELAY_MS...), as on a real
 * container. The editor signs in as {@code editor}/{@code editor} (role {@code pagecache-admin}).
 *
 * <p>It listens on 127.0.0.1 only: those credentials and the demo's admin token are published, so
 * anyone who could reach the port could edit articles. {@code DEMO_HOST=0.0.0.0} (or one address
 * of the machine) opens it to others on purpose.
 */
public final class DemoServer {
  /** The realm-name of the WAR's login-config; a container's login service must carry it. */
  static final String REALM = "PageCache demo";
  /** Where it listens without DEMO_HOST: this machine only. */
  static final String DEFAULT_HOST = "127.0.0.1";
  private static final Set<String> WILDCARDS = Set.of("0.0.0.0", "::", "[::]");

  private DemoServer() {}

  public static void main(String[] args) throws Exception {
    String host = host(System.getenv("DEMO_HOST"));
    int port = args.length > 0 ? Integer.parseInt(args[0]) : 8080;
    Path war = Path.of(args.length > 1 ? args[1] : "webapp-demo/target/pagecache-demo.war");
    if (!Files.exists(war)) {
      throw new IllegalStateException("no WAR at " + war.toAbsolutePath() + ": build it with mvn -B package first");
    }
    Server server = start(host, port, war);
    String url = url(host, ((NetworkConnector) server.getConnectors()[0]).getLocalPort());
    System.out.println("PageCache demo running: " + url + "  editor: " + url + "cms/ (editor/editor)");
    if (!InetAddress.getByName(host).isLoopbackAddress()) {
      System.out.println("DEMO_HOST=" + host + ": whoever reaches this address can sign in with the published"
          + " editor password and admin token");
    }
    server.join();
  }

  /** The address to listen on: {@code DEMO_HOST} if set, else this machine only. */
  static String host(String demoHost) {
    return demoHost == null || demoHost.isBlank() ? DEFAULT_HOST : demoHost.strip();
  }

  /** The URL to open: a wildcard address is not one to browse to, so it shows as localhost. */
  static String url(String host, int port) {
    String shown = WILDCARDS.contains(host) ? "localhost"
        : host.contains(":") && !host.startsWith("[") ? "[" + host + "]" // an IPv6 literal
        : host;
    return "http://" + shown + ":" + port + "/";
  }

  /** Starts the WAR on an address and port (0: a free one) with the demo's editor user. */
  static Server start(String host, int port, Path war) throws Exception {
    Server server = new Server();
    ServerConnector connector = new ServerConnector(server);
    connector.setHost(host);
    connector.setPort(port);
    server.addConnector(connector);
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
