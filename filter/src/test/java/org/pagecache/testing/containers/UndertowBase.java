package org.pagecache.testing.containers;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.jar.JarFile;
import org.pagecache.testing.MemcachedExtension;

/**
 * Undertow 2.3, as WildFly runs it, in a JVM of its own: {@link UndertowLauncher} deploys unpacked
 * WARs from their web.xml. Undertow has no distribution to unpack, so its jars are the ones Maven
 * resolved onto the test class path (test dependencies {@code io.undertow:undertow-servlet} and,
 * for JSPs, {@code org.apache.tomcat.embed:tomcat-embed-jasper}); only those, the servlet API and
 * the launcher go on the container's class path, never the application's classes.
 *
 * <pre>
 *   new UndertowBase(workDir).jsp().war("readme", readmeWar).start(env, "/readme/", within)
 * </pre>
 */
public final class UndertowBase {
  /** The Maven groups of Undertow and what it runs on (the repository layout's directories). */
  private static final List<String> UNDERTOW = List.of("/io/undertow/", "/org/jboss/", "/org/wildfly/",
      "/io/smallrye/common/", "/jakarta/servlet/jakarta.servlet-api/", "/jakarta/annotation/");
  /** Tomcat's Jasper and what it needs: Tomcat's util classes, its EL, the Eclipse compiler. */
  private static final List<String> JASPER = List.of("/org/apache/tomcat/", "/org/eclipse/jdt/");

  private final Path workDir;
  private final Path webapps;
  private final Map<String, Path> wars = new LinkedHashMap<>();
  private final List<String> options = new ArrayList<>();
  private boolean jsp;

  public UndertowBase(Path workDir) {
    this.workDir = workDir;
    this.webapps = workDir.resolve("undertow-webapps");
  }

  /** Registers the JSP engine, as WildFly does for every WAR. */
  public UndertowBase jsp() {
    jsp = true;
    options.add("--jsp");
    return this;
  }

  /** Users of the BASIC realm: {@code name=password,role,...} lines; without it the realm knows nobody. */
  public UndertowBase users(String properties) {
    Path file = workDir.resolve("undertow-users.properties");
    try {
      Files.writeString(file, properties);
    } catch (IOException e) {
      throw new UncheckedIOException(file.toString(), e);
    }
    options.add("--users");
    options.add(file.toString());
    return this;
  }

  /** Unpacks {@code war} as the context {@code /name} ({@code ROOT} for the root context). */
  public UndertowBase war(String name, Path war) {
    Path dir = webapps.resolve(name);
    unpack(war, dir);
    wars.put(name.equals("ROOT") ? "/" : "/" + name, dir);
    return this;
  }

  /** Starts Undertow with {@code env} and returns once {@code readyPath} answers 200. */
  public RunningContainer start(Map<String, String> env, String readyPath, Duration readyWithin) {
    int port = MemcachedExtension.freePort();
    List<String> command = new ArrayList<>(List.of(ContainerProcess.java(),
        // Start-up over peak speed on two shared cores: the client compiler only, one GC thread.
        "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
        "-Djava.io.tmpdir=" + mkdirs(workDir.resolve("undertow-tmp")),
        "-cp", classPath(), UndertowLauncher.class.getName(),
        "--port", Integer.toString(port), "--temp", mkdirs(workDir.resolve("undertow-work")).toString()));
    command.addAll(options);
    wars.forEach((context, dir) -> command.add(context + "=" + dir));
    return RunningContainer.start("undertow", command, env, workDir, workDir.resolve("undertow.log"), port,
        readyPath, readyWithin);
  }

  /** The servlet API first, then Undertow's jars (and Jasper's), then the launcher. */
  private String classPath() {
    Set<String> jars = new LinkedHashSet<>();
    List<String> all = testClassPath();
    all.stream().filter(j -> j.contains("/jakarta/servlet/jakarta.servlet-api/")).forEach(jars::add);
    all.stream().filter(j -> UNDERTOW.stream().anyMatch(j::contains)).forEach(jars::add);
    require(jars, "/io/undertow/undertow-servlet/", "io.undertow:undertow-servlet");
    if (jsp) {
      all.stream().filter(j -> JASPER.stream().anyMatch(j::contains)).forEach(jars::add);
      require(jars, "/tomcat-embed-jasper/", "org.apache.tomcat.embed:tomcat-embed-jasper");
    }
    jars.add(launcherClasses().toString());
    return String.join(File.pathSeparator, jars);
  }

