package org.pagecache.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TagTemplatesTest {
  @Test
  void variablesAreTheNamesInBracesOfTemplatesAndPathPatterns() {
    assertEquals(Set.of("ownerId", "petId"), TagTemplates.variables("/owners/{ownerId}/pets/{petId:\\d+}"));
    assertEquals(Set.of("path"), TagTemplates.variables("/files/{*path}"));
    assertEquals(Set.of(), TagTemplates.variables("owners"));
  }

  @Test
  void aTemplateIsExpandedWithTheRequestsValuesUrlEncoded() {
    assertEquals("owner:7", TagTemplates.expand("owner:{ownerId}", Map.of("ownerId", "7")));
    assertEquals("pet:7/Max+Power%2C+Jr", TagTemplates.expand("pet:{ownerId}/{name}", Map.of("ownerId", "7", "name", "Max Power, Jr")));
  }

  @Test
  void aMissingVariableIsAnError() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> TagTemplates.expand("owner:{ownerId}", Map.of()));
    assertEquals("tag 'owner:{ownerId}': no URI variable 'ownerId' in []", e.getMessage());
  }
}
