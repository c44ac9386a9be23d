package org.pagecache.internal.near;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.pagecache.internal.capture.BodyEncoding;
import org.pagecache.internal.store.StoredPage;

/** The near cache keeps gzip bodies in its entries and identity bodies apart, in a quarter of its bound. */
class InflatedBodiesTest {
  private static final byte[] IDENTITY = "<p>a page that compresses well</p>\n".repeat(230).getBytes(StandardCharsets.UTF_8);

  private static StoredPage gzipped(long builtAt) {
    return new StoredPage(200, List.of(), BodyEncoding.gzip(IDENTITY), true, "e" + builtAt, builtAt, builtAt + 60_000,
        0, 0, List.of(), List.of(), false, List.of(), null);
  }

  @Test
  void anEntryWeighsItsGzipBodyAndAnIdentityServeAddsTheInflatedBodyApart() {
    NearCache near = NearCache.of(1 << 20, Duration.ofSeconds(1), Clock.systemUTC(), 1 << 20);
    StoredPage page = gzipped(1);
    near.remember("k", "h", page, System.currentTimeMillis());
    long held = near.bytes();
    assertTrue(held < IDENTITY.length / 4, "the entry holds the gzip body only: " + held + " bytes");
    NearCache.Entry e = near.trusted("k", "h");
    byte[] body = near.identityBody(e, page).get();
    assertArrayEquals(IDENTITY, body);
    assertTrue(near.bytes() >= held + IDENTITY.length, "the inflated body is kept and weighed: " + near.bytes());
    assertSame(body, near.identityBody(e, page).get(), "the next identity serve of the same page inflates nothing");
  }

  @Test
  void aBodyIsServedOnlyForThePageItWasInflatedFrom() {
    InflatedBodies bodies = new InflatedBodies(1 << 20);
    AtomicInteger inflations = new AtomicInteger();
    StoredPage old = gzipped(1);
    StoredPage rebuilt = gzipped(2);
    bodies.of("k", old, () -> { inflations.incrementAndGet(); return "old".getBytes(StandardCharsets.UTF_8); });
    byte[] body = bodies.of("k", rebuilt, () -> { inflations.incrementAndGet(); return "new".getBytes(StandardCharsets.UTF_8); });
    assertEquals("new", new String(body, StandardCharsets.UTF_8), "the same key rebuilt never meets the old body");
    assertEquals(2, inflations.get());
  }

  @Test
  void theInflatedBodiesStayWithinAQuarterOfTheBound() {
    long bound = 256 * 1024;
    NearCache near = NearCache.of(bound, Duration.ofSeconds(1), Clock.systemUTC(), 1 << 20);
    for (int i = 0; i < 200; i++) {
      StoredPage page = gzipped(i);
      near.remember("k" + i, "h", page, System.currentTimeMillis());
      near.identityBody(near.trusted("k" + i, "h"), page).get();
    }
    assertTrue(near.bytes() <= bound, "within near.size: " + near.bytes());
    assertTrue(near.entries() > bound / IDENTITY.length,
        "more pages held than identity bodies would fit: " + near.entries());
  }
}
