package org.pagecache.internal.fragments;

import java.io.ByteArrayOutputStream;
import java.util.List;
import java.util.zip.CRC32;
import java.util.zip.Deflater;
import org.pagecache.internal.fragments.Placeholders.Placeholder;
import org.pagecache.internal.gzip.Pool;

/**
 * A page with placeholders, its static text deflated once, so a gzip client gets a gzip answer
 * with its own parts filled in without compressing the whole page on every serve.
 *
 * <p>The body is cut at its placeholders; each static segment is raw-deflated on its own by a fresh
 * {@link Deflater} ending with {@code SYNC_FLUSH}: a run of non-final blocks, byte-aligned, that
 * refers to nothing before it. Such runs can follow one another in one deflate stream, so a serve
 * is the 10-byte gzip header, the static runs interleaved with each part's own run, an empty final
 * block and the trailer (CRC-32 and length of the filled body): <b>one</b> gzip member (RFC 1952),
 * which every client reads, where concatenated members are not (some stop after the first).
 *
 * <p>A part under {@link #DEFLATE_PARTS_FROM} bytes goes in as a stored block (five bytes of
 * header, no work: a greeting or a count gains nothing from compression); a larger one is deflated
 * at level 1 by a pooled {@link Deflater}. The CRC-32 of the filled body is computed per serve
 * ({@link CRC32} is an intrinsic; tens of kilobytes cost microseconds).
 *
 * <pre>{@code
 * GzipShell shell = GzipShell.of(body, Placeholders.find(body));   // once per stored page
 * byte[] gz = shell.gzip(body, parts);                              // per serve: parts in page order
 * }</pre>
 */
public final class GzipShell {
  /** Parts from this size on are deflated; smaller ones (at most 64 KB, a stored block's limit) are stored as they are. */
  static final int DEFLATE_PARTS_FROM = 1024;
  /** 1f 8b, deflate, no flags, no mtime, no extra flags, OS unknown (RFC 1952 2.3). */
  private static final byte[] HEADER = {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, 0, (byte) 0xff};
  /** A final fixed-Huffman block holding only its end code: BFINAL 1, BTYPE 01, seven zero bits. */
  private static final byte[] FINAL_BLOCK = {0x03, 0x00};
  private static final Pool<Deflater> PART_DEFLATERS = Pool.deflaters(8, Deflater.BEST_SPEED);

  private final int length;
  private final List<Placeholder> placeholders;
  private final byte[][] statics; // placeholders.size() + 1 runs: before each placeholder, then after the last
  private final int staticBytes;

  private GzipShell(int length, List<Placeholder> placeholders, byte[][] statics) {
    this.length = length;
    this.placeholders = List.copyOf(placeholders);
    this.statics = statics;
    int sum = 0;
    for (byte[] s : statics) {
      sum += s.length;
    }
    this.staticBytes = sum;
  }

  /** Deflates the static text of {@code body} around {@code placeholders} (as {@link Placeholders#find} gives them). */
  public static GzipShell of(byte[] body, List<Placeholder> placeholders) {
    byte[][] statics = new byte[placeholders.size() + 1][];
    int from = 0;
    for (int i = 0; i <= placeholders.size(); i++) {
      int to = i < placeholders.size() ? placeholders.get(i).start() : body.length;
      Deflater d = new Deflater(Deflater.DEFAULT_COMPRESSION, true);
      try {
        statics[i] = deflate(d, body, from, to - from);
      } finally {
        d.end();
      }
      from = i < placeholders.size() ? placeholders.get(i).end() : body.length;
    }
    return new GzipShell(body.length, placeholders, statics);
  }

  /** The placeholders of the page, in page order: the parts {@link #gzip} takes are theirs. */
  public List<Placeholder> placeholders() {
    return placeholders;
  }

  /** The length of the body this shell was made from: a body of another length is another page. */
  public int length() {
    return length;
  }

  /** Bytes held, for a bounded cache. */
  public int weight() {
    return 64 + staticBytes + 48 * placeholders.size();
  }

