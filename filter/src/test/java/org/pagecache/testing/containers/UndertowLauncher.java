package org.pagecache.testing.containers;

import io.undertow.Handlers;
import io.undertow.Undertow;
import io.undertow.security.idm.Account;
import io.undertow.security.idm.Credential;
import io.undertow.security.idm.IdentityManager;
import io.undertow.security.idm.PasswordCredential;
import io.undertow.server.handlers.PathHandler;
import io.undertow.server.handlers.resource.PathResourceManager;
import io.undertow.servlet.Servlets;
import io.undertow.servlet.api.DeploymentInfo;
import io.undertow.servlet.api.DeploymentManager;
import io.undertow.servlet.api.ErrorPage;
import io.undertow.servlet.api.FilterInfo;
import io.undertow.servlet.api.LoginConfig;
import io.undertow.servlet.api.SecurityConstraint;
import io.undertow.servlet.api.SecurityInfo;
import io.undertow.servlet.api.ServletContainer;
import io.undertow.servlet.api.ServletContainerInitializerInfo;
import io.undertow.servlet.api.ServletInfo;
import io.undertow.servlet.api.WebResourceCollection;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.ServletContainerInitializer;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.Principal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EventListener;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * Undertow 2.3 serving unpacked WARs from their {@code WEB-INF/web.xml}, the part of WildFly a WAR
 * meets: WildFly parses web.xml into Undertow's {@link DeploymentInfo} and Undertow serves it. Runs
 * as its own JVM ({@link UndertowBase} starts it), with only Undertow, the servlet API and, with
 * {@code --jsp}, a JSP engine on its class path; each WAR gets a class loader of its own over
 * {@code WEB-INF/classes} and {@code WEB-INF/lib}, so the WAR's PageCache is the one that runs.
 *
 * <pre>
 *   java -cp ... org.pagecache.testing.containers.UndertowLauncher --port 8080 --temp DIR [--jsp]
 *       [--users FILE] /context=UNPACKED_WAR_DIR ...   ("/" for the root context)
 * </pre>
 *
 * <p>What it reads of web.xml: context-param, listener, filter (init-param, async-supported),
 * filter-mapping (url-pattern, servlet-name, dispatcher), servlet (init-param, load-on-startup,
 * async-supported), servlet-mapping, error-page, welcome-file-list, security-constraint,
 * login-config (BASIC) and security-role. Any other element stops the launch, naming it, rather
 * than being ignored. Undertow's defaults stay as WildFly leaves them: in particular
 * {@code allowNonStandardWrappers} is false. The WAR's own ServletContainerInitializers run (with
 * no {@code @HandlesTypes} scan: these WARs register everything in web.xml).
 *
 * <p>JSP: WildFly uses Jastow, its fork of Tomcat's Jasper, which the registry does not serve;
 * {@code --jsp} registers Tomcat's Jasper the same way (its {@code JspServlet} on {@code *.jsp}
 * and {@code *.jspx}, its initializer run at start-up), found on the class path by name.
 *
 * <p>Users ({@code --users}): a properties file {@code name=password,role,...}, the launcher's
 * stand-in for WildFly's application-users/roles files. Without it the BASIC realm knows nobody,
 * as a stock WildFly's application realm.
 */
public final class UndertowLauncher {
  private static final Set<String> READ = Set.of("display-name", "description", "context-param", "listener", "filter",
      "filter-mapping", "servlet", "servlet-mapping", "error-page", "welcome-file-list", "security-constraint",
      "login-config", "security-role");

  private UndertowLauncher() {}

