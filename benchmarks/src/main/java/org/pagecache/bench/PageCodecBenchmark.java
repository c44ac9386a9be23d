package org.pagecache.bench;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.pagecache.internal.store.StoredPage;
import org.pagecache.internal.store.PageCodec;

/**
 * Encoding and decoding one cached page entry with {@link PageCodec} (Kryo, hand-written layout),
 * against plain Java serialization of the same fields as a reference. Every hit pays one decode;
 * every build pays one encode.
 *
 * <p>Java serialization needs a {@link Serializable} type, which {@link StoredPage} deliberately is
 * not, so the reference serializes {@link JavaPage}, a mirror with the same fields.
 *
 * <pre>
 *   scripts/bench.sh                       # everything, and BENCHMARKS.md
 *   java -cp ... org.openjdk.jmh.Main PageCodecBenchmark -f 1 -wi 3 -i 5 -w 1s -r 1s
 * </pre>
 * Bytes stored per entry are not timings: {@link #entrySizes()} computes them for the report.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class PageCodecBenchmark {
  /** HTML sizes of the issue: 2 KB, 20 KB and 200 KB. */
  @Param({"2048", "20480", "204800"})
  int htmlBytes;

  @Param({"true", "false"})
  boolean gzipped;

  private final PageCodec codec = new PageCodec();
  private StoredPage page;
  private byte[] kryo;
  private JavaPage javaPage;
  private byte[] java;

  @Setup
  public void setUp() {
    page = BenchPages.entry(BenchPages.html(htmlBytes, 42), gzipped);
    kryo = codec.encode(page);
    javaPage = JavaPage.of(page);
    java = javaSerialize(javaPage);
  }

  @Benchmark
  public byte[] kryoEncode() {
    return codec.encode(page);
  }

  @Benchmark
  public StoredPage kryoDecode() {
    return codec.decode("bench", kryo);
  }

  @Benchmark
  public byte[] javaEncode() {
    return javaSerialize(javaPage);
  }

  @Benchmark
  public Object javaDecode() {
    return javaDeserialize(java);
  }

  /** One row of the "bytes stored" table. */
  public record EntrySize(int htmlBytes, boolean gzipped, int bodyBytes, int kryoBytes, int javaBytes) {}

  /** Bytes stored in memcached per entry, for every combination the benchmark runs. */
  public static List<EntrySize> entrySizes() {
    PageCodec codec = new PageCodec();
    List<EntrySize> sizes = new ArrayList<>();
    for (int html : new int[] {2048, 20480, 204800}) {
      for (boolean gz : new boolean[] {true, false}) {
        StoredPage p = BenchPages.entry(BenchPages.html(html, 42), gz);
        sizes.add(new EntrySize(html, gz, p.body().length, codec.encode(p).length,
            javaSerialize(JavaPage.of(p)).length));
      }
    }
    return sizes;
  }

  static byte[] javaSerialize(Object o) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(o);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  static Object javaDeserialize(byte[] bytes) {
    try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes))) {
      return in.readObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException(e);
    }
  }

  /** {@link StoredPage}'s fields in a Serializable record (lists as ArrayLists of Serializable records). */
  record JavaPage(int status, ArrayList<JavaHeader> headers, byte[] body, boolean gzipped, String etag,
      long builtAtMillis, long freshUntilMillis, long buildMillis, long token, ArrayList<JavaTag> tags,
      ArrayList<String> viewKeys, boolean placeholders, ArrayList<JavaHeader> vary, String uncacheableReason)
      implements Serializable {

    static JavaPage of(StoredPage p) {
      ArrayList<JavaHeader> headers = new ArrayList<>();
      p.headers().forEach(h -> headers.add(new JavaHeader(h.name(), h.value())));
      ArrayList<JavaTag> tags = new ArrayList<>();
      p.tags().forEach(t -> tags.add(new JavaTag(t.tag(), t.version())));
      ArrayList<JavaHeader> vary = new ArrayList<>();
      p.vary().forEach(h -> vary.add(new JavaHeader(h.name(), h.value())));
      return new JavaPage(p.status(), headers, p.body(), p.gzipped(), p.etag(), p.builtAtMillis(),
          p.freshUntilMillis(), p.buildMillis(), p.token(), tags, new ArrayList<>(p.viewKeys()),
          p.placeholders(), vary, p.uncacheableReason());
    }
  }

  record JavaHeader(String name, String value) implements Serializable {}

  record JavaTag(String tag, long version) implements Serializable {}
}
