package org.pagecache.internal.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.pagecache.internal.config.Specs.Item;

/** The one grammar of one-line settings: what each splitter gives, whatever the spacing. */
class SpecsTest {
  @Test
  void keyValuesAreTrimmedAndBlankItemsSkipped() {
    assertEquals(List.of(new Item("ttl", "5m", "ttl=5m"), new Item("vary", "Accept-Language", "vary = Accept-Language")),
        Specs.keyValues(" ttl=5m,, vary = Accept-Language , "));
  }

  @Test
  void aValueKeepsEverythingAfterTheFirstSeparator() {
    assertEquals(new Item("cookies", "vary:lang|theme", "cookies=vary:lang|theme"),
        Specs.keyValues("cookies=vary:lang|theme").get(0));
    assertEquals(new Item("article", "ttl=5m, paths=/a/*", "article: ttl=5m, paths=/a/*"),
        Specs.namedSpecs("article: ttl=5m, paths=/a/*").get(0));
  }

  @Test
  void namedSpecsAreSeparatedBySemicolonsOrLineBreaks() {
    List<Item> items = Specs.namedSpecs("article: ttl=5m; home: ttl=1m\nsearch: enabled=false");
    assertEquals(List.of("article", "home", "search"), items.stream().map(Item::name).toList());
  }

  @Test
  void anItemWithoutItsSeparatorOrNameIsNotWellFormed() {
    Item bare = Specs.keyValues("ttl").get(0);
    assertEquals("ttl", bare.name());
    assertEquals(null, bare.value());
    assertFalse(bare.wellFormed());
    assertFalse(Specs.keyValues("=5m").get(0).wellFormed());
    assertFalse(Specs.namedSpecs(": ttl=5m").get(0).wellFormed());
    assertTrue(Specs.keyValues("ttl=").get(0).wellFormed(), "an empty value is the setting's business");
  }
}
