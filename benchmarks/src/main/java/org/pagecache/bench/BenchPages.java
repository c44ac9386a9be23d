package org.pagecache.bench;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.SplittableRandom;
import org.pagecache.internal.capture.BodyEncoding;
import org.pagecache.internal.store.StoredPage;
import org.pagecache.internal.store.StoredPage.Header;

/**
 * The pages every benchmark uses: deterministic HTML of a given size that compresses like a real
 * page (words drawn from a vocabulary with a Zipf-like skew, inside ordinary markup), not like a
 * repeated sentence (which gzips 100:1 and flatters every number that depends on size).
 */
public final class BenchPages {
  private static final String[] WORDS = ("the of and to in is was for on that with as by at from his "
      + "her an are be this which or had not but have were one all their they has new more been "
      + "after who would also when two its first there other over about some time can city into "
      + "only people most such world year between state than under during these government school "
      + "council market station history season album company police national county village river "
      + "university minister railway football championship election population district festival")
      .split(" ");

  private BenchPages() {}

  /** An HTML page of exactly {@code bytes} bytes (UTF-8, ASCII only); the same seed gives the same page. */
  public static byte[] html(int bytes, long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    StringBuilder sb = new StringBuilder(bytes + 256);
    sb.append("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Page ").append(seed)
        .append("</title><link rel=\"stylesheet\" href=\"/static/site.css\"></head><body>\n")
        .append("<nav><a href=\"/\">Home</a> <a href=\"/news\">News</a> <a href=\"/sport\">Sport</a></nav>\n");
    int paragraph = 0;
    while (sb.length() < bytes) {
      sb.append("<h2 id=\"s").append(paragraph).append("\">").append(words(random, 4)).append("</h2>\n<p>");
      sb.append(words(random, 40 + random.nextInt(60)));
      sb.append(" <a href=\"/article/").append(random.nextInt(100_000)).append("\">")
          .append(words(random, 3)).append("</a>.</p>\n");
      paragraph++;
    }
    String end = "</body></html>\n";
    sb.setLength(Math.max(0, bytes - end.length()));
    sb.append(end);
    return sb.toString().getBytes(StandardCharsets.US_ASCII);
  }

  /** The entry PageCache stores for this body: the headers a handler typically sets, a token, no tags. */
  public static StoredPage entry(byte[] identity, boolean gzipped) {
    byte[] body = gzipped ? BodyEncoding.gzip(identity) : identity;
    long now = 1_700_000_000_000L;
    return new StoredPage(200,
        List.of(new Header("Content-Type", "text/html;charset=UTF-8"),
            new Header("Cache-Control", "public, max-age=60"),
            new Header("Last-Modified", "Tue, 14 Nov 2023 22:13:20 GMT")),
        body, gzipped, BodyEncoding.etag(identity), now, now + 60_000, 48, now - 3_600_000,
        List.of(), List.of(), false, List.of(), null);
  }

  private static String words(SplittableRandom random, int n) {
    StringBuilder sb = new StringBuilder(n * 7);
    for (int i = 0; i < n; i++) {
      if (i > 0) {
        sb.append(' ');
      }
      // Squaring a uniform skews towards the first (common) words, as in running text.
      double u = random.nextDouble();
      sb.append(WORDS[(int) (u * u * WORDS.length)]);
    }
    return sb.toString();
  }
}
