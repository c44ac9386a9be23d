package org.pagecache.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.pagecache.PageCacheConfig;
import org.pagecache.store.LocalStore;

class PolicyRulesTest {
  @Test
  void theStartersTagsAreTakenOutAndTheRestPassedOnRefreshedByIncluded() {
    PolicyRules r = PolicyRules.of("list: ttl=2m, refreshed-by=/owners/**|/pets/*; owner: tags=owner:{ownerId}, grace=1m");
    assertEquals("list: ttl=2m, refreshed-by=/owners/**|/pets/*; owner: grace=1m", r.forFilter(),
        "refreshed-by= is the filter's key (issue 39): one syntax, one place that refreshes");
    assertEquals(List.of("owner:{ownerId}"), r.tags().get("owner"));
  }

  @Test
  void aBadRefreshedByPatternFailsInTheFilterNamingTheHandler() {
    String forFilter = PolicyRules.of("list: refreshed-by=/owners/**/pets").forFilter();
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> PageCacheConfig.builder().ignoreEnvironment().store(new LocalStore()).set("policies", forFilter).build());
    assertTrue(e.getMessage().contains("policies[list].refreshed-by: '/owners/**/pets' is not a path pattern"),
        e.getMessage());
  }
}