  public static void main(String[] args) throws Exception {
    int port = -1;
    Path temp = null;
    boolean jsp = false;
    Map<String, String[]> users = new HashMap<>();
    Map<String, Path> wars = new LinkedHashMap<>();
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--port" -> port = Integer.parseInt(args[++i]);
        case "--temp" -> temp = Path.of(args[++i]);
        case "--jsp" -> jsp = true;
        case "--users" -> users = users(Path.of(args[++i]));
        default -> {
          int eq = args[i].indexOf('=');
          if (!args[i].startsWith("/") || eq < 0) {
            throw new IllegalArgumentException("not /context=DIR: " + args[i]);
          }
          wars.put(args[i].substring(0, eq), Path.of(args[i].substring(eq + 1)));
        }
      }
    }
    if (port < 0 || temp == null || wars.isEmpty()) {
      throw new IllegalArgumentException("usage: --port N --temp DIR [--jsp] [--users FILE] /context=DIR ...");
    }
    ServletContainer container = Servlets.defaultContainer();
    PathHandler paths = Handlers.path();
    for (Map.Entry<String, Path> war : wars.entrySet()) {
      String context = war.getKey().equals("/") ? "" : war.getKey();
      Path tempDir = Files.createDirectories(temp.resolve(context.isEmpty() ? "ROOT" : context.substring(1)));
      DeploymentInfo info = deployment(context, war.getValue(), tempDir, jsp, users);
      DeploymentManager manager = container.addDeployment(info);
      manager.deploy();
      paths.addPrefixPath(war.getKey(), manager.start());
      System.out.println("UndertowLauncher: deployed " + war.getValue() + " at " + war.getKey());
    }
    Undertow server = Undertow.builder().addHttpListener(port, "127.0.0.1").setHandler(paths).build();
    server.start();
    System.out.println("UndertowLauncher: listening on 127.0.0.1:" + port);
  }

  /** A WAR's DeploymentInfo, from its web.xml. */
  static DeploymentInfo deployment(String context, Path dir, Path tempDir, boolean jsp, Map<String, String[]> users)
      throws Exception {
    ClassLoader loader = warClassLoader(dir);
    Element webApp = parse(dir.resolve("WEB-INF/web.xml"));
    DeploymentInfo info = Servlets.deployment()
        .setClassLoader(loader)
        .setContextPath(context.isEmpty() ? "/" : context)
        .setDeploymentName(dir.getFileName().toString() + context)
        .setResourceManager(new PathResourceManager(dir))
        .setTempDir(tempDir.toFile());
    for (Element child : children(webApp, null)) {
      if (!READ.contains(child.getLocalName())) {
        throw new IllegalArgumentException(dir + "/WEB-INF/web.xml: <" + child.getLocalName()
            + "> is not read by this launcher; teach it, rather than deploy the WAR without it");
      }
    }
    String displayName = text(webApp, "display-name");
    if (displayName != null) {
      info.setDisplayName(displayName);
    }
    for (Element param : children(webApp, "context-param")) {
      info.addInitParameter(text(param, "param-name"), text(param, "param-value"));
    }
    for (Element listener : children(webApp, "listener")) {
      info.addListener(Servlets.listener(load(loader, text(listener, "listener-class"), EventListener.class)));
    }
    for (Element filter : children(webApp, "filter")) {
      only(filter, dir, "filter-name", "filter-class", "init-param", "async-supported");
      FilterInfo f = Servlets.filter(text(filter, "filter-name"),
          load(loader, text(filter, "filter-class"), jakarta.servlet.Filter.class));
      f.setAsyncSupported(Boolean.parseBoolean(text(filter, "async-supported")));
      initParams(filter).forEach(f::addInitParam);
      info.addFilter(f);
    }
    for (Element mapping : children(webApp, "filter-mapping")) {
      String name = text(mapping, "filter-name");
      List<DispatcherType> dispatchers = children(mapping, "dispatcher").stream()
          .map(d -> DispatcherType.valueOf(d.getTextContent().trim())).toList();
      for (DispatcherType dispatcher : dispatchers.isEmpty() ? List.of(DispatcherType.REQUEST) : dispatchers) {
        for (Element pattern : children(mapping, "url-pattern")) {
          info.addFilterUrlMapping(name, pattern.getTextContent().trim(), dispatcher);
        }
        for (Element servlet : children(mapping, "servlet-name")) {
          info.addFilterServletNameMapping(name, servlet.getTextContent().trim(), dispatcher);
        }
      }
    }
    Map<String, ServletInfo> servlets = new LinkedHashMap<>();
    for (Element servlet : children(webApp, "servlet")) {
      only(servlet, dir, "servlet-name", "servlet-class", "init-param", "load-on-startup", "async-supported");
      String name = text(servlet, "servlet-name");
      String className = text(servlet, "servlet-class");
      if (className == null) {
        throw new IllegalArgumentException(dir + ": servlet " + name + " has no servlet-class (jsp-file is not read)");
      }
      ServletInfo s = Servlets.servlet(name, load(loader, className, jakarta.servlet.Servlet.class));
      s.setAsyncSupported(Boolean.parseBoolean(text(servlet, "async-supported")));
      String loadOnStartup = text(servlet, "load-on-startup");
      if (loadOnStartup != null && !loadOnStartup.isEmpty()) {
        s.setLoadOnStartup(Integer.parseInt(loadOnStartup));
      }
      initParams(servlet).forEach(s::addInitParam);
      servlets.put(name, s);
    }
    for (Element mapping : children(webApp, "servlet-mapping")) {
      String name = text(mapping, "servlet-name");
      ServletInfo s = servlets.get(name);
      if (s == null) {
        throw new IllegalArgumentException(dir + ": servlet-mapping for an undeclared servlet " + name);
      }
      children(mapping, "url-pattern").forEach(p -> s.addMapping(p.getTextContent().trim()));
    }
    servlets.values().forEach(info::addServlet);
    for (Element page : children(webApp, "error-page")) {
      String location = text(page, "location");
      String code = text(page, "error-code");
      String exception = text(page, "exception-type");
      info.addErrorPage(code != null ? new ErrorPage(location, Integer.parseInt(code))
          : exception != null ? new ErrorPage(location, load(loader, exception, Throwable.class))
          : new ErrorPage(location));
    }
    for (Element list : children(webApp, "welcome-file-list")) {
      children(list, "welcome-file").forEach(w -> info.addWelcomePage(w.getTextContent().trim()));
    }
    security(webApp, info, users, dir);
    for (ServletContainerInitializer sci : ServiceLoader.load(ServletContainerInitializer.class, loader)) {
      if (sci.getClass().getClassLoader() == loader) { // the WAR's own; the JSP engine's is added below
        info.addServletContainerInitializer(new ServletContainerInitializerInfo(sci.getClass(), Set.of()));
      }
    }
    if (jsp) {
      jsp(info);
    }
    return info;
  }

  /** Tomcat's Jasper, registered as WildFly registers Jastow: the servlet on *.jsp and *.jspx, its initializer. */
  @SuppressWarnings("unchecked")
  private static void jsp(DeploymentInfo info) throws ClassNotFoundException {
    ClassLoader containers = UndertowLauncher.class.getClassLoader();
    Class<? extends jakarta.servlet.Servlet> servlet = (Class<? extends jakarta.servlet.Servlet>)
        Class.forName("org.apache.jasper.servlet.JspServlet", false, containers);
    Class<? extends ServletContainerInitializer> initializer = (Class<? extends ServletContainerInitializer>)
        Class.forName("org.apache.jasper.servlet.JasperInitializer", false, containers);
    info.addServletContainerInitializer(new ServletContainerInitializerInfo(initializer, Set.of()));
    info.addServlet(Servlets.servlet("jsp", servlet).addMappings("*.jsp", "*.jspx").setLoadOnStartup(3));
  }

  private static void security(Element webApp, DeploymentInfo info, Map<String, String[]> users, Path dir) {
    for (Element constraint : children(webApp, "security-constraint")) {
      SecurityConstraint c = new SecurityConstraint();
      for (Element collection : children(constraint, "web-resource-collection")) {
        WebResourceCollection w = new WebResourceCollection();
        children(collection, "url-pattern").forEach(p -> w.addUrlPattern(p.getTextContent().trim()));
        children(collection, "http-method").forEach(m -> w.addHttpMethod(m.getTextContent().trim()));
        children(collection, "http-method-omission").forEach(m -> w.addHttpMethodOmission(m.getTextContent().trim()));
        c.addWebResourceCollection(w);
      }
      List<Element> auth = children(constraint, "auth-constraint");
      if (auth.isEmpty()) {
        // No auth-constraint: no sign-in needed (Servlet 6 §13.8.1); Undertow's default would deny.
        c.setEmptyRoleSemantic(SecurityInfo.EmptyRoleSemantic.PERMIT);
      } else {
        List<String> roles = children(auth.get(0), "role-name").stream().map(r -> r.getTextContent().trim()).toList();
        if (roles.isEmpty()) {
          c.setEmptyRoleSemantic(SecurityInfo.EmptyRoleSemantic.DENY);
        } else if (roles.contains("**")) {
          c.setEmptyRoleSemantic(SecurityInfo.EmptyRoleSemantic.AUTHENTICATE);
        } else {
          c.addRolesAllowed(roles);
        }
      }
      if (!children(constraint, "user-data-constraint").isEmpty()) {
        throw new IllegalArgumentException(dir + ": user-data-constraint is not read by this launcher");
      }
      info.addSecurityConstraint(c);
    }
    for (Element role : children(webApp, "security-role")) {
      info.addSecurityRole(text(role, "role-name"));
    }
    for (Element login : children(webApp, "login-config")) {
      String method = text(login, "auth-method");
      if (!"BASIC".equals(method)) {
        throw new IllegalArgumentException(dir + ": auth-method " + method + " is not read by this launcher (BASIC is)");
      }
      info.setLoginConfig(new LoginConfig("BASIC", text(login, "realm-name")));
      info.setIdentityManager(new Users(users));
    }
  }

  /** The realm's users: name to {password, roles...}; empty for a stock realm. */
  private record Users(Map<String, String[]> users) implements IdentityManager {
    @Override
    public Account verify(Account account) {
      return account;
    }

    @Override
    public Account verify(String id, Credential credential) {
      String[] entry = users.get(id);
      if (entry == null || !(credential instanceof PasswordCredential password)
          || !entry[0].equals(new String(password.getPassword()))) {
        return null;
      }
      Set<String> roles = Set.copyOf(Arrays.asList(entry).subList(1, entry.length));
      Principal principal = () -> id;
      return new Account() {
        @Override
        public Principal getPrincipal() {
          return principal;
        }

        @Override
        public Set<String> getRoles() {
          return roles;
        }
      };
    }

    @Override
    public Account verify(Credential credential) {
      return null;
    }
  }

  private static Map<String, String[]> users(Path file) throws IOException {
    Properties p = new Properties();
    try (InputStream in = Files.newInputStream(file)) {
      p.load(in);
    }
    Map<String, String[]> users = new HashMap<>();
    p.stringPropertyNames().forEach(name -> users.put(name,
        Arrays.stream(p.getProperty(name).split(",")).map(String::trim).toArray(String[]::new)));
    return users;
  }

  /** The WAR's loader: WEB-INF/classes, then WEB-INF/lib's jars; the container's classes from the parent. */
  private static ClassLoader warClassLoader(Path dir) throws IOException {
    List<URL> urls = new ArrayList<>();
    Path classes = dir.resolve("WEB-INF/classes");
    if (Files.isDirectory(classes)) {
      urls.add(classes.toUri().toURL());
    }
    Path lib = dir.resolve("WEB-INF/lib");
    if (Files.isDirectory(lib)) {
      try (Stream<Path> jars = Files.list(lib)) {
        for (Path jar : jars.filter(p -> p.toString().endsWith(".jar")).sorted().toList()) {
          urls.add(jar.toUri().toURL());
        }
      }
    }
    return new URLClassLoader("war:" + dir.getFileName(), urls.toArray(URL[]::new),
        UndertowLauncher.class.getClassLoader());
  }

  private static <T> Class<? extends T> load(ClassLoader loader, String name, Class<T> type)
      throws ClassNotFoundException {
    return Class.forName(name, false, loader).asSubclass(type);
  }

  private static Element parse(Path webXml) throws Exception {
    DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
    factory.setNamespaceAware(true);
    factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
    return factory.newDocumentBuilder().parse(webXml.toFile()).getDocumentElement();
  }

  /** Refuses an element with children other than these (description and display-name aside). */
  private static void only(Element element, Path dir, String... read) {
    Set<String> known = Set.of(read);
    for (Element child : children(element, null)) {
      String name = child.getLocalName();
      if (!known.contains(name) && !name.equals("description") && !name.equals("display-name")) {
        throw new IllegalArgumentException(dir + "/WEB-INF/web.xml: <" + element.getLocalName() + "><" + name
            + "> is not read by this launcher; teach it, rather than deploy the WAR without it");
      }
    }
  }

  private static Map<String, String> initParams(Element parent) {
    Map<String, String> params = new LinkedHashMap<>();
    for (Element param : children(parent, "init-param")) {
      params.put(text(param, "param-name"), text(param, "param-value"));
    }
    return params;
  }

  /** The child elements named {@code name} (all of them for null), in document order. */
  private static List<Element> children(Element parent, String name) {
    List<Element> found = new ArrayList<>();
    for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element e && (name == null || name.equals(e.getLocalName()))) {
        found.add(e);
      }
    }
    return found;
  }

  /** The trimmed text of the first child named {@code name}, or null. */
  private static String text(Element parent, String name) {
    List<Element> found = children(parent, name);
    return found.isEmpty() ? null : found.get(0).getTextContent().trim();
  }
}
