package org.pagecache.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.zip.DataFormatException;
import java.util.zip.GZIPInputStream;
import java.util.zip.Inflater;

/** Reads a gzip body two ways: as a client library does, and as a client that reads one member only. */
public final class GzipMembers {
  private GzipMembers() {}

  /** {@link GZIPInputStream}: checks the trailer's CRC-32 and length. */
  public static byte[] gunzip(byte[] gzip) {
    try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(gzip))) {
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * An {@link Inflater} over the deflate stream after the 10-byte header (no optional fields): the
   * stream must end with exactly the 8-byte trailer after it, so the body is one gzip member.
   */
  public static byte[] inflateOneMember(byte[] gzip) {
    assertTrue(gzip.length >= 20, "too short for a gzip member: " + gzip.length);
    assertEquals(0x1f, gzip[0] & 0xff);
    assertEquals(0x8b, gzip[1] & 0xff);
    assertEquals(0, gzip[3], "no optional fields");
    Inflater inflater = new Inflater(true);
    try {
      inflater.setInput(gzip, 10, gzip.length - 10);
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      byte[] buffer = new byte[8192];
      for (int guard = 0; !inflater.finished() && guard < 100_000; guard++) {
        int n = inflater.inflate(buffer);
        assertTrue(n > 0 || !inflater.needsInput(), "the stream ended before its final block");
        out.write(buffer, 0, n);
      }
      assertTrue(inflater.finished());
      assertEquals(8, inflater.getRemaining(), "one member: only the trailer after the final block");
      return out.toByteArray();
    } catch (DataFormatException e) {
      throw new AssertionError("not a deflate stream: " + e.getMessage(), e);
    } finally {
      inflater.end();
    }
  }
}
