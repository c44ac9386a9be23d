package org.pagecache.internal.store;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import com.esotericsoftware.kryo.util.Pool;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Encodes {@link StoredPage} with Kryo behind a format-version byte. Kryo is not thread-safe, so
 * instances come from a {@link Pool} (a pool rather than a ThreadLocal: a ThreadLocal can pin the
 * webapp class loader after a redeploy).
 *
 * <p>Decoding never throws: bytes that are not a current-format entry (garbage written under our
 * key, an older format) decode to null, a cache miss that the next build overwrites. Such misses are
 * logged at most once per key per minute.
 */
public final class PageCodec {
  /** First byte of every entry; bump on any change of the layout below. */
  static final byte FORMAT_VERSION = 2;
  private static final int REGISTRATION_ID = 20;
  private static final long LOG_INTERVAL_MILLIS = 60_000;
  private static final int MAX_LOGGED_KEYS = 10_000;
  private static final Logger log = LoggerFactory.getLogger(PageCodec.class);

  private final Pool<Kryo> kryos = new Pool<>(true, false, 64) {
    @Override
    protected Kryo create() {
      Kryo kryo = new Kryo();
      kryo.setRegistrationRequired(true);
      kryo.setReferences(false);
      kryo.register(StoredPage.class, new PageSerializer(), REGISTRATION_ID);
      return kryo;
    }
  };
  /** When each undecodable key was last logged; bounded by Caffeine (keys come from memcached). */
  private final Map<String, Long> lastLogged =
      Caffeine.newBuilder().maximumSize(MAX_LOGGED_KEYS).executor(Runnable::run).<String, Long>build().asMap();
  private final Clock clock;
  /** Warnings logged so far: lets tests check the rate limit without capturing log output. */
  private final LongAdder warnings = new LongAdder();

  public PageCodec() {
    this(Clock.systemUTC());
  }

  /** With the clock that times the log rate limit (tests move it by hand). */
  PageCodec(Clock clock) {
    this.clock = clock;
  }

  /** How many undecodable-entry warnings were logged (for tests of the once-per-key-per-minute limit). */
  long warningsLogged() {
    return warnings.sum();
  }

  public byte[] encode(StoredPage page) {
    Kryo kryo = kryos.obtain();
    try {
      Output output = new Output(page.body().length + 512, -1);
      output.writeByte(FORMAT_VERSION);
      kryo.writeObject(output, page);
      return output.toBytes();
    } finally {
      kryos.free(kryo);
    }
  }

  /** The page, or null when the bytes are not a page of the current format. */
  public StoredPage decode(String key, byte[] bytes) {
    return bytes == null ? null : decode(key, bytes, 0);
  }

  /** The page encoded from {@code offset} to the end of {@code bytes}, or null (an envelope around a page, IdentityCopies). */
  StoredPage decode(String key, byte[] bytes, int offset) {
    if (bytes.length <= offset || bytes[offset] != FORMAT_VERSION) {
      undecodable(key, "unknown format");
      return null;
    }
    Kryo kryo = kryos.obtain();
    try {
      Input input = new Input(bytes, offset + 1, bytes.length - offset - 1);
      StoredPage page = kryo.readObject(input, StoredPage.class);
      if (input.position() != bytes.length) {
        undecodable(key, "trailing bytes");
        return null;
      }
      return page;
    } catch (KryoException | IllegalArgumentException | IndexOutOfBoundsException
        | NegativeArraySizeException | OutOfMemoryError e) {
      undecodable(key, e.getClass().getSimpleName());
      return null;
    } finally {
      kryos.free(kryo);
    }
  }

  private void undecodable(String key, String why) {
    long now = clock.millis();
    Long last = lastLogged.get(key);
    if (last != null && now - last < LOG_INTERVAL_MILLIS) {
      return;
    }
    lastLogged.put(key, now);
    warnings.increment();
    log.warn("pagecache: undecodable entry under {} ({}): treated as a miss, will be rebuilt", key, why);
  }

  /**
   * Hand-written layout of one small DTO: explicit, versioned by {@link #FORMAT_VERSION}, no
   * reflection and no java.* types beyond String and byte[]. Lengths are bounded so a hostile
   * value cannot make us allocate gigabytes.
   */
  private static final class PageSerializer extends Serializer<StoredPage> {
    private static final int MAX_LIST = 10_000;

