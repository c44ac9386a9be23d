package org.pagecache.internal.capture;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.zip.Deflater;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;

/** The pooled gzip codec reads and writes what the JDK's stream classes do, and refuses what they refuse. */
class GzipTest {
  private static final int BOUND = 1 << 20;

  @Test
  void everyBodyRoundTripsAndTheJdkReadsWhatIsWritten() throws IOException {
    SplittableRandom random = new SplittableRandom(29);
    for (int i = 0; i < 300; i++) {
      byte[] body = body(random, random.nextInt(i < 10 ? 3 : 40_000));
      byte[] gz = BodyEncoding.gzip(body);
      assertArrayEquals(body, BodyEncoding.gunzip(gz, BOUND), "round trip of " + body.length + " bytes");
      assertArrayEquals(body, new GZIPInputStream(new ByteArrayInputStream(gz)).readAllBytes(), "the JDK reads it");
      assertArrayEquals(body, BodyEncoding.gunzip(jdkGzip(body), BOUND), "it reads the JDK's");
    }
  }

  @Test
  void aBuildDeflatesAtTheFastestLevelAndSaysSo() {
    byte[] body = body(new SplittableRandom(38), 8192);
    Deflater fastest = new Deflater(Deflater.BEST_SPEED, true);
    fastest.setInput(body);
    fastest.finish();
    byte[] raw = new byte[body.length * 2];
    int n = 0;
    while (!fastest.finished()) {
      n += fastest.deflate(raw, n, raw.length - n);
    }
    fastest.end();

    byte[] gz = BodyEncoding.gzip(body);

    assertArrayEquals(Arrays.copyOf(raw, n), Arrays.copyOfRange(gz, 10, gz.length - 8), "level 1's deflate stream");
    assertEquals(4, gz[8], "XFL 4: compressed with the fastest algorithm (RFC 1952)");
  }

  @Test
  void severalMembersAreReadWhole() throws IOException {
    byte[] a = "first member, ".repeat(40).getBytes(StandardCharsets.UTF_8);
    byte[] b = "second member".repeat(40).getBytes(StandardCharsets.UTF_8);
    byte[] both = concat(BodyEncoding.gzip(a), BodyEncoding.gzip(b));
    assertArrayEquals(concat(a, b), BodyEncoding.gunzip(both, BOUND));
  }

  @Test
  void garbageTruncationAWrongChecksumAndAnOversizeBodyAreErrors() {
    byte[] body = "<p>a page</p>".repeat(500).getBytes(StandardCharsets.UTF_8);
    byte[] gz = BodyEncoding.gzip(body);
    assertThrows(IOException.class, () -> BodyEncoding.gunzip(Arrays.copyOf(gz, gz.length - 12), BOUND), "truncated");
    byte[] badCrc = gz.clone();
    badCrc[gz.length - 8] ^= 1;
    assertThrows(IOException.class, () -> BodyEncoding.gunzip(badCrc, BOUND), "wrong CRC");
    byte[] garbage = gz.clone();
    Arrays.fill(garbage, 10, 30, (byte) 0x55);
    assertThrows(IOException.class, () -> BodyEncoding.gunzip(garbage, BOUND), "garbage");
    assertThrows(IOException.class, () -> BodyEncoding.gunzip(gz, body.length - 1), "past the bound");
    byte[] lyingSize = gz.clone();
    lyingSize[gz.length - 4] = 1; // the trailer states another size: the general path judges, and refuses
    assertThrows(IOException.class, () -> BodyEncoding.gunzip(lyingSize, BOUND), "stated size differs");
  }

  private static byte[] body(SplittableRandom random, int n) {
    byte[] b = new byte[n];
    boolean text = random.nextBoolean();
    for (int i = 0; i < n; i++) {
      b[i] = (byte) (text ? "abcde <p>\n".charAt(random.nextInt(10)) : random.nextInt(256));
    }
    return b;
  }

  private static byte[] jdkGzip(byte[] body) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
      gz.write(body);
    }
    return out.toByteArray();
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] c = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, c, a.length, b.length);
    return c;
  }
}
