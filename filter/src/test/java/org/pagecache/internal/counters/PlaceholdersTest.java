package org.pagecache.internal.counters;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.pagecache.counters.Counters;

class PlaceholdersTest {

  @Test
  void viewsAndOnlinePlaceholdersBecomePlainDigits() {
    String html = "<p>Views: <!--pagecache:views article:42--></p><p><!--pagecache:online--> online</p>";

    assertEquals("<p>Views: 1234</p><p>87 online</p>",
        Placeholders.render(html, Map.of("article:42", 1234L), 87));
  }

  @Test
  void theCachePlaceholderSaysHowThisResponseWasServed() {
    String html = "<footer>served: <!--pagecache:cache--></footer>";

    assertEquals("<footer>served: HIT</footer>", Placeholders.render(html, Map.of(), -1, "HIT"));
    assertEquals(html, Placeholders.render(html, Map.of(), -1),
        "left in place without a label, for the filter to fill when it sends the page");
    assertTrue(Placeholders.contains(html.getBytes(UTF_8)), "a page with it is stored with placeholders");
  }

  @Test
  void everyOccurrenceOfSeveralPlaceholdersIsFilled() {
    String html = "<!--pagecache:views a-->|<!--pagecache:views b/c.d_e-f-->|<!--pagecache:views a-->"
        + "|<!--pagecache:online-->|<!--pagecache:online-->";

    assertEquals("1|22|1|5|5", Placeholders.render(html, Map.of("a", 1L, "b/c.d_e-f", 22L), 5));
  }

  @Test
  void unknownOrUnavailableCountsRenderAsNothing() {
    String html = "[<!--pagecache:views missing-->][<!--pagecache:views down-->][<!--pagecache:online-->]";

    assertEquals("[][][]", Placeholders.render(html, Map.of("down", -1L), -1));
  }

  @Test
  void hostileOrMalformedPlaceholdersStayAsTheCommentsTheyAre() {
    String html = "<!--pagecache:views <script>alert(1)</script>-->"
        + "<!--pagecache:views a b-->"
        + "<!--pagecache:views -->"
        + "<!--pagecache:views " + "x".repeat(201) + "-->"
        + "<!--pagecache:views \"quoted\"-->"
        + "<!--PAGECACHE:online-->"
        + "<!--pagecache:online -->"
        + "<!--pagecache:views article:1"; // never closed

    assertEquals(html, Placeholders.render(html, Map.of("a", 1L, "a b", 2L, "article:1", 3L), 4));
    assertEquals(List.of(), Placeholders.viewKeys(html));
    assertFalse(Placeholders.wantsOnline(html));
  }

  @Test
  void theLongestKeyIsTwoHundredCharacters() {
    String key = "k".repeat(200);

    assertEquals("9", Placeholders.render("<!--pagecache:views " + key + "-->", Map.of(key, 9L), -1));
  }

  @Test
  void aKeyEndingInDashesStopsBeforeTheClosingDashes() {
    assertEquals("7", Placeholders.render("<!--pagecache:views a--->", Map.of("a-", 7L), -1));
  }

  @Test
  void viewKeysListsEachObjectOnceInOrderOfAppearance() {
    String html = "<!--pagecache:views b--><!--pagecache:online--><!--pagecache:views a--><!--pagecache:views b-->";

    assertEquals(List.of("b", "a"), Placeholders.viewKeys(html));
    assertTrue(Placeholders.wantsOnline(html));
  }

  @Test
  void aPageWithoutPlaceholdersIsReturnedAsItIs() {
    String html = "<html><!-- an ordinary comment --></html>";

    assertSame(html, Placeholders.render(html, Map.of(), 3));
    assertFalse(Placeholders.contains(html.getBytes(UTF_8)));
  }

  @Test
  void containsScansBytesOfUtf8Pages() {
    assertTrue(Placeholders.contains("Привет <!--pagecache:online-->".getBytes(UTF_8)));
    assertTrue(Placeholders.contains("<!--pagecache:".getBytes(UTF_8)), "the prefix at the very end");
    assertFalse(Placeholders.contains("<!--pagecache".getBytes(UTF_8)));
    assertFalse(Placeholders.contains("<<!--pagecach".getBytes(UTF_8)));
    assertFalse(Placeholders.contains(new byte[0]));
    assertFalse(Placeholders.contains(null));
  }

  @Test
  void aNullCountInTheMapRendersAsNothing() {
    Map<String, Long> views = new java.util.HashMap<>();
    views.put("a", null);

    assertEquals("()", Placeholders.render("(<!--pagecache:views a-->)", views, -1));
  }

  @Test
  void fillFetchesTheViewsShownInOneRoundTrip() {
    org.pagecache.store.LocalStore store = new org.pagecache.store.LocalStore();
    try (Counters counters = Counters.builder(store, new org.pagecache.store.Namespace("fill"))
        .source(key -> 10).build()) {
      counters.viewed("a");
      counters.viewed("b");
      long before = store.roundTrips();

      String page = Placeholders.fill("<!--pagecache:views a-->/<!--pagecache:views b-->", counters);

      assertEquals("11/11", page);
      assertEquals(1, store.roundTrips() - before);
    }
  }
}
