package org.pagecache.internal.near;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;
import org.pagecache.internal.capture.BodyEncoding;
import org.pagecache.internal.store.StoredPage;
import org.pagecache.internal.store.StoredPage.Header;
import org.pagecache.internal.store.StoredPage.TagVersion;
import org.pagecache.store.Namespace;

/**
 * The pages this JVM served recently, decoded, so a hot page costs no memcached round trip: a
 * bounded in-memory cache (Caffeine, weighed by bytes) keyed by the exact memcached page key.
 *
 * <p>An entry remembers when this JVM last saw that memcached holds its page ({@code verifiedAt}:
 * the time of the lookup that read it, or of the store that wrote it). The caller judges it with
 * {@code Freshness.classify} against the handler token and tag versions this JVM knows (which a
 * refresh or invalidation made here raises at once). What another JVM did reaches those within
 * {@code near.trust} at a cost per handler, not per page ({@link HandlerConfirmations}: the
 * handler's token and evictions key, read once per window; tag versions once per {@code tag.cache}):
 * an entry is trusted while its handler was confirmed within the window and no eviction of the
 * handler was seen since the entry was verified. So a refresh, tag invalidation or evict made by
 * another JVM is seen here within the trust window, however many pages this JVM holds. (Without
 * confirmations, {@link #of(long, Duration, Clock, int)}, each entry is trusted for the window
 * after its own verification.)
 *
 * <p>Entries keep the page as memcached holds it: for a compressible page, its gzip body only (about
 * a quarter of the identity bytes), so the bound holds four times as many pages of a long tail. For
 * clients without gzip, a page's inflated body is an entry of its own in the same bound: Caffeine's
 * admission (W-TinyLFU, by how often each is read) weighs keeping a hot page's inflated body against
 * keeping a colder page at all, so a hot page is inflated once and a page read rarely on its serve.
 * A page's identity copy read from memcached ({@code IdentityCopies}) is held under the copy's key,
 * as a page of its own.
 *
 * <pre>{@code
 * NearCache near = NearCache.of(64L << 20, Duration.ofSeconds(1), clock, 1 << 23);
 * NearCache.Entry e = near.trusted(key, "article"); // null: ask memcached
 * near.remember(key, "article", page, askedAt);  // after memcached answered FRESH, or after a store
 * }</pre>
 */
public final class NearCache {
  /** Bytes an entry costs besides its bodies and headers (objects, key, Caffeine's node): an estimate. */
  private static final int ENTRY_OVERHEAD = 400;

  private final Cache<String, Held> cache; // null when off: pages (Entry) and their inflated bodies
  private final long trustMillis;
  private final long maxBytes;
  private final Clock clock;
  private final int maxBodyBytes;
  private final LongAdder hits = new LongAdder();
  private final LongAdder misses = new LongAdder();
  private final HandlerConfirmations confirmations; // null: each entry trusted for the window after its verification

  private NearCache(long maxBytes, Duration trust, Clock clock, int maxBodyBytes, HandlerConfirmations confirmations) {
    this.confirmations = confirmations;
    boolean on = maxBytes > 0 && !trust.isZero();
    this.trustMillis = trust.toMillis();
    this.maxBytes = on ? maxBytes : 0;
    this.clock = clock;
    this.maxBodyBytes = maxBodyBytes;
    this.cache = on
        // Evictions run on the writing thread (a few pointer moves), not later on the common pool:
        // the memory bound holds at once, and no pool thread is shared with the container's work.
        ? Caffeine.newBuilder().maximumWeight(maxBytes).weigher((String k, Held h) -> h.weight(k))
            .executor(Runnable::run).build()
        : null;
  }

  /**
   * A near cache holding at most {@code maxBytes} (estimated) and trusting an entry for
   * {@code trust} after memcached last confirmed it; either 0 turns it off (every hit asks
   * memcached). {@code maxBodyBytes} bounds an inflated body.
   */
  public static NearCache of(long maxBytes, Duration trust, Clock clock, int maxBodyBytes) {
    return new NearCache(maxBytes, trust, clock, maxBodyBytes, null);
  }

  /**
   * The same, trusting an entry while its handler's token and evictions were confirmed within
   * {@code trust} (one multi-get per handler per window) and unchanged since the entry was verified.
   */
  public static NearCache of(long maxBytes, Duration trust, Clock clock, int maxBodyBytes,
      HandlerConfirmations confirmations) {
    return new NearCache(maxBytes, trust, clock, maxBodyBytes, confirmations);
  }

  public boolean enabled() {
    return cache != null;
  }

  /**
   * The entry for the key if it is trusted (see the class comment), else null. Whether it may be
   * served is still the caller's decision (freshness, token, tags, vary).
   */
  public Entry trusted(String key, String handler) {
    if (cache == null) {
      return null;
    }
    Entry e = cache.getIfPresent(key) instanceof Entry held ? held : null;
    if (e == null) {
      if (confirmations != null) {
        confirmations.firstLookup(handler);
      }
      return null;
    }
    if (confirmations == null) {
      return clock.millis() - e.verifiedAtMillis < trustMillis ? e : null;
    }
    return e.verifiedAtMillis >= confirmations.trustedFrom(e.handler) ? e : null;
  }

  /** Counts a request the near cache answered ({@code true}) or had to pass to memcached. */
  public void counted(boolean hit) {
    if (cache != null) {
      (hit ? hits : misses).increment();
    }
  }

