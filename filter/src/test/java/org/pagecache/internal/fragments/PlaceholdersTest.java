package org.pagecache.internal.fragments;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import java.nio.charset.StandardCharsets;
import org.pagecache.internal.fragments.Placeholders.Kind;
import org.pagecache.internal.fragments.Placeholders.Placeholder;

class PlaceholdersTest {

  @Test
  void viewsAndOnlinePlaceholdersBecomePlainDigits() {
    String html = "<p>Views: <!--pagecache:views article:42--></p><p><!--pagecache:online--> online</p>";

    assertEquals("<p>Views: 1234</p><p>87 online</p>",
        render(html, Map.of("article:42", 1234L), 87));
  }

  @Test
  void theCachePlaceholderSaysHowThisResponseWasServed() {
    String html = "<footer>served: <!--pagecache:cache--></footer>";

    assertEquals("<footer>served: HIT</footer>", render(html, Map.of(), -1, "HIT"));
    assertEquals(html, render(html, Map.of(), -1),
        "left in place without a label, for the filter to fill when it sends the page");
    assertTrue(Placeholders.contains(html.getBytes(UTF_8)), "a page with it is stored with placeholders");
  }

  @Test
  void everyOccurrenceOfSeveralPlaceholdersIsFilled() {
    String html = "<!--pagecache:views a-->|<!--pagecache:views b/c.d_e-f-->|<!--pagecache:views a-->"
        + "|<!--pagecache:online-->|<!--pagecache:online-->";

    assertEquals("1|22|1|5|5", render(html, Map.of("a", 1L, "b/c.d_e-f", 22L), 5));
  }

  @Test
  void unknownOrUnavailableCountsRenderAsNothing() {
    String html = "[<!--pagecache:views missing-->][<!--pagecache:views down-->][<!--pagecache:online-->]";

    assertEquals("[][][]", render(html, Map.of("down", -1L), -1));
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

    assertEquals(html, render(html, Map.of("a", 1L, "a b", 2L, "article:1", 3L), 4));
    assertEquals(List.of(), viewKeys(html));
    assertFalse(wantsOnline(html));
  }

  @Test
  void theLongestKeyIsTwoHundredCharacters() {
    String key = "k".repeat(200);

    assertEquals("9", render("<!--pagecache:views " + key + "-->", Map.of(key, 9L), -1));
  }

  @Test
  void aKeyEndingInDashesStopsBeforeTheClosingDashes() {
    assertEquals("7", render("<!--pagecache:views a--->", Map.of("a-", 7L), -1));
  }

  @Test
  void viewKeysListsEachObjectOnceInOrderOfAppearance() {
    String html = "<!--pagecache:views b--><!--pagecache:online--><!--pagecache:views a--><!--pagecache:views b-->";

    assertEquals(List.of("b", "a"), viewKeys(html));
    assertTrue(wantsOnline(html));
  }

  @Test
  void aPageWithoutPlaceholdersIsReturnedAsItIs() {
    String html = "<html><!-- an ordinary comment --></html>";

    assertSame(html, render(html, Map.of(), 3));
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

    assertEquals("()", render("(<!--pagecache:views a-->)", views, -1));
  }

  @Test
  void fragmentsAreFilledInPageOrderAmongTheCounters() {
    String html = "<header><!--pagecache:fragment greeting--></header><!--pagecache:views a-->"
        + "<aside><!--pagecache:fragment cart--></aside><!--pagecache:fragment greeting-->";
    List<String> calls = new java.util.ArrayList<>();

    byte[] out = Placeholders.render(html.getBytes(UTF_8), Placeholders.find(html.getBytes(UTF_8)), p -> {
      calls.add(p.kind() + " " + p.arg());
      return p.kind() == Kind.FRAGMENT ? ("[" + p.arg() + " " + calls.size() + "]").getBytes(UTF_8) : "7".getBytes(UTF_8);
    });

    assertEquals("<header>[greeting 1]</header>7<aside>[cart 3]</aside>[greeting 4]", new String(out, UTF_8));
    assertEquals(List.of("FRAGMENT greeting", "VIEWS a", "FRAGMENT cart", "FRAGMENT greeting"), calls);
  }

  @Test
  void aFragmentMarkerIsWhatTheScannerFinds() {
    String marker = Placeholders.fragment("user-menu_2.x");

    assertEquals("<!--pagecache:fragment user-menu_2.x-->", marker);
    List<Placeholder> found = Placeholders.find(("é" + marker).getBytes(UTF_8));
    assertEquals(List.of(new Placeholder(2, 2 + marker.length(), Kind.FRAGMENT, "user-menu_2.x")), found);
    for (String bad : new String[] {"", "a b", "<x>", "x".repeat(65), null, "a--"}) {
      if (bad != null && bad.equals("a--")) {
        continue; // dashes are allowed in a name
      }
      org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> Placeholders.fragment(bad));
    }
    assertEquals(List.of(), Placeholders.find("<!--pagecache:fragment a b--><!--pagecache:fragment -->".getBytes(UTF_8)));
  }

  /** The counters' placeholders through the general mechanism, as the filter fills them. */
  private static String render(String html, Map<String, Long> views, long online, String cache) {
    byte[] body = html.getBytes(UTF_8);
    List<Placeholder> found = Placeholders.find(body);
    if (found.isEmpty()) {
      return html;
    }
    return new String(Placeholders.render(body, found, p -> switch (p.kind()) {
      case VIEWS -> digits(views.get(p.arg()));
      case ONLINE -> digits(online);
      case CACHE -> cache == null ? null : cache.getBytes(UTF_8);
      case FRAGMENT -> null;
    }), UTF_8);
  }

  private static String render(String html, Map<String, Long> views, long online) {
    return render(html, views, online, null);
  }

  private static byte[] digits(Long v) {
    return v == null || v < 0 ? new byte[0] : Long.toString(v).getBytes(StandardCharsets.US_ASCII);
  }

  private static List<String> viewKeys(String html) {
    return Placeholders.viewKeys(Placeholders.find(html.getBytes(UTF_8)));
  }

  private static boolean wantsOnline(String html) {
    return Placeholders.wantsOnline(Placeholders.find(html.getBytes(UTF_8)));
  }
}
