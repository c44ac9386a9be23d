package org.pagecache.internal.key;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class IgnoredParametersTest {
  @Test
  void settingsAddNamesAndPatternsAndKeepNames() {
    IgnoredParameters p = IgnoredParameters.parse("params.ignore", "ref, cmp_*|x", "params.keep", "fbclid utm_id");
    assertTrue(p.ignored("ref"));
    assertTrue(p.ignored("cmp_anything"));
    assertTrue(p.ignored("gclid"));
    assertFalse(p.ignored("fbclid"));
    assertFalse(p.ignored("utm_id"));
    assertTrue(p.ignored("utm_source"));
    assertFalse(p.ignored("Ref"), "names are case-sensitive, as getParameter is");
    assertEquals(List.of("ref", "cmp_*", "x"), p.extra());
  }

  @Test
  void keepStarIgnoresNone() {
    IgnoredParameters p = IgnoredParameters.parse("params.ignore", "", "params.keep", "*");
    assertFalse(p.ignored("utm_source"));
    assertTrue(p.ignoresNone());
  }

  @Test
  void badNamesFailNamingTheSetting() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> IgnoredParameters.parse("params.ignore", "a=b", "params.keep", ""));
    assertTrue(e.getMessage().startsWith("params.ignore: 'a=b'"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class,
        () -> IgnoredParameters.parse("params.ignore", "", "params.keep", "x*"));
    assertTrue(e.getMessage().startsWith("params.keep: 'x*'"), e.getMessage());
  }

  @Test
  void segmentsAreMatchedOnTheirDecodedName() {
    IgnoredParameters p = IgnoredParameters.builtIn();
    assertTrue(p.ignoredSegment("utm%5Fsource=x"));
    assertTrue(p.ignoredSegment("fbclid"));
    assertFalse(p.ignoredSegment("page=2"));
    assertFalse(p.ignoredSegment("%zz=1"), "a name that does not decode matches nothing");
  }

  @Test
  void keyedParametersAreKeptPerHandler() {
    IgnoredParameters p = IgnoredParameters.builtIn().withoutEvidence();
    assertEquals(List.of("utm_source"), p.keep("landing", Set.of("utm_source")));
    assertEquals(List.of(), p.keep("landing", Set.of("utm_source")));
    assertEquals(Set.of("utm_source"), p.keyedBy("landing"));
    assertEquals(Set.of(), p.keyedBy("other"));
    assertTrue(p.hiddenFrom(Set.of()).test("utm_source"));
    assertFalse(p.hiddenFrom(Set.of("utm_source")).test("utm_source"));
  }

  @Test
  void queryWithoutDroppedSegments() {
    IgnoredParameters p = IgnoredParameters.builtIn();
    assertEquals("page=2&q=a", QueryParams.without("utm_source=x&page=2&fbclid=1&q=a", p::ignored));
    assertNull(QueryParams.without("utm_source=x", p::ignored));
    String same = "page=2";
    assertTrue(same == QueryParams.without(same, p::ignored));
    assertEquals("utm_source=a&utm_source=b", QueryParams.rawValues("utm_source=a&x=1&utm_source=b", "utm_source"));
    assertNull(QueryParams.rawValues("x=1", "utm_source"));
  }

  @Test
  void theKeyLeavesIgnoredSegmentsOut() {
    IgnoredParameters p = IgnoredParameters.builtIn();
    assertEquals(PageKey.canonical("http", "h", 80, "/a", "page=2", List.of()),
        PageKey.canonical("http", "h", 80, "/a", "gclid=1&page=2&utm_medium=x", p::ignoredSegment, List.of()));
  }
}
