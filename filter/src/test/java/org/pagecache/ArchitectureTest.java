package org.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Type;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.spi.ToolProvider;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The layers of docs/architecture.md, checked on the compiled classes of the filter: packages only
 * point down (jdeps, as {@code jdeps -verbose:package target/classes} shows them), no package
 * cycle, and the API neither names an engine type nor grows past the public types decided per package.
 */
class ArchitectureTest {
  /**
   * Who may import whom: a package may use its own layer and those below it, never one above.
   * The same table is in docs/architecture.md.
   */
  static final Map<String, Integer> LAYER = Map.ofEntries(
      // reporters: read the facade's snapshots
      Map.entry("org.pagecache.admin", 6),
      Map.entry("org.pagecache.metrics", 6),
      // the facade
      Map.entry("org.pagecache", 5),
      // the engine
      Map.entry("org.pagecache.internal.capture", 4),
      Map.entry("org.pagecache.internal.cluster", 4),
      Map.entry("org.pagecache.internal.counters", 4),
      Map.entry("org.pagecache.internal.fragments", 4),
      Map.entry("org.pagecache.internal.freshness", 4),
      Map.entry("org.pagecache.internal.key", 4),
      Map.entry("org.pagecache.internal.near", 4),
      Map.entry("org.pagecache.internal.stats", 4),
      Map.entry("org.pagecache.internal.sitewide", 4),
      Map.entry("org.pagecache.internal.vary", 4),
      // standalone counters (API), on the store
      Map.entry("org.pagecache.counters", 3),
      // the engine's view of the store: stored pages, the circuit breaker
      Map.entry("org.pagecache.internal.store", 2),
      Map.entry("org.pagecache.internal.nodes", 2),
      // the Store SPI and its implementations; what the cache reports (snapshots, results), filled in by the engine
      Map.entry("org.pagecache.store", 1),
      Map.entry("org.pagecache.stats", 1),
      // text rules every layer shares, importing nothing of pagecache
      Map.entry("org.pagecache.internal.text", 0),
      Map.entry("org.pagecache.internal.config", 0),
      Map.entry("org.pagecache.internal.html", 0),
      Map.entry("org.pagecache.internal.json", 0),
      Map.entry("org.pagecache.internal.gzip", 0),
      Map.entry("org.pagecache.internal", 0)); // its package-info only

  static final Set<String> API = Set.of("org.pagecache", "org.pagecache.admin", "org.pagecache.counters",
      "org.pagecache.store", "org.pagecache.stats", "org.pagecache.metrics");

  static Path classes;
  static Map<String, Set<String>> imports;