  /**
   * Remembers a page memcached held at {@code verifiedAtMillis} (read by a lookup that started
   * then, or just written). The same page seen again keeps its entry (and so its inflated body) and
   * only moves its verification time forward.
   */
  public void remember(String key, String handler, StoredPage page, long verifiedAtMillis) {
    if (cache == null || page.isUncacheableMarker() || page.body().length > maxBodyBytes) {
      return;
    }
    cache.asMap().compute(key, (k, old) -> old instanceof Entry e && samePage(e.page, page)
        ? e.verifiedAt(Math.max(e.verifiedAtMillis, verifiedAtMillis))
        : new Entry(key, handler, page, verifiedAtMillis));
  }

  /** Forgets one page, its inflated body and its identity copy (an evict, or an entry found no longer servable). */
  public void drop(String key) {
    if (cache != null) {
      cache.invalidate(key);
      cache.invalidate(Inflated.key(key));
      String copy = Namespace.identityCopyOf(key);
      if (copy != null) {
        cache.invalidate(copy);
      }
    }
  }

  /** Forgets every page of the handler (a refresh made in this JVM). */
  public void dropHandler(String handler) {
    if (cache != null) {
      cache.asMap().values().removeIf(h -> h.handler().equals(handler));
    }
  }

  /** Forgets every page carrying the tag (an invalidation made in this JVM). */
  public void dropTag(String tag) {
    if (cache != null) {
      cache.asMap().values().removeIf(h -> h.page().tags().stream().anyMatch(t -> t.tag().equals(tag)));
    }
  }

  /**
   * The identity body of a page this request got from the near cache, kept for the next such
   * serve if it earns its place (see the class comment); for any other page, a supplier that
   * inflates it.
   */
  public Supplier<byte[]> identityBody(Entry served, StoredPage page) {
    if (served == null || served.page != page || cache == null || !page.gzipped()) {
      return () -> inflate(page);
    }
    return () -> {
      String key = Inflated.key(served.key);
      if (cache.getIfPresent(key) instanceof Inflated known && known.page == page) {
        return known.body;
      }
      byte[] body = inflate(page);
      cache.put(key, new Inflated(served.handler, page, body));
      return body;
    };
  }

  private byte[] inflate(StoredPage page) {
    if (!page.gzipped()) {
      return page.body();
    }
    try {
      return BodyEncoding.gunzip(page.body(), maxBodyBytes);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  // What PageCache.nearStats() reads for the admin page and api/stats.

  /** Pages held, not counting their inflated bodies (a walk over the entries: for stats, not the request path). */
  public long entries() {
    return cache == null ? 0 : cache.asMap().values().stream().filter(Entry.class::isInstance).count();
  }

  /** The estimated memory of the pages held. */
  public long bytes() {
    return cache == null ? 0
        : cache.policy().eviction().map(ev -> ev.weightedSize().orElse(0L)).orElse(0L);
  }

  /** The bound ({@code near.size}), 0 when off. */
  public long maxBytes() {
    return maxBytes;
  }

  /** {@code near.trust} in milliseconds. */
  public long trustMillis() {
    return trustMillis;
  }

  /** Requests answered from this JVM's memory. */
  public long hits() {
    return cache == null ? 0 : hits.sum();
  }

  /** Cacheable requests that asked memcached. */
  public long misses() {
    return cache == null ? 0 : misses.sum();
  }

  private static boolean samePage(StoredPage a, StoredPage b) {
    return a.builtAtMillis() == b.builtAtMillis() && a.token() == b.token() && a.etag().equals(b.etag())
        && a.gzipped() == b.gzipped() && a.tags().equals(b.tags()) && a.vary().equals(b.vary());
  }

  /** What the near cache holds under a key: a page, or a page's inflated body. */
  private sealed interface Held permits Entry, Inflated {
    String handler();

    StoredPage page();

    int weight(String key);
  }

  /**
   * The identity body of the exact page it was inflated from (the same {@link StoredPage} object as
   * the page's entry), under a key of its own: a page rebuilt under the same key never meets it.
   */
  private record Inflated(String handler, StoredPage page, byte[] body) implements Held {
    /** A key no page key can be: page keys are printable ASCII. */
    static String key(String pageKey) {
      return "\u0000" + pageKey;
    }

    @Override
    public int weight(String key) {
      return (int) Math.min(Integer.MAX_VALUE, ENTRY_OVERHEAD / 2 + 2L * key.length() + body.length);
    }
  }

  /** One remembered page. Immutable: a new verification replaces the entry. */
  public static final class Entry implements Held {
    final String key;
    final String handler;
    final StoredPage page;
    final long verifiedAtMillis;

    Entry(String key, String handler, StoredPage page, long verifiedAtMillis) {
      this.key = key;
      this.handler = handler;
      this.page = page;
      this.verifiedAtMillis = verifiedAtMillis;
    }

    @Override
    public StoredPage page() {
      return page;
    }

    @Override
    public String handler() {
      return handler;
    }

    Entry verifiedAt(long millis) {
      return new Entry(key, handler, page, millis);
    }

    @Override
    public int weight(String key) {
      long w = ENTRY_OVERHEAD + 2L * key.length() + page.body().length;
      for (Header h : page.headers()) {
        w += 48 + 2L * (h.name().length() + h.value().length());
      }
      for (TagVersion t : page.tags()) {
        w += 48 + 2L * t.tag().length();
      }
      return (int) Math.min(Integer.MAX_VALUE, w);
    }
  }
}