  /**
   * One gzip member whose content is {@code body} with each placeholder replaced by its part.
   *
   * @param body  the page this shell was made from (its static text is hashed into the CRC)
   * @param parts one per placeholder, in page order; null keeps the placeholder's own text
   */
  public byte[] gzip(byte[] body, byte[][] parts) {
    if (body.length != length || parts.length != placeholders.size()) {
      throw new IllegalArgumentException("not the page this shell was made from");
    }
    CRC32 crc = new CRC32();
    byte[][] runs = new byte[parts.length][];
    long size = 0;
    int total = HEADER.length + staticBytes + FINAL_BLOCK.length + 8;
    int from = 0;
    for (int i = 0; i < parts.length; i++) {
      Placeholder p = placeholders.get(i);
      crc.update(body, from, p.start() - from);
      byte[] part = parts[i];
      int partFrom = part == null ? p.start() : 0;
      int partLength = part == null ? p.end() - p.start() : part.length;
      byte[] partSource = part == null ? body : part;
      crc.update(partSource, partFrom, partLength);
      runs[i] = encodePart(partSource, partFrom, partLength);
      total += runs[i].length;
      size += p.start() - from + partLength;
      from = p.end();
    }
    crc.update(body, from, body.length - from);
    size += body.length - from;

    byte[] out = new byte[total];
    int at = put(out, 0, HEADER);
    for (int i = 0; i < parts.length; i++) {
      at = put(out, at, statics[i]);
      at = put(out, at, runs[i]);
    }
    at = put(out, at, statics[parts.length]);
    at = put(out, at, FINAL_BLOCK);
    at = putIntLe(out, at, (int) crc.getValue());
    putIntLe(out, at, (int) size); // ISIZE: the length modulo 2^32
    return out;
  }

  /** A part as deflate blocks ending byte-aligned and non-final: stored when small, deflated at level 1 when large. */
  static byte[] encodePart(byte[] source, int from, int length) {
    if (length == 0) {
      return new byte[0];
    }
    if (length < DEFLATE_PARTS_FROM) {
      return stored(source, from, length);
    }
    Deflater d = PART_DEFLATERS.take();
    try {
      return deflate(d, source, from, length);
    } finally {
      d.reset(); // a fresh stream for the next part: it must not refer to this one
      PART_DEFLATERS.giveBack(d);
    }
  }

  /** A non-final stored block (RFC 1951 3.2.4), for a part under 64 KB: we are byte-aligned, so no padding bits. */
  private static byte[] stored(byte[] source, int from, int length) {
    byte[] out = new byte[5 + length];
    out[0] = 0; // BFINAL 0, BTYPE 00
    out[1] = (byte) length;
    out[2] = (byte) (length >>> 8);
    out[3] = (byte) ~length;
    out[4] = (byte) (~length >>> 8);
    System.arraycopy(source, from, out, 5, length);
    return out;
  }

  /** Raw deflate of the range, sync-flushed so the output ends on a byte and the stream is not finished. */
  private static byte[] deflate(Deflater d, byte[] source, int from, int length) {
    if (length == 0) {
      return new byte[0];
    }
    d.setInput(source, from, length);
    ByteArrayOutputStream out = new ByteArrayOutputStream(length / 3 + 64);
    byte[] buffer = new byte[Math.min(64 * 1024, length + 64)];
    int n;
    do {
      n = d.deflate(buffer, 0, buffer.length, Deflater.SYNC_FLUSH);
      out.write(buffer, 0, n);
    } while (n == buffer.length); // a full buffer may hold back more of the flush
    return out.toByteArray();
  }

  private static int put(byte[] out, int at, byte[] bytes) {
    System.arraycopy(bytes, 0, out, at, bytes.length);
    return at + bytes.length;
  }

  private static int putIntLe(byte[] out, int at, int value) {
    out[at] = (byte) value;
    out[at + 1] = (byte) (value >>> 8);
    out[at + 2] = (byte) (value >>> 16);
    out[at + 3] = (byte) (value >>> 24);
    return at + 4;
  }
}