  @BeforeAll
  static void readClasses() throws Exception {
    classes = Path.of(PageCache.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    imports = packageImports(classes);
  }

  @Test
  void everyPackageHasALayer() {
    Set<String> unplaced = new TreeSet<>(imports.keySet());
    unplaced.removeAll(LAYER.keySet());
    assertTrue(unplaced.isEmpty(), "packages missing from the layer table: " + unplaced);
  }

  @Test
  void packagesOnlyImportTheirLayerOrLower() {
    List<String> upward = new ArrayList<>();
    imports.forEach((from, tos) -> tos.forEach(to -> {
      if (LAYER.getOrDefault(to, 99) > LAYER.getOrDefault(from, -1)) {
        upward.add(from + " -> " + to);
      }
    }));
    assertEquals(List.of(), upward, "imports pointing up");
  }

  @Test
  void noPackageCycle() {
    List<List<String>> cycles = new ArrayList<>();
    for (String start : imports.keySet()) {
      List<String> cycle = cycleThrough(start);
      if (cycle != null) {
        cycles.add(cycle);
      }
    }
    assertEquals(List.of(), cycles, "package cycles");
  }

  @Test
  void noPublicMemberOfTheApiNamesAnEngineType() throws IOException {
    List<String> leaks = new ArrayList<>();
    for (Class<?> type : apiTypes()) {
      for (Field f : type.getDeclaredFields()) {
        if (visible(f.getModifiers())) {
          check(leaks, type, f.getName(), f.getGenericType());
        }
      }
      for (Method m : type.getDeclaredMethods()) {
        if (visible(m.getModifiers()) && !m.isSynthetic()) {
          check(leaks, type, m.getName(), m.getGenericReturnType());
          Stream.of(m.getGenericParameterTypes()).forEach(t -> check(leaks, type, m.getName(), t));
          Stream.of(m.getGenericExceptionTypes()).forEach(t -> check(leaks, type, m.getName(), t));
        }
      }
      for (Constructor<?> c : type.getDeclaredConstructors()) {
        if (visible(c.getModifiers()) && !c.isSynthetic()) {
          Stream.of(c.getGenericParameterTypes()).forEach(t -> check(leaks, type, "<init>", t));
        }
      }
      check(leaks, type, "extends", type.getGenericSuperclass());
      Stream.of(type.getGenericInterfaces()).forEach(t -> check(leaks, type, "implements", t));
    }
    assertEquals(List.of(), leaks, "API members naming an org.pagecache.internal type");
  }

  /**
   * The API counted honestly: every public type a user can reach, nested ones included, per
   * package. The limits are today's counts: a new public type is a decision, made here on purpose.
   * The largest package is the values the cache reports ({@code stats}: snapshots and the results
   * of actions, each one record a user reads, never implements); the facade keeps its actions,
   * configuration and policies.
   */
  static final Map<String, Integer> API_TYPES = Map.of(
      "org.pagecache", 10,
      "org.pagecache.stats", 13,
      "org.pagecache.store", 11,
      "org.pagecache.counters", 7,
      "org.pagecache.admin", 1,
      "org.pagecache.metrics", 1);

  @Test
  void theApiHasNoMorePublicTypesPerPackageThanDecided() throws IOException {
    // A deprecated type is a former name kept so that users' web.xml files still deploy, not surface to learn.
    Map<String, List<String>> byPackage = new TreeMap<>();
    for (Class<?> t : apiTypes()) {
      if (!t.isAnnotationPresent(Deprecated.class)) {
        byPackage.computeIfAbsent(t.getPackageName(), p -> new ArrayList<>()).add(t.getName());
      }
    }
    List<String> over = new ArrayList<>();
    byPackage.forEach((pkg, types) -> {
      if (types.size() > API_TYPES.getOrDefault(pkg, 0)) {
        over.add(pkg + ": " + types.size() + " public types (limit " + API_TYPES.getOrDefault(pkg, 0) + "): " + types);
      }
    });
    assertEquals(List.of(), over, "public API types past the decided limits");
  }

  @Test
  void theAdminPackageShowsOnlyItsServlet() throws IOException {
    List<String> adminTypes = apiTypes().stream().filter(t -> t.getPackageName().equals("org.pagecache.admin"))
        .map(Class::getSimpleName).toList();
    assertEquals(List.of("PageCacheAdminServlet"), adminTypes);
  }

  private static boolean visible(int modifiers) {
    return Modifier.isPublic(modifiers) || Modifier.isProtected(modifiers);
  }

  private static void check(List<String> leaks, Class<?> owner, String member, Type type) {
    if (type != null && type.getTypeName().contains("org.pagecache.internal.")) {
      leaks.add(owner.getName() + "." + member + ": " + type.getTypeName());
    }
  }

  /** The public types of API packages a user can reach (nested ones only inside public types). */
  private static List<Class<?>> apiTypes() throws IOException {
    List<Class<?>> out = new ArrayList<>();
    try (Stream<Path> files = Files.walk(classes)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".class")).toList()) {
        String name = classes.relativize(file).toString().replace(file.getFileSystem().getSeparator(), ".");
        name = name.substring(0, name.length() - ".class".length());
        if (name.endsWith("package-info") || !API.contains(name.substring(0, name.lastIndexOf('.')))) {
          continue;
        }
        Class<?> type = load(name);
        if (reachable(type)) {
          out.add(type);
        }
      }
    }
    out.sort((a, b) -> a.getName().compareTo(b.getName()));
    return out;
  }

  private static boolean reachable(Class<?> type) {
    for (Class<?> t = type; t != null; t = t.getEnclosingClass()) {
      if (!Modifier.isPublic(t.getModifiers()) || t.isAnonymousClass() || t.isLocalClass() || t.isSynthetic()) {
        return false;
      }
    }
    return true;
  }

  private static Class<?> load(String name) {
    try {
      return Class.forName(name, false, ArchitectureTest.class.getClassLoader());
    } catch (ClassNotFoundException | LinkageError e) {
      throw new AssertionError("cannot load " + name, e);
    }
  }

  /** The shortest path from {@code start} back to itself, or null. */
  private static List<String> cycleThrough(String start) {
    Map<String, String> cameFrom = new TreeMap<>();
    List<String> frontier = new ArrayList<>(List.of(start));
    Set<String> seen = new HashSet<>();
    while (!frontier.isEmpty()) {
      List<String> next = new ArrayList<>();
      for (String from : frontier) {
        for (String to : imports.getOrDefault(from, Set.of())) {
          if (to.equals(start)) {
            List<String> path = new ArrayList<>(List.of(start));
            for (String p = from; !p.equals(start); p = cameFrom.get(p)) {
              path.add(1, p);
            }
            path.add(start);
            return path;
          }
          if (seen.add(to)) {
            cameFrom.put(to, from);
            next.add(to);
          }
        }
      }
      frontier = next;
    }
    return null;
  }

  /** org.pagecache package → the other org.pagecache packages it uses, from jdeps. */
  static Map<String, Set<String>> packageImports(Path classes) throws URISyntaxException {
    ToolProvider jdeps = ToolProvider.findFirst("jdeps")
        .orElseThrow(() -> new AssertionError("jdeps is missing: run the tests on a JDK"));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int exit = jdeps.run(new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
        "-verbose:package", "-filter:none", "-include", "org\\.pagecache\\..*|org\\.pagecache", classes.toString());
    assertEquals(0, exit, () -> "jdeps failed: " + err.toString(StandardCharsets.UTF_8));
    Map<String, Set<String>> graph = new TreeMap<>();
    for (String line : out.toString(StandardCharsets.UTF_8).split("\n")) {
      String[] t = line.trim().split("\\s+");
      if (t.length >= 3 && t[1].equals("->") && t[0].startsWith("org.pagecache")) {
        Set<String> tos = graph.computeIfAbsent(t[0], k -> new TreeSet<>());
        if (t[2].startsWith("org.pagecache") && !t[2].equals(t[0])) {
          tos.add(t[2]);
        }
      }
    }
    assertTrue(graph.containsKey("org.pagecache.internal.key"), () -> "jdeps said: " + out);
    return graph;
  }
}