    @Override
    public void write(Kryo kryo, Output out, StoredPage p) {
      out.writeVarInt(p.status(), true);
      writeHeaders(out, p.headers());
      out.writeVarInt(p.body().length, true);
      out.writeBytes(p.body());
      out.writeBoolean(p.gzipped());
      writeText(out, p.etag());
      out.writeVarLong(p.builtAtMillis(), true);
      out.writeVarLong(p.freshUntilMillis(), true);
      out.writeVarLong(p.buildMillis(), true);
      out.writeVarLong(p.token(), true);
      out.writeVarInt(p.tags().size(), true);
      for (StoredPage.TagVersion t : p.tags()) {
        writeText(out, t.tag());
        out.writeVarLong(t.version(), true);
      }
      out.writeVarInt(p.viewKeys().size(), true);
      for (String k : p.viewKeys()) {
        writeText(out, k);
      }
      out.writeBoolean(p.placeholders());
      writeHeaders(out, p.vary());
      out.writeBoolean(p.uncacheableReason() != null);
      if (p.uncacheableReason() != null) {
        writeText(out, p.uncacheableReason());
      }
      out.writeBoolean(p.mustRevalidate());
      out.writeVarInt(p.refusals(), true);
    }

    @Override
    public StoredPage read(Kryo kryo, Input in, Class<? extends StoredPage> type) {
      int status = in.readVarInt(true);
      List<StoredPage.Header> headers = readHeaders(in);
      byte[] body = in.readBytes(bounded(in.readVarInt(true), remaining(in)));
      boolean gzipped = in.readBoolean();
      String etag = readText(in);
      long builtAt = in.readVarLong(true);
      long freshUntil = in.readVarLong(true);
      long buildMillis = in.readVarLong(true);
      long token = in.readVarLong(true);
      int tagCount = bounded(in.readVarInt(true), MAX_LIST);
      List<StoredPage.TagVersion> tags = new ArrayList<>(tagCount);
      for (int i = 0; i < tagCount; i++) {
        tags.add(new StoredPage.TagVersion(readText(in), in.readVarLong(true)));
      }
      int viewCount = bounded(in.readVarInt(true), MAX_LIST);
      List<String> viewKeys = new ArrayList<>(viewCount);
      for (int i = 0; i < viewCount; i++) {
        viewKeys.add(readText(in));
      }
      boolean placeholders = in.readBoolean();
      List<StoredPage.Header> vary = readHeaders(in);
      String uncacheable = in.readBoolean() ? readText(in) : null;
      boolean mustRevalidate = in.readBoolean();
      int refusals = bounded(in.readVarInt(true), MAX_LIST);
      return new StoredPage(status, headers, body, gzipped, etag, builtAt, freshUntil, buildMillis,
          token, tags, viewKeys, placeholders, vary, uncacheable, mustRevalidate, refusals);
    }

    private static void writeHeaders(Output out, List<StoredPage.Header> headers) {
      out.writeVarInt(headers.size(), true);
      for (StoredPage.Header h : headers) {
        writeText(out, h.name());
        writeText(out, h.value());
      }
    }

    private static List<StoredPage.Header> readHeaders(Input in) {
      int count = bounded(in.readVarInt(true), MAX_LIST);
      List<StoredPage.Header> headers = new ArrayList<>(count);
      for (int i = 0; i < count; i++) {
        headers.add(new StoredPage.Header(readText(in), readText(in)));
      }
      return headers;
    }

    /** Strings as length-prefixed UTF-8, so a garbage length is caught before anything is allocated. */
    private static void writeText(Output out, String s) {
      byte[] utf8 = s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
      out.writeVarInt(utf8.length, true);
      out.writeBytes(utf8);
    }

    private static String readText(Input in) {
      int n = bounded(in.readVarInt(true), remaining(in));
      return new String(in.readBytes(n), java.nio.charset.StandardCharsets.UTF_8);
    }

    private static int remaining(Input in) {
      return in.limit() - in.position();
    }

    private static int bounded(int n, int max) {
      if (n < 0 || n > max) {
        throw new KryoException("length out of range: " + n);
      }
      return n;
    }

  }
}
