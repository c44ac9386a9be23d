package org.pagecache.internal.near;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.pagecache.internal.capture.BodyEncoding;
import org.pagecache.internal.store.StoredPage;

/**
 * The near cache keeps a page's gzip body in its entry and, for clients without gzip, its inflated
 * body as an entry of its own that earns its place by being read.
 */
class NearCacheBodiesTest {
  private static byte[] identity(int n) {
    return ("<p>page " + n + " compresses well</p>\n").repeat(230).getBytes(StandardCharsets.UTF_8);
  }

  private static StoredPage gzipped(int n, long builtAt) {
    return new StoredPage(200, List.of(), BodyEncoding.gzip(identity(n)), true, "e" + n + "." + builtAt, builtAt,
        builtAt + 60_000, 0, 0, List.of(), List.of(), false, List.of(), null);
  }

  private static NearCache near(long bytes) {
    return NearCache.of(bytes, Duration.ofSeconds(1), Clock.systemUTC(), 1 << 20);
  }

  /** Serves the page to a client without gzip, as the near cache's caller does. */
  private static byte[] serveIdentity(NearCache near, String key, StoredPage page) {
    near.remember(key, "h", page, System.currentTimeMillis());
    NearCache.Entry e = near.trusted(key, "h"); // null when admission turned the page away
    return near.identityBody(e, e == null ? page : e.page()).get();
  }

  @Test
  void anEntryWeighsItsGzipBodyAndAnIdentityServeAddsTheInflatedBody() {
    NearCache near = near(1 << 20);
    StoredPage page = gzipped(1, 1);
    near.remember("k", "h", page, System.currentTimeMillis());
    long held = near.bytes();
    assertTrue(held < identity(1).length / 4, "the entry holds the gzip body only: " + held + " bytes");
    byte[] body = serveIdentity(near, "k", page);
    assertArrayEquals(identity(1), body);
    assertTrue(near.bytes() >= held + body.length, "the inflated body is kept and weighed: " + near.bytes());
    assertSame(body, serveIdentity(near, "k", page), "the next identity serve of the same page inflates nothing");
    assertEquals(1, near.entries(), "one page held, whatever else is kept for it");
  }

  @Test
  void aPageRebuiltUnderTheSameKeyNeverGetsTheOldBody() {
    NearCache near = near(1 << 20);
    serveIdentity(near, "k", gzipped(1, 1));
    assertArrayEquals(identity(2), serveIdentity(near, "k", gzipped(2, 2)));
  }

  @Test
  void aHotPagesInflatedBodyOutlastsALongTailReadOnceByClientsWithoutGzip() {
    long bound = 256 * 1024;
    NearCache near = near(bound);
    for (int i = 0; i < 100; i++) { // a warmed site: Caffeine counts reads from half full on
      serveIdentity(near, "warm" + i, gzipped(1000 + i, 1));
    }
    StoredPage hot = gzipped(0, 1);
    byte[] hotBody = null;
    for (int round = 0; round < 20; round++) { // a new body earns its place by being read again
      hotBody = serveIdentity(near, "hot", hot);
    }
    for (int round = 0; round < 10; round++) {
      assertSame(hotBody, serveIdentity(near, "hot", hot), "read often, the body is kept");
    }
    for (int i = 0; i < 300; i++) {
      serveIdentity(near, "tail" + i, gzipped(i + 1, 1));
    }
    assertSame(hotBody, serveIdentity(near, "hot", hot), "the hot page's body was kept, not inflated again");
    assertTrue(near.bytes() <= bound, "within near.size: " + near.bytes());
    assertTrue(near.entries() > bound / identity(0).length, "more pages held than identity bodies alone would fit: "
        + near.entries());
  }

  @Test
  void anEvictDropsThePageAndItsBody() {
    NearCache near = near(1 << 20);
    byte[] body = serveIdentity(near, "k", gzipped(1, 1));
    near.drop("k");
    assertEquals(0, near.entries());
    assertEquals(0, near.bytes(), "nothing left of the page");
    assertNotSame(body, serveIdentity(near, "k", gzipped(1, 1)));
  }
}