  /**
   * The launcher's classes alone (UndertowLauncher and its nested classes), copied from the test
   * classes or test-jar they were loaded from into a directory of their own, so the container's
   * class path holds nothing else of the test code.
   */
  private Path launcherClasses() {
    String dir = UndertowLauncher.class.getPackageName().replace('.', '/');
    String prefix = UndertowLauncher.class.getSimpleName();
    Path target = mkdirs(workDir.resolve("undertow-launcher").resolve(dir));
    Path source = Path.of(codeSource(UndertowLauncher.class));
    try {
      if (Files.isDirectory(source)) {
        try (var files = Files.list(source.resolve(dir))) {
          for (Path file : files.filter(f -> isLauncherClass(f.getFileName().toString(), prefix)).toList()) {
            Files.copy(file, target.resolve(file.getFileName()), StandardCopyOption.REPLACE_EXISTING);
          }
        }
      } else {
        try (JarFile jar = new JarFile(source.toFile())) {
          for (var entry : Collections.list(jar.entries())) {
            String name = entry.getName();
            if (name.startsWith(dir + "/") && isLauncherClass(name.substring(dir.length() + 1), prefix)) {
              try (InputStream in = jar.getInputStream(entry)) {
                Files.copy(in, target.resolve(name.substring(dir.length() + 1)), StandardCopyOption.REPLACE_EXISTING);
              }
            }
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("copying the Undertow launcher from " + source, e);
    }
    return workDir.resolve("undertow-launcher");
  }

  private static boolean isLauncherClass(String fileName, String prefix) {
    return fileName.endsWith(".class") && (fileName.equals(prefix + ".class") || fileName.startsWith(prefix + "$"));
  }

  private static void require(Set<String> jars, String part, String artifact) {
    if (jars.stream().noneMatch(j -> j.contains(part))) {
      throw new IllegalStateException(artifact + " is not on the test class path: declare it as a test dependency "
          + "of the module that deploys on Undertow");
    }
  }

  /** Every jar of this JVM's class path, as Maven resolved it (whatever way failsafe passed it on). */
  private static List<String> testClassPath() {
    List<String> jars = new ArrayList<>();
    try {
      for (URL manifest : Collections.list(ClassLoader.getSystemClassLoader().getResources(JarFile.MANIFEST_NAME))) {
        String url = manifest.toString();
        if (url.startsWith("jar:file:") && url.contains("!/")) {
          jars.add(Path.of(new URL(url.substring(4, url.indexOf("!/"))).toURI()).toString().replace('\\', '/'));
        }
      }
    } catch (IOException | URISyntaxException e) {
      throw new IllegalStateException("reading the test class path", e);
    }
    return jars;
  }

  private static String codeSource(Class<?> type) {
    try {
      return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    } catch (URISyntaxException e) {
      throw new IllegalStateException(type.getName(), e);
    }
  }

  private static Path mkdirs(Path dir) {
    try {
      return Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException(dir.toString(), e);
    }
  }

  /** Unpacks a WAR (a zip) into {@code dir}, refusing entries that would land outside it. */
  private static void unpack(Path war, Path dir) {
    try (JarFile jar = new JarFile(war.toFile())) {
      Path root = mkdirs(dir).toRealPath();
      for (var entry : Collections.list(jar.entries())) {
        Path target = root.resolve(entry.getName()).normalize();
        if (!target.startsWith(root)) {
          throw new IllegalStateException(war + ": entry outside the WAR's directory: " + entry.getName());
        }
        if (entry.isDirectory()) {
          Files.createDirectories(target);
        } else {
          Files.createDirectories(target.getParent());
          try (InputStream in = jar.getInputStream(entry)) {
            Files.copy(in, target);
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("unpacking " + war + " to " + dir, e);
    }
  }
}
