package org.pagecache.internal.key;

import org.pagecache.internal.text.KeyParts;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.pagecache.store.Keys;
import org.pagecache.store.Namespace;

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

  /** The key with its kind letter ({@code pc1:X:...}) blanked: what is left when kinds are ignored. */
  private static String withoutKind(String key) {
    assertEquals(':', key.charAt(3), key);
    assertEquals(':', key.charAt(5), key);
    return key.substring(0, 4) + "_" + key.substring(5);
  }

  @Test
  void keyKindsNeverCollide() {
    String canonical = PageKey.canonical("http", "example.com", 80, "/a", null, List.of());
    String page = ns.page("article", canonical);
    // Names crafted so that every kind's key reads like the page key apart from the kind letter.
    String lookAlike = "article:" + KeyParts.hashed(canonical);
    String token = ns.token(lookAlike);
    String tag = ns.tag(lookAlike);
    String views = ns.views(lookAlike);
    for (String other : List.of(token, tag, views)) {
      assertEquals(withoutKind(page), withoutKind(other), "the crafted input is as close as it gets");
    }
    // A page key long enough to be hashed by every kind: lock, token, tag, views and visitor keys
    // of it are the same hash, apart from the kind letter.
    String longPage = ns.page("h".repeat(40), canonical);
    List<String> ofLongPage = List.of(ns.lock(longPage), ns.token(longPage), ns.tag(longPage),
        ns.views(longPage), ns.visitor(longPage));
    for (String other : ofLongPage) {
      assertEquals(withoutKind(ns.lock(longPage)), withoutKind(other), "the crafted input is as close as it gets");
    }
    List<String> keys = new ArrayList<>(List.of(page, token, tag, views, longPage, ns.lock(page), ns.onlineBucket(1)));
    keys.addAll(ofLongPage);
    Set<String> distinct = new HashSet<>(keys);
    assertEquals(keys.size(), distinct.size(), "every kind of key is distinct: " + keys);

    // Readable text that spells another text's hash form stays apart from it.
    String unreadable = "abc \u00e9";
    assertEquals(KeyParts.hashed(unreadable), KeyParts.part(unreadable));
    assertNotEquals(KeyParts.part(unreadable), KeyParts.part(KeyParts.hashed(unreadable)));
    assertTrue(KeyParts.part("plain-name").startsWith("r."));
    assertTrue(KeyParts.part("with space").startsWith("h."));
  }

  @Test
  void noUrlOrHandlerNameMakesAPageKeyEqualToALockOrTokenKey() {
    String target = ns.page("article", PageKey.canonical("http", "example.com", 80, "/a", null, List.of()));
    String lock = ns.lock(target);
    String token = ns.token("article");
    // Handler names and URLs that carry the lock and token prefixes, or whole lock and token keys.
    List<String> handlers = List.of("article", lock, token, lock.substring(6), token.substring(6), "pc" + Namespace.FORMAT + ":l:", "pc" + Namespace.FORMAT + ":t:");
    Set<String> pages = new HashSet<>();
    Set<String> locksAndTokens = new HashSet<>(List.of(lock, token));
    for (String handler : handlers) {
      locksAndTokens.add(ns.token(handler));
      for (String path : List.of("/" + lock, "/" + token, "/pc" + Namespace.FORMAT + ":l:", "/pc" + Namespace.FORMAT + ":t:article", "/a")) {
        pages.add(ns.page(handler, PageKey.canonical("http", "example.com", 80, path, null, List.of())));
        pages.add(ns.page(handler, PageKey.canonical("http", "example.com", 80, path, "k=" + lock + "&t=" + token,
            List.of())));
      }
    }
    pages.forEach(p -> locksAndTokens.add(ns.lock(p)));
    assertEquals(handlers.size() * 5 * 2, pages.size(), "every handler and URL is its own page");
    Set<String> both = new HashSet<>(pages);
    both.retainAll(locksAndTokens);
    assertTrue(both.isEmpty(), "page keys equal to lock or token keys: " + both);
  }

  @Test
  void aBadNamespaceIsRefusedByName() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new Namespace("a b"));
    assertTrue(e.getMessage().startsWith("namespace: 'a b'"));
  }
}
