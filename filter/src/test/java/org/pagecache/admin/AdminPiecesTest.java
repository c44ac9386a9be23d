package org.pagecache.admin;

import org.pagecache.internal.html.Html;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The small pure parts of the admin page: escaping, Bearer parsing, slab stats, the chart. */
class AdminPiecesTest {

  @Test
  void htmlEscapingCoversTextAndQuotedAttributes() {
    assertEquals("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;q&quot;",
        Html.escape("<script>alert('x')</script> & \"q\""));
    assertEquals("a\uFFFDb", Html.escape("a\u0000b"));
    assertEquals("plain", Html.escape("plain"));
    assertEquals("", Html.escape(null));
  }

  @Test
  void bearerTokenIsTakenOnlyFromTheBearerScheme() {
    assertEquals("abc", Access.bearerToken("Bearer abc"));
    assertEquals("abc", Access.bearerToken("bearer  abc "));
    assertNull(Access.bearerToken("Basic ZWRpdG9yOmVkaXRvcg=="));
    assertNull(Access.bearerToken("Bearer"));
    assertNull(Access.bearerToken(null));
  }

  @Test
  void secretsCompareByContent() {
    assertTrue(Access.sameSecret("s3cret", "s3cret"));
    assertFalse(Access.sameSecret("s3cret", "s3cret "));
    assertFalse(Access.sameSecret("", "s3cret"));
  }

  @Test
  void slabClassesAreParsedFromMemcached16StatsSlabs() {
    Map<String, String> slabs = stats(
        "1:chunk_size", "96", "1:chunks_per_page", "10922", "1:total_pages", "1", "1:total_chunks", "10922",
        "1:used_chunks", "3", "12:chunk_size", "1184", "12:chunks_per_page", "885", "12:total_pages", "2",
        "12:used_chunks", "900", "active_slabs", "2", "total_malloced", "3145728");
    List<SlabClass> classes = SlabClass.parse(slabs);
    assertEquals(List.of(1, 12), classes.stream().map(SlabClass::id).toList());
    assertEquals(96L * 10922, classes.get(0).allocatedBytes());
    assertEquals(3 * 96, classes.get(0).usedBytes());
    assertEquals(2L * 885 * 1184, classes.get(1).allocatedBytes());
  }

  @Test
  void memRequestedIsTheUsedFigureWhenAnOlderMemcachedReportsIt() {
    SlabClass c = SlabClass.parse(Map.of("5:chunk_size", "240", "5:used_chunks", "10", "5:mem_requested", "2000")).get(0);
    assertEquals(2000, c.usedBytes());
  }

  @Test
  void chartHasOneBarPairPerClassAndEscapesTheServerName() {
    List<SlabClass> classes = SlabClass.parse(stats("1:chunk_size", "96", "1:chunks_per_page", "10", "1:total_pages", "1",
        "1:used_chunks", "5", "2:chunk_size", "120", "2:chunks_per_page", "8", "2:total_pages", "1", "2:used_chunks", "8"));
    String svg = SlabChart.svg("<evil>", classes);
    assertTrue(svg.startsWith("<svg"));
    assertEquals(4, svg.split("<rect ", -1).length - 1);
    assertFalse(svg.contains("<evil>"));
    assertTrue(svg.contains("&lt;evil&gt;"));
  }

  private static Map<String, String> stats(String... keyValues) {
    Map<String, String> m = new HashMap<>();
    for (int i = 0; i < keyValues.length; i += 2) {
      m.put(keyValues[i], keyValues[i + 1]);
    }
    return m;
  }
}
