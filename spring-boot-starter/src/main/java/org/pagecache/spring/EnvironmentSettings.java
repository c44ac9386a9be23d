package org.pagecache.spring;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.pagecache.PageCacheConfig;
import org.pagecache.counters.CountSink;
import org.pagecache.counters.CountSource;
import org.springframework.boot.context.properties.bind.BindResult;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.PropertySourcesPlaceholdersResolver;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.core.env.Environment;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.StandardEnvironment;

/**
 * The filter's parameters read from Spring's {@link Environment} as {@code pagecache.<name>}:
 * application.properties or .yml, system properties, and the environment variables of the
 * convention ({@code PAGECACHE_MEMCACHED_SERVERS} is {@code pagecache.memcached.servers} to
 * Spring as to the filter), with Spring's precedence, which is the filter's.
 *
 * <p>Names bind as Spring Boot's own properties do (relaxed binding): {@code pagecache.near.trust},
 * {@code pagecache.near-trust} and {@code pagecache.nearTrust} are one setting, and a list
 * ({@code pagecache.cookies.ignore[0]=_ga}, a YAML sequence) is joined with the parameter's
 * separator ({@code ;} between policies, {@code ,} elsewhere). The first property source that
 * holds any spelling wins, so an environment variable still beats application.properties.
 */
final class EnvironmentSettings {
  /** The starter's own properties, beside the filter's. */
  static final Set<String> STARTER_PROPERTIES = Set.of("enabled", "unannotated", "admin.path", "filter.order");

  private static final ConfigurationPropertyName PREFIX = ConfigurationPropertyName.of("pagecache");

  private EnvironmentSettings() {}

  static PageCacheConfig config(Environment env, String policies, CountSource source, CountSink sink) {
    PageCacheConfig.Builder builder = PageCacheConfig.builder().ignoreEnvironment(); // Spring's Environment has them
    for (String name : PageCacheConfig.parameters().keySet()) {
      String value = name.equals("policies") ? policies : value(env, name);
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

  /**
   * {@code pagecache.<name>} in any of its spellings, a list joined; null when no property source
   * has it.
   */
  static String value(Environment env, String name) {
    PropertySourcesPlaceholdersResolver placeholders = new PropertySourcesPlaceholdersResolver(env);
    for (ConfigurationPropertySource source : ConfigurationPropertySources.get(env)) {
      Binder binder = new Binder(List.of(source), placeholders);
      for (ConfigurationPropertyName key : spellings(name)) {
        BindResult<String> scalar = binder.bind(key, Bindable.of(String.class));
        if (scalar.isBound()) {
          return scalar.get();
        }
        BindResult<List<String>> list = binder.bind(key, Bindable.listOf(String.class));
        if (list.isBound()) {
          return String.join(name.equals("policies") ? "; " : ",", list.get());
        }
      }
    }
    return null;
  }

  /**
   * The names a parameter may be written as: its words joined by dots or by hyphens, in any mix
   * ({@code near.trust}, {@code near-trust}); camel case and upper case are the same names to
   * Spring's {@link ConfigurationPropertyName}.
   */
  static Set<ConfigurationPropertyName> spellings(String name) {
    String[] words = name.split("\\.");
    Set<ConfigurationPropertyName> out = new LinkedHashSet<>();
    for (int joints = 0; joints < 1 << (words.length - 1); joints++) {
      StringBuilder s = new StringBuilder("pagecache.").append(words[0]);
      for (int i = 1; i < words.length; i++) {
        s.append((joints & 1 << (i - 1)) == 0 ? '.' : '-').append(words[i]);
      }
      out.add(ConfigurationPropertyName.of(s.toString()));
    }
    return out;
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
   * Fails on a {@code pagecache.*} property that is neither a filter parameter nor the starter's,
   * in any spelling: a misspelt {@code pagecache.memcached.server} would otherwise leave the cache
   * on the in-process store without a word. Environment variables are not checked (their names
   * are shared with the whole machine).
   */
  static void checkNames(Environment env) {
    Set<String> known = new TreeSet<>(PageCacheConfig.parameters().keySet());
    known.addAll(STARTER_PROPERTIES);
    Set<ConfigurationPropertyName> spelt = new LinkedHashSet<>();
    known.forEach(name -> spelt.addAll(spellings(name)));
    List<String> unknown = new ArrayList<>();
    for (ConfigurationPropertySource source : ConfigurationPropertySources.get(env)) {
      if (!(source instanceof IterableConfigurationPropertySource names)
          || (source.getUnderlyingSource() instanceof PropertySource<?> p
              && p.getName().equals(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME))) {
        continue;
      }
      names.stream().filter(PREFIX::isAncestorOf).forEach(n -> {
        ConfigurationPropertyName setting = n;
        while (setting.isLastElementIndexed()) { // cookies.ignore[0] is an element of cookies.ignore
          setting = setting.getParent();
        }
        if (!spelt.contains(setting)) {
          unknown.add(n + " (in " + where(source) + ")");
        }
      });
    }
    if (!unknown.isEmpty()) {
      throw new IllegalArgumentException("unknown PageCache properties: " + String.join(", ", unknown)
          + "; the properties are pagecache." + String.join(", pagecache.", known));
    }
  }

  private static String where(ConfigurationPropertySource source) {
    return source.getUnderlyingSource() instanceof PropertySource<?> p ? p.getName() : String.valueOf(source);
  }
}
