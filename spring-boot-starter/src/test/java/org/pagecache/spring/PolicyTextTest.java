package org.pagecache.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PolicyTextTest {
  private static Map<String, String> methods(String... nameSpec) {
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 0; i < nameSpec.length; i += 2) {
      m.put(nameSpec[i], nameSpec[i + 1]);
    }
    return m;
  }

  @Test
  void withoutConfigurationOnlyTheAnnotatedHandlersAreEnabled() {
    assertEquals("default: enabled=false; article: enabled=true, ttl=5m",
        PolicyText.merge(methods("article", "enabled=true, ttl=5m"), null));
  }

  @Test
  void theApplicationsEntryForAnAnnotatedHandlerComesLastSoItWins() {
    assertEquals("default: enabled=false; article: enabled=true, ttl=5m, ttl=10m",
        PolicyText.merge(methods("article", "enabled=true, ttl=5m"), "article: ttl=10m"));
  }

  @Test
  void aHandlerNamedOnlyInTheConfigurationIsOptedIn() {
    assertEquals("default: enabled=false; legacy: enabled=true, paths=/legacy/*",
        PolicyText.merge(methods(), "legacy: paths=/legacy/*"));
  }

  @Test
  void theApplicationsDefaultEntryIsMergedIntoTheDisabledDefault() {
    assertEquals("default: enabled=false, ttl=2m; article: enabled=true",
        PolicyText.merge(methods("article", "enabled=true"), "default: ttl=2m"));
  }

  @Test
  void anUnreadableEntryIsPassedOnForTheFilterToName() {
    assertEquals("default: enabled=false; nonsense", PolicyText.merge(methods(), "nonsense"));
  }
}
