package org.pagecache.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.pagecache.PageCacheConfig;
import org.springframework.boot.json.JsonParserFactory;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

class EnvironmentSettingsTest {
  private static StandardEnvironment environment(Map<String, Object> properties, Map<String, Object> variables) {
    StandardEnvironment env = new StandardEnvironment();
    env.getPropertySources().remove(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME);
    env.getPropertySources().remove(StandardEnvironment.SYSTEM_PROPERTIES_PROPERTY_SOURCE_NAME);
    // As Spring Boot orders them: the environment variables above application.properties.
    env.getPropertySources().addLast(new SystemEnvironmentPropertySource(
        StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, variables));
    env.getPropertySources().addLast(new MapPropertySource("application.properties", properties));
    return env;
  }

  @Test
  void theEnvironmentVariablesOfTheConventionWinOverApplicationProperties() {
    StandardEnvironment env = environment(Map.of("pagecache.ttl", "5m", "pagecache.header", "X-Page"),
        Map.of("PAGECACHE_TTL", "7m", "PAGECACHE_MEMCACHED_OP_TIMEOUT", "300ms"));

    PageCacheConfig config = EnvironmentSettings.config(env, "", null, null);

    assertEquals("7m", config.value("ttl"));
    assertEquals("300ms", config.value("memcached.op.timeout"));
    assertEquals("X-Page", config.value("header"));
  }

  @Test
  void aBadValueFailsWithTheFiltersMessage() {
    StandardEnvironment env = environment(Map.of("pagecache.ttl", "5 minutes"), Map.of());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> EnvironmentSettings.config(env, "", null, null));
    assertTrue(e.getMessage().contains("ttl: '5 minutes' is not a duration"), e.getMessage());
  }

  @Test
  void aMisspeltPropertyFailsNamingItAndWhereItCameFrom() {
    StandardEnvironment env = environment(Map.of("pagecache.memcached.server", "10.0.0.1:11211"), Map.of());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> EnvironmentSettings.checkNames(env));
    assertTrue(e.getMessage().startsWith("unknown PageCache properties: pagecache.memcached.server (in application.properties)"),
        e.getMessage());
    assertTrue(e.getMessage().contains("pagecache.memcached.servers"), e.getMessage());
  }

  @Test
  void kebabAndCamelCaseNamesAreTheDottedParameter() {
    StandardEnvironment env = environment(
        Map.of("pagecache.near-trust", "2s", "pagecache.memcachedOpTimeout", "300ms", "pagecache.max-entry.size", "500k"),
        Map.of());

    PageCacheConfig config = EnvironmentSettings.config(env, "", null, null);

    assertEquals("2s", config.value("near.trust"));
    assertEquals("300ms", config.value("memcached.op.timeout"));
    assertEquals("500k", config.value("max.entry.size"));
    EnvironmentSettings.checkNames(env); // every spelling is a known name
  }

  @Test
  void aListIsJoinedWithTheParametersSeparator() {
    Map<String, Object> yaml = new HashMap<>();
    yaml.put("pagecache.cookies.ignore[0]", "_ga");
    yaml.put("pagecache.cookies.ignore[1]", "consent*");
    yaml.put("pagecache.policies[0]", "legacy: paths=/legacy/*, ttl=2m");
    yaml.put("pagecache.policies[1]", "other: paths=/other/*");
    StandardEnvironment env = environment(yaml, Map.of());

    assertEquals("_ga,consent*", EnvironmentSettings.value(env, "cookies.ignore"));
    assertEquals("legacy: paths=/legacy/*, ttl=2m; other: paths=/other/*", EnvironmentSettings.value(env, "policies"));
    EnvironmentSettings.checkNames(env); // list elements are elements of a known name
  }

  @Test
  void anEnvironmentVariableStillWinsOverAnotherSpelling() {
    StandardEnvironment env = environment(Map.of("pagecache.near-trust", "2s"), Map.of("PAGECACHE_NEAR_TRUST", "3s"));
    assertEquals("3s", EnvironmentSettings.config(env, "", null, null).value("near.trust"));
  }

  @Test
  void aMisspeltKebabCaseNameStillFails() {
    StandardEnvironment env = environment(Map.of("pagecache.near-trusts", "2s"), Map.of());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> EnvironmentSettings.checkNames(env));
    assertTrue(e.getMessage().startsWith("unknown PageCache properties: pagecache.near-trusts (in application.properties)"),
        e.getMessage());
  }

  @Test
  void unannotatedIsBypassOrCache() {
    assertEquals(false, EnvironmentSettings.cacheUnannotated(environment(Map.of(), Map.of())));
    assertEquals(true, EnvironmentSettings.cacheUnannotated(environment(Map.of("pagecache.unannotated", "cache"), Map.of())));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> EnvironmentSettings.cacheUnannotated(environment(Map.of("pagecache.unannotated", "yes"), Map.of())));
    assertTrue(e.getMessage().startsWith("pagecache.unannotated: 'yes' is not bypass"), e.getMessage());
  }

  /** The IDE completes what the starter reads: every parameter of the filter, with its default. */
  @Test
  @SuppressWarnings("unchecked")
  void theConfigurationMetadataDescribesEveryParameter() throws Exception {
    String text;
    try (InputStream in = getClass().getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    // Spring Boot's own parser: Boot 3 and 4 bring different Jackson lines.
    List<Map<String, Object>> properties = (List<Map<String, Object>>) JsonParserFactory.getJsonParser().parseMap(text).get("properties");
    Map<String, Map<String, Object>> byName = new HashMap<>();
    properties.forEach(p -> byName.put((String) p.get("name"), p));
    PageCacheConfig.parameters().forEach((name, defaultValue) -> {
      Map<String, Object> p = byName.get("pagecache." + name);
      assertTrue(p != null, "pagecache." + name + " is missing from the metadata");
      assertTrue(!String.valueOf(p.get("description")).isBlank(), name);
      assertEquals(defaultValue, p.containsKey("defaultValue") ? String.valueOf(p.get("defaultValue")) : "", name);
    });
    EnvironmentSettings.STARTER_PROPERTIES.forEach(name ->
        assertTrue(byName.containsKey("pagecache." + name), "pagecache." + name + " is missing from the metadata"));
  }

}
