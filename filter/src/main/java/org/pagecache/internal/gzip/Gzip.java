package org.pagecache.internal.gzip;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.GZIPInputStream;
import java.util.zip.Inflater;

/**
 * gzip both ways without the stream classes' cost per call: a {@link Deflater} or {@link Inflater}
 * allocates zlib's native state (about 260 KB to deflate, 40 KB to inflate) when made, so a few are
 * kept and reused; a body is inflated straight into an array of the size its trailer states. A body
 * this class does not recognise as one gzip member (several members, odd flags, a size past the
 * bound) goes the general way of {@link GZIPInputStream}, so nothing valid is refused.
 */
public final class Gzip {
  private static final int POOLED = Math.max(4, 4 * Runtime.getRuntime().availableProcessors());
  /**
   * The level a build compresses at: 1, as nginx's {@code gzip_comp_level} by default. On 8 KB of
   * HTML it deflates in about 75 µs where level 6 (zlib's default) takes 190 µs, a quarter of a
   * build's CPU, for a body about 10 % larger (docs/freshness.md, "What a build costs").
   */
  static final int LEVEL = Deflater.BEST_SPEED;
  private static final Pool<Deflater> DEFLATERS = Pool.deflaters(POOLED, LEVEL);
  private static final Pool<Inflater> INFLATERS = new Pool<>(POOLED, () -> new Inflater(true), Inflater::end);
  /** ID1 ID2 CM(deflate) FLG(none) MTIME(0) XFL(4: the fastest level, RFC 1952) OS(unknown). */
  private static final byte[] HEADER = {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, 4, (byte) 0xff};
  private static final int TRAILER = 8;

  private Gzip() {}

  /** One gzip member of the body, deflated at {@link #LEVEL}. */
  public static byte[] compress(byte[] body) {
    Deflater d = DEFLATERS.take();
    try {
      d.setInput(body);
      d.finish();
      byte[] out = new byte[HEADER.length + body.length / 3 + 64];
      System.arraycopy(HEADER, 0, out, 0, HEADER.length);
      int n = HEADER.length;
      while (!d.finished()) {
        if (n == out.length) {
          out = Arrays.copyOf(out, out.length * 2);
        }
        n += d.deflate(out, n, out.length - n);
      }
      CRC32 crc = new CRC32();
      crc.update(body);
      out = Arrays.copyOf(out, n + TRAILER);
      putIntLe(out, n, (int) crc.getValue());
      putIntLe(out, n + 4, body.length);
      return out;
    } finally {
      d.reset();
      DEFLATERS.giveBack(d);
    }
  }

  /** The body of a gzip stream, at most {@code maxBytes} bytes; anything else is an IOException. */
  public static byte[] decompress(byte[] gz, int maxBytes) throws IOException {
    int size = gz.length >= HEADER.length + TRAILER ? intLe(gz, gz.length - 4) : -1;
    boolean plain = size >= 0 && size <= maxBytes && (gz[0] & 0xff) == 0x1f && (gz[1] & 0xff) == 0x8b && gz[2] == 8
        && gz[3] == 0;
    if (!plain) {
      return general(gz, maxBytes);
    }
    Inflater inf = INFLATERS.take();
    try {
      inf.setInput(gz, HEADER.length, gz.length - HEADER.length);
      byte[] out = new byte[size];
      int n = 0;
      while (n < size && !inf.finished()) {
        int got = inf.inflate(out, n, size - n);
        if (got == 0 && (inf.needsInput() || inf.needsDictionary())) {
          break;
        }
        n += got;
      }
      if (n < size || !inf.finished() && !finishesEmpty(inf) || inf.getRemaining() != TRAILER) {
        return general(gz, maxBytes); // not exactly one member of the stated size: let the stream classes judge
      }
      CRC32 crc = new CRC32();
      crc.update(out);
      if ((int) crc.getValue() != intLe(gz, gz.length - TRAILER)) {
        throw new IOException("gzip body: CRC mismatch");
      }
      return out;
    } catch (DataFormatException e) {
      throw new IOException("gzip body: " + e.getMessage(), e);
    } finally {
      inf.reset();
      INFLATERS.giveBack(inf);
    }
  }

  /** After exactly {@code size} bytes the stream may still hold its final empty block. */
  private static boolean finishesEmpty(Inflater inf) throws DataFormatException {
    byte[] none = new byte[1];
    return inf.inflate(none) == 0 && inf.finished();
  }

  private static byte[] general(byte[] gz, int maxBytes) throws IOException {
    try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(gz), 8192)) {
      byte[] out = in.readNBytes(maxBytes + 1);
      if (out.length > maxBytes) {
        throw new IOException("gzip body inflates beyond " + maxBytes + " bytes");
      }
      return out;
    }
  }

  private static int intLe(byte[] b, int at) {
    return (b[at] & 0xff) | (b[at + 1] & 0xff) << 8 | (b[at + 2] & 0xff) << 16 | (b[at + 3] & 0xff) << 24;
  }

  private static void putIntLe(byte[] b, int at, int v) {
    b[at] = (byte) v;
    b[at + 1] = (byte) (v >>> 8);
    b[at + 2] = (byte) (v >>> 16);
    b[at + 3] = (byte) (v >>> 24);
  }
}
