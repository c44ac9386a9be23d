package org.pagecache.key;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.pagecache.store.Keys;

class PageKeyTest {
  private final Namespace ns = new Namespace("pc");

  private String key(String path, String query, List<String[]> vary) {
    return ns.page("article", PageKey.canonical("http", "Example.com", 80, path, query, vary));
  }

  @Test
  void parameterOrderDoesNotChangeTheKey() {
    assertEquals(key("/a", "a=1&b=2", List.of()), key("/a", "b=2&a=1", List.of()));
    assertEquals(key("/a", "a=1&&b=2", List.of()), key("/a", "b=2&a=1", List.of()));
    assertNotEquals(key("/a", "a=1&b=2", List.of()), key("/a", "a=1&b=3", List.of()));
  }

  @Test
  void theOrderOfARepeatedParametersValuesIsPartOfThePage() {
    assertNotEquals(key("/a", "t=a&t=b", List.of()), key("/a", "t=b&t=a", List.of()));
    assertEquals(key("/a", "t=a&x=1&t=b", List.of()), key("/a", "x=1&t=a&t=b", List.of()));
  }

  @Test
  void hostIsCaseInsensitiveAndVariedHeadersCount() {
    assertEquals(key("/a", null, List.of()),
        ns.page("article", PageKey.canonical("HTTP", "example.COM", 80, "/a", null, List.of())));
    assertNotEquals(key("/a", null, List.<String[]>of(new String[] {"accept-language", "de"})),
        key("/a", null, List.<String[]>of(new String[] {"accept-language", "fr"})));
  }

  @Test
  void partsCannotBeShiftedIntoEachOther() {
    assertNotEquals(key("/a|b", "c", List.of()), key("/a", "b|c", List.of()));
  }

  @Test
  void anyInputGivesAValidBoundedKey() {
    String hostile = "/" + "\u0000\n\r \u00e9\u4e2d".repeat(3000);
    String k = key(hostile, "q=" + "x".repeat(10_000), List.<String[]>of(new String[] {"x", "\u0001"}));
    assertTrue(Keys.isValid(k), k);
    assertTrue(Keys.isValid(ns.token("servlet name with spaces \u00e9")));
    assertTrue(Keys.isValid(ns.tag("x".repeat(5000))));
    assertTrue(Keys.isValid(ns.lock(k)));
  }

  @Test
  void keyKindsNeverCollide() {
    assertNotEquals(ns.token("a"), ns.tag("a"));
    assertNotEquals(ns.views("a"), ns.tag("a"));
    assertNotEquals(KeyParts.part("h.abc"), KeyParts.part("abc" + "\u00e9"));
    assertTrue(KeyParts.part("plain-name").startsWith("r."));
    assertTrue(KeyParts.part("with space").startsWith("h."));
  }

  @Test
  void aBadNamespaceIsRefusedByName() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new Namespace("a b"));
    assertTrue(e.getMessage().startsWith("namespace: 'a b'"));
  }
}
