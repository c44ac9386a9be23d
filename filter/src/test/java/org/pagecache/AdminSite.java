package org.pagecache;

import org.pagecache.admin.PageCacheAdminServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.security.ConstraintMapping;
import org.eclipse.jetty.ee10.servlet.security.ConstraintSecurityHandler;
import org.eclipse.jetty.security.Constraint;
import org.eclipse.jetty.security.HashLoginService;
import org.eclipse.jetty.security.UserStore;
import org.eclipse.jetty.security.authentication.FormAuthenticator;
import org.eclipse.jetty.util.security.Credential;
import org.pagecache.testing.JettyServer;

/**
 * A cached test site with the admin servlet at {@code /cache-admin/*}, set up as the demo site is:
 * two handlers ({@code article} tagging its pages {@code article:<id>}, and {@code home}), FORM
 * sign-in with the user {@code editor}/{@code editor} in role {@code pagecache-admin} (and
 * {@code reader}/{@code reader}, signed in but without the role), and optionally an admin token.
 *
 * <p>Security as docs/admin-api.md recommends: the container protects the page ({@code /cache-admin/*},
 * role pagecache-admin) so editors are sent to the sign-in form; {@code /cache-admin/api/*} is left
 * to the servlet, which lets in Bearer-token scripts and signed-in editors alike.
 */
final class AdminSite implements AutoCloseable {
  static final String ADMIN = "/cache-admin";
  static final String TOKEN = "t0ken-for-tests-only";
  static final String ROLE = "pagecache-admin";

  final CachedSite site;

  private AdminSite(CachedSite site) {
    this.site = site;
  }

  /** Builder-style options; {@link #start()} runs the site. */
  static final class Options {
    private final String servers;
    private String token = TOKEN;
    private boolean signIn = true;
    private final Map<String, String> settings = new LinkedHashMap<>();

    private Options(String servers) {
      this.servers = servers;
    }

    /** One more setting of the site, e.g. {@code memcached.remote}, or the same {@code namespace} for two sites that are one cluster. */
    Options set(String name, String value) {
      settings.put(name, value);
      return this;
    }

    Options noToken() {
      token = "";
      return this;
    }

    Options noSignIn() {
      signIn = false;
      return this;
    }

    AdminSite start() {
      CachedSite site = new CachedSite(servers)
          .set("admin.token", token)
          // a refreshed page is rebuilt by its next request, which the tests read (BackgroundRebuildTest: the default)
          .set("rebuild.background", "0")
          .set("policies", "article: ttl=5m, grace=10m, paths=/article/*; home: ttl=1m")
          .handler("article", SiteServlets.of((req, res, call) -> {
            PageCache.tag(req, "article:" + req.getPathInfo().substring(1));
            res.setContentType("text/html;charset=UTF-8");
            res.getWriter().print("<html><body><h1>article " + req.getPathInfo() + "</h1><p>call " + call + "</p></body></html>");
          }), "/article/*")
          .handler("home", SiteServlets.page(), "/home/*")
          .with(ctx -> JettyServer.servlet(ctx, "pagecache-admin", new PageCacheAdminServlet(), ADMIN + "/*"))
          .with(ctx -> JettyServer.servlet(ctx, "login", new SignInPage(), "/login"));
      settings.forEach(site::set);
      if (signIn) {
        site.with(AdminSite::formSignIn);
      }
      settings.forEach(site::set);
      return new AdminSite(site.start());
    }
  }

  static Options on(String servers) {
    return new Options(servers);
  }

  /** FORM authentication against an in-memory user store, the page protected for the admin role. */
  static void formSignIn(ServletContextHandler ctx) {
    UserStore users = new UserStore();
    users.addUser("editor", Credential.getCredential("editor"), new String[] {ROLE});
    users.addUser("reader", Credential.getCredential("reader"), new String[] {"reader"});
    HashLoginService login = new HashLoginService("PageCache demo");
    login.setUserStore(users);

    ConstraintMapping page = new ConstraintMapping();
    page.setPathSpec(ADMIN + "/*");
    page.setConstraint(Constraint.from(ROLE));
    ConstraintMapping api = new ConstraintMapping();
    api.setPathSpec(ADMIN + "/api/*");
    api.setConstraint(Constraint.ALLOWED);

    ConstraintSecurityHandler security = new ConstraintSecurityHandler();
    security.setLoginService(login);
    security.setAuthenticator(new FormAuthenticator("/login", "/login?error=1", false));
    security.setRoles(Set.of(ROLE, "reader"));
    security.addConstraintMapping(page);
    security.addConstraintMapping(api);
    ctx.setSecurityHandler(security);
  }

  /** The sign-in form FORM authentication sends editors to. */
  static final class SignInPage extends HttpServlet {
    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException {
      res.setContentType("text/html;charset=UTF-8");
      res.setHeader("Cache-Control", "no-store");
      res.getWriter().print("<!DOCTYPE html><html><head><title>Sign in</title></head><body><h1>Sign in</h1>"
          + (req.getParameter("error") != null ? "<p id=\"error\">Wrong user name or password.</p>" : "")
          + "<form method=\"post\" action=\"" + req.getContextPath() + "/j_security_check\">"
          + "<label>User <input id=\"user\" name=\"j_username\"></label> "
          + "<label>Password <input id=\"password\" type=\"password\" name=\"j_password\"></label> "
          + "<button id=\"sign-in\" type=\"submit\">Sign in</button></form></body></html>");
    }
  }

  PageCache cache() {
    return site.cache;
  }

  /** An address below the admin servlet, e.g. {@code admin("/api/stats")}. */
  URI admin(String path) {
    return site.uri(ADMIN + path);
  }

  URI uri(String path) {
    return site.uri(path);
  }

  @Override
  public void close() {
    site.close();
  }
}
