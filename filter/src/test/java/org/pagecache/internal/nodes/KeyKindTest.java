package org.pagecache.internal.nodes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;
import org.pagecache.store.Namespace;

/** Where a key may live while its node is down, read from its kind letter; a page's identity copy is placed as the page. */
class KeyKindTest {
  private final Namespace ns = new Namespace("pc");
  private final KeyKind.Classifier kinds = new KeyKind.Classifier(ns);

  @Test
  void pagesTheirIdentityCopiesAndLocksMayGoToTheGutter() {
    String page = ns.page("article", "GET http://example.org/a");
    assertEquals(KeyKind.GUTTERABLE, kinds.of(page));
    assertEquals(KeyKind.GUTTERABLE, kinds.of(Namespace.identityCopyOf(page)));
    assertEquals(KeyKind.GUTTERABLE, kinds.of(ns.lock(page)));
    assertEquals(KeyKind.CONTROL, kinds.of(ns.token("article")));
    assertEquals(KeyKind.NODE_ONLY, kinds.of(ns.views("article:1")));
    assertEquals(KeyKind.NODE_ONLY, kinds.of("other:p:x"));
  }

  @Test
  void anIdentityCopyIsPlacedWithItsHandlersPages() {
    String page = ns.page("article", "GET http://example.org/a");
    assertEquals(kinds.handlerPartOfPage(page), kinds.handlerPartOfPage(Namespace.identityCopyOf(page)));
    assertEquals("r.article", kinds.handlerPartOfPage(Namespace.identityCopyOf(page)));
    assertNull(kinds.handlerPartOfPage(ns.token("article")));
  }
}
