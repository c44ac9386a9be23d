package org.pagecache.internal.text;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** One way to split a tag list, whichever header, form field or parameter it comes from. */
class TagListsTest {
  @Test
  void commasAndWhiteSpaceSeparateAndEmptiesAreDropped() {
    assertEquals(List.of("article:7", "section:sport", "home", "feed"),
        TagLists.split(" article:7, section:sport,,home\tfeed \n"));
    assertEquals(List.of(), TagLists.split(" , "));
    assertEquals(List.of(), TagLists.split(null));
  }
}
