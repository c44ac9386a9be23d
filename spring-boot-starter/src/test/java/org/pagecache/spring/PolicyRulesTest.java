package org.pagecache.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class PolicyRulesTest {
  @Test
  void theStartersKeysAreTakenOutAndTheRestPassedOn() {
    PolicyRules r = PolicyRules.of("list: ttl=2m, refreshed-by=/owners/**|/pets/*; owner: tags=owner:{ownerId}, grace=1m");
    assertEquals("list: ttl=2m; owner: grace=1m", r.forFilter());
    assertEquals(List.of("owner:{ownerId}"), r.tags().get("owner"));
    assertEquals(List.of("list"), r.refreshedByWriteTo("/owners/7/edit"));
    assertEquals(List.of("list"), r.refreshedByWriteTo("/pets/3"));
    assertEquals(List.of(), r.refreshedByWriteTo("/vets"));
  }

  @Test
  void aBadPathPatternFailsNamingTheHandler() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> PolicyRules.of("list: refreshed-by=/owners/**/pets"));
    assertTrue(e.getMessage().startsWith("pagecache.policies: list: refreshed-by '/owners/**/pets' is not a path pattern"),
        e.getMessage());
  }
}
