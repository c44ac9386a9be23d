package org.pagecache.spring;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.pagecache.PageCacheConfig;
import org.pagecache.counters.CountSink;
import org.pagecache.counters.CountSource;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.EnumerablePropertySource;
import org.springframework.core.env.Environment;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.StandardEnvironment;

/**
 * The filter's parameters read from Spring's {@link Environment} as {@code pagecache.<name>}:
 * application.properties or .yml, system properties, and the environment variables of the
 * convention ({@code PAGECACHE_MEMCACHED_SERVERS} is {@code pagecache.memcached.servers} to
 * Spring as to the filter), with Spring's precedence, which is the filter's.
 */
final class EnvironmentSettings {
  /** The starter's own properties, beside the filter's. */
  static final Set<String> STARTER_PROPERTIES = Set.of("enabled", "unannotated", "admin.path", "filter.order");

  private EnvironmentSettings() {}

  static PageCacheConfig config(Environment env, String policies, CountSource source, CountSink sink) {
    PageCacheConfig.Builder builder = PageCacheConfig.builder().ignoreEnvironment(); // Spring's Environment has them
    for (String name : PageCacheConfig.parameters().keySet()) {
      String value = name.equals("policies") ? policies : env.getProperty("pagecache." + name);
      if (value != null) {
        builder.set(name, value);
      }
    }
    if (source != null) {
      builder.countSource(source);
    }
    if (sink != null) {
      builder.countSink(sink);
    }
    return builder.build();
  }

  /** {@code pagecache.unannotated}: whether controller methods without @CachedPage are cached. */
  static boolean cacheUnannotated(Environment env) {
    String v = env.getProperty("pagecache.unannotated", "bypass").trim();
    return switch (v) {
      case "bypass" -> false;
      case "cache" -> true;
      default -> throw new IllegalArgumentException("pagecache.unannotated: '" + v
          + "' is not bypass (methods without @CachedPage are never cached) or cache (they are, with the default policy)");
    };
  }

  /**
   * Fails on a {@code pagecache.*} property that is neither a filter parameter nor the starter's:
   * a misspelt {@code pagecache.memcached.server} would otherwise leave the cache on the
   * in-process store without a word. Environment variables are not checked (their names are
   * shared with the whole machine).
   */
  static void checkNames(Environment env) {
    if (!(env instanceof ConfigurableEnvironment configurable)) {
      return;
    }
    Set<String> known = new TreeSet<>(PageCacheConfig.parameters().keySet());
    known.addAll(STARTER_PROPERTIES);
    List<String> unknown = new ArrayList<>();
    for (PropertySource<?> source : configurable.getPropertySources()) {
      if (!(source instanceof EnumerablePropertySource<?> e)
          || source.getName().equals(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME)) {
        continue;
      }
      for (String name : e.getPropertyNames()) {
        if (name.startsWith("pagecache.") && !known.contains(name.substring("pagecache.".length()))) {
          unknown.add(name + " (in " + source.getName() + ")");
        }
      }
    }
    if (!unknown.isEmpty()) {
      throw new IllegalArgumentException("unknown PageCache properties: " + String.join(", ", unknown)
          + "; the properties are pagecache." + String.join(", pagecache.", known));
    }
  }
}
