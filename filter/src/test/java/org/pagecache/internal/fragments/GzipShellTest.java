package org.pagecache.internal.fragments;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.pagecache.testing.GzipMembers.gunzip;
import static org.pagecache.testing.GzipMembers.inflateOneMember;

import java.io.ByteArrayOutputStream;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.pagecache.internal.fragments.Placeholders.Placeholder;

/**
 * A page's static text deflated once and its parts per serve make one gzip member that inflates to
 * exactly the filled-in page: checked over random bodies, placeholders (at the start, at the end,
 * side by side) and parts (empty, kept as the placeholder, small and stored, large and deflated).
 */
class GzipShellTest {

  @Test
  void randomPagesAndPartsInflateToExactlyThePageFilledIn() {
    Random random = new Random(30);
    for (int round = 0; round < 400; round++) {
      int placeholders = random.nextInt(6);
      ByteArrayOutputStream page = new ByteArrayOutputStream();
      for (int i = 0; i <= placeholders; i++) {
        page.writeBytes(text(random, random.nextInt(4) == 0 ? 0 : random.nextInt(6000))); // 0: adjacent, or at an end
        if (i < placeholders) {
          page.writeBytes(Placeholders.fragment("f" + i).getBytes(UTF_8));
        }
      }
      byte[] body = page.toByteArray();
      List<Placeholder> found = Placeholders.find(body);
      assertEquals(placeholders, found.size());
      byte[][] parts = new byte[placeholders][];
      for (int i = 0; i < placeholders; i++) {
        int kind = random.nextInt(5);
        parts[i] = kind == 0 ? null : kind == 1 ? new byte[0]
            : kind == 2 ? text(random, 2000 + random.nextInt(20_000)) : text(random, 1 + random.nextInt(1100));
      }
      int[] next = {0};
      byte[] expected = Placeholders.render(body, found, p -> parts[next[0]++]);

      byte[] gzip = GzipShell.of(body, found).gzip(body, parts);

      assertArrayEquals(expected, gunzip(gzip), "round " + round);
      assertArrayEquals(expected, inflateOneMember(gzip), "round " + round);
    }
  }

  @Test
  void aPageWithoutPlaceholdersOrEmptyIsOneMemberToo() {
    for (String page : List.of("", "<p>no placeholder here</p>".repeat(40), Placeholders.fragment("only"))) {
      byte[] body = page.getBytes(UTF_8);
      List<Placeholder> found = Placeholders.find(body);
      byte[][] parts = new byte[found.size()][];
      java.util.Arrays.fill(parts, "x".getBytes(UTF_8));
      byte[] expected = page.replace(Placeholders.fragment("only"), "x").getBytes(UTF_8);

      byte[] gzip = GzipShell.of(body, found).gzip(body, parts);

      assertArrayEquals(expected, gunzip(gzip));
      assertArrayEquals(expected, inflateOneMember(gzip));
    }
  }

  @Test
  void theStaticTextIsDeflatedOnceAndKeptByTheEntityTagOfThePage() {
    byte[] body = ("<header>" + Placeholders.fragment("greeting") + "</header>" + "<p>static text</p>".repeat(500))
        .getBytes(UTF_8);
    GzipShells shells = new GzipShells(GzipShells.DEFAULT_MAX_BYTES);

    GzipShell shell = shells.of("tag-1", body);

    assertSame(shell, shells.of("tag-1", body), "made once per page, not per serve");
    assertTrue(shell.weight() < body.length / 4, "the static text is held compressed: " + shell.weight());
    byte[] other = java.util.Arrays.copyOf(body, body.length + 1);
    assertEquals(other.length, shells.of("tag-1", other).length(), "another body under the same tag is not mixed up");
  }

  /** Printable text with some of every byte value, compressible as a page is. */
  private static byte[] text(Random random, int length) {
    byte[] out = new byte[length];
    String words = "the page static parts shared by every visitor of the group ";
    for (int i = 0; i < length; i++) {
      out[i] = random.nextInt(50) == 0 ? (byte) random.nextInt(256) : (byte) words.charAt(random.nextInt(words.length()));
    }
    return out;
  }
}
