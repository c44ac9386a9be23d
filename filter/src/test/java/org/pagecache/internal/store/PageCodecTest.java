package org.pagecache.internal.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.pagecache.internal.store.StoredPage.Header;
import org.pagecache.internal.store.StoredPage.TagVersion;
import org.pagecache.testing.MutableClock;

class PageCodecTest {
  private final PageCodec codec = new PageCodec();

  static StoredPage sample() {
    return sample("<html>héllo</html>".getBytes(StandardCharsets.UTF_8), false);
  }

  static StoredPage sample(byte[] body, boolean gzipped) {
    return new StoredPage(200, List.of(new Header("Content-Type", "text/html;charset=UTF-8"), new Header("X-A", "b")),
        body, gzipped, "etag123", 10, 20, 3, 4,
        List.of(new TagVersion("article:1", 99)), List.of("article:1"), true,
        List.of(new Header("accept-language", "de")), null);
  }

  private static byte[] gzip(byte[] bytes) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
      gz.write(bytes);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  @Test
  void roundTripsEveryField() {
    StoredPage p = sample();
    StoredPage back = codec.decode("k", codec.encode(p));
    assertEquals(p.status(), back.status());
    assertEquals(p.headers(), back.headers());
    assertArrayEquals(p.body(), back.body());
    assertEquals(p.gzipped(), back.gzipped());
    assertEquals(p.etag(), back.etag());
    assertEquals(p.builtAtMillis(), back.builtAtMillis());
    assertEquals(p.freshUntilMillis(), back.freshUntilMillis());
    assertEquals(p.buildMillis(), back.buildMillis());
    assertEquals(p.token(), back.token());
    assertEquals(p.tags(), back.tags());
    assertEquals(p.viewKeys(), back.viewKeys());
    assertEquals(p.placeholders(), back.placeholders());
    assertEquals(p.vary(), back.vary());
    assertNull(back.uncacheableReason());
    assertEquals("set-cookie", codec.decode("k", codec.encode(StoredPage.uncacheable("set-cookie", 1, 2))).uncacheableReason());
  }

  @Test
  void roundTripsTheGzippedFlagBothWays() {
    byte[] html = "<html>héllo</html>".getBytes(StandardCharsets.UTF_8);
    StoredPage gzipped = codec.decode("k", codec.encode(sample(gzip(html), true)));
    assertTrue(gzipped.gzipped(), "a gzip body stays marked gzip, or it would be sent as identity");
    assertArrayEquals(gzip(html), gzipped.body());
    StoredPage identity = codec.decode("k", codec.encode(sample(html, false)));
    assertFalse(identity.gzipped(), "an identity body stays identity, or it would be sent as gzip");
    assertArrayEquals(html, identity.body());
  }

  @Test
  void garbageIsLoggedOncePerKeyPerMinute() {
    MutableClock clock = new MutableClock();
    PageCodec timed = new PageCodec(clock);
    byte[] garbage = "hello".getBytes(StandardCharsets.US_ASCII);
    for (int i = 0; i < 5; i++) {
      assertNull(timed.decode("a", garbage));
    }
    assertEquals(1, timed.warningsLogged(), "the same garbage under one key, read again and again: one line");
    assertNull(timed.decode("b", new byte[] {PageCodec.FORMAT_VERSION, 1, 2}));
    assertEquals(2, timed.warningsLogged(), "another key gets its own line");

    clock.advance(Duration.ofSeconds(60).minusMillis(1));
    timed.decode("a", garbage);
    timed.decode("b", garbage);
    assertEquals(2, timed.warningsLogged(), "nothing more within the minute");

    clock.advance(Duration.ofMillis(1));
    timed.decode("a", garbage);
    timed.decode("a", garbage);
    assertEquals(3, timed.warningsLogged(), "a minute on, the key is logged again, once");
    timed.decode("b", garbage);
    assertEquals(4, timed.warningsLogged());
  }

  @Test
  void garbageAndOtherFormatsDecodeToNull() {
    assertNull(codec.decode("k", new byte[0]));
    assertNull(codec.decode("k", "hello".getBytes(StandardCharsets.US_ASCII)));
    byte[] good = codec.encode(sample());
    byte[] otherVersion = good.clone();
    otherVersion[0] = 99;
    assertNull(codec.decode("k", otherVersion));
    byte[] truncated = java.util.Arrays.copyOf(good, good.length / 2);
    assertNull(codec.decode("k", truncated));
    Random random = new Random(42);
    for (int i = 0; i < 2000; i++) {
      byte[] noise = new byte[random.nextInt(200)];
      random.nextBytes(noise);
      if (noise.length > 0) {
        noise[0] = PageCodec.FORMAT_VERSION;
      }
      codec.decode("k", noise); // must not throw, whatever it returns
    }
  }
}
