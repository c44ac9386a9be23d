package org.pagecache.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** The evictions key of a page's handler, found from the page key alone (an eviction delivered from another cluster carries only the key). */
class NamespaceEvictionsTest {
  private final Namespace ns = new Namespace("pc");

  @Test
  void aPageKeyGivesItsHandlersEvictionsKey() {
    assertEquals(ns.evictions("article"), Namespace.evictionsOfPage(ns.page("article", "GET https://example.com/a?x=1")));
    // a handler name with colons stays readable in keys; the request part is always a hash without one
    assertEquals(ns.evictions("shop:item"), Namespace.evictionsOfPage(ns.page("shop:item", "GET https://example.com/i")));
    assertEquals(ns.evictions("h t m l"), Namespace.evictionsOfPage(ns.page("h t m l", "GET https://example.com/")));
  }

  @Test
  void otherKeysHaveNone() {
    assertNull(Namespace.evictionsOfPage(ns.token("article")));
    assertNull(Namespace.evictionsOfPage(ns.tag("news")));
    assertNull(Namespace.evictionsOfPage("garbage"));
  }
}
