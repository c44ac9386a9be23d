package org.pagecache.internal.config;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** {@code refreshed-by=} patterns: the meaning the Spring Boot starter gave them with Spring's PathPattern. */
class PathPatternsTest {
  @Test
  void oneStarIsOneSegmentAndTwoAreAnyDepth() {
    assertTrue(PathPatterns.matches("/pets/*", "/pets/3"));
    assertFalse(PathPatterns.matches("/pets/*", "/pets"));
    assertFalse(PathPatterns.matches("/pets/*", "/pets/"));
    assertFalse(PathPatterns.matches("/pets/*", "/pets/3/visits"));
    assertTrue(PathPatterns.matches("/owners/**", "/owners"));
    assertTrue(PathPatterns.matches("/owners/**", "/owners/7/edit"));
    assertFalse(PathPatterns.matches("/owners/**", "/ownersx/7"));
    assertTrue(PathPatterns.matches("/owners/{ownerId}/pets/**", "/owners/7/pets/new"));
    assertFalse(PathPatterns.matches("/owners/{ownerId}/pets/**", "/owners/7/visits"));
    assertTrue(PathPatterns.matches("/blog/{*rest}", "/blog/a/b"));
    assertTrue(PathPatterns.matches("/roller-ui/authoring/entry*.rol", "/roller-ui/authoring/entryEdit!save.rol"));
    assertTrue(PathPatterns.matches("/a/?.rol", "/a/x.rol"));
    assertFalse(PathPatterns.matches("/a/?.rol", "/a/xy.rol"));
    assertTrue(PathPatterns.matches("/exact", "/exact"));
    assertFalse(PathPatterns.matches("/exact", "/exact/more"));
  }

  @Test
  void aHostileSegmentCostsLinearTimeWhateverTheStars() {
    String segment = "a".repeat(100_000);
    assertFalse(PathPatterns.matches("/*a*a*a*a*a*a*a*a*b", "/" + segment));
  }

  @Test
  void badPatternsFailNamingTheParameterAndTheSyntax() {
    for (String bad : new String[] {"owners/**", "/owners/**/pets", "/a/b**", "/a/{id", "/a/x{id}", "/a b"}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> PathPatterns.check("policies[list].refreshed-by", bad), bad);
      assertTrue(e.getMessage().startsWith("policies[list].refreshed-by: '" + bad + "' is not a path pattern ("),
          e.getMessage());
      assertTrue(e.getMessage().contains("/dir/** (any depth)"), e.getMessage());
    }
  }
}
