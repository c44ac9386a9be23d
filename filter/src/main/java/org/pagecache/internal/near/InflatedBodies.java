package org.pagecache.internal.near;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.util.function.Supplier;
import org.pagecache.internal.store.StoredPage;

/**
 * The identity bodies of near pages, for clients without gzip, in a bound of their own: a body is
 * kept for the exact page it was inflated from (the same {@link StoredPage} object the near entry
 * holds), so a page rebuilt under the same key never meets the old body. Caffeine's admission
 * (W-TinyLFU) keeps the bodies read again and lets a body read once pass through, so a long tail
 * read by such clients does not push the hot pages' bodies out.
 */
final class InflatedBodies {
  /** Bytes a body costs besides its bytes (objects, key, Caffeine's node): an estimate. */
  private static final int OVERHEAD = 200;

  private record Inflated(StoredPage page, byte[] body) {}

  private final Cache<String, Inflated> bodies;

  InflatedBodies(long maxBytes) {
    this.bodies = Caffeine.newBuilder().maximumWeight(Math.max(0, maxBytes))
        .weigher((String k, Inflated v) -> (int) Math.min(Integer.MAX_VALUE, OVERHEAD + 2L * k.length() + v.body.length))
        .executor(Runnable::run).build();
  }

  /** The page's identity body: the one kept for it, or {@code inflate}'s, offered to the bound. */
  byte[] of(String key, StoredPage page, Supplier<byte[]> inflate) {
    Inflated known = bodies.getIfPresent(key);
    if (known != null && known.page == page) {
      return known.body;
    }
    byte[] body = inflate.get();
    bodies.put(key, new Inflated(page, body));
    return body;
  }

  void drop(String key) {
    bodies.invalidate(key);
  }

  long bytes() {
    return bodies.policy().eviction().map(ev -> ev.weightedSize().orElse(0L)).orElse(0L);
  }
}
