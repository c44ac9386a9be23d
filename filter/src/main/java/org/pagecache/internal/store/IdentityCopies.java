package org.pagecache.internal.store;

import java.nio.ByteBuffer;
import org.pagecache.store.Namespace;
import org.pagecache.store.Store;
import org.pagecache.store.StoreException;
import org.pagecache.store.Values;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What clients without gzip are sent, kept beside the page: a page is stored gzipped (a browser's
 * hit sends the stored bytes), and a client without gzip would cost an inflate on every hit beyond
 * the near cache, about a third of the hit's CPU for an 8 KB page. So, as an HTTP cache keeps a
 * response's identity variant apart from its gzip one ({@code Vary: Accept-Encoding}), the first
 * such client to get a fresh page from memcached stores its identity copy beside it, under a key of
 * its own ({@link Namespace#identityCopyOf}); the next ones read the copy alone, one {@code get},
 * nothing to inflate. Copies are made only for pages such clients read, so a site read by browsers
 * stores none. Such a client reads the copy's key first; so that a page stored uncompressed (too
 * small or not compressible, or filled in per serve) does not cost it two round trips on every
 * hit, its copy is the page itself. A URL whose responses vary ({@code VaryRecord}) has no copy: its
 * clients without gzip read the copy's key, the record, then the variant.
 *
 * <p>A copy is the page as stored (token, tags, times, headers plus {@code Vary: Accept-Encoding})
 * with the identity body, judged like the page itself: served only while FRESH, never stale and
 * never rebuilt; past that the request reads the page, and a new copy is made from it. It lives
 * until the page's fresh time ends. An evict deletes the page and changes the handler's evictions
 * key ({@code Evictions}); a copy carries the evictions value its writer knew <em>before</em> it
 * read the page, and is trusted only while that is the value this JVM confirmed within
 * {@code near.trust} (as near entries are): a copy made from a page an evict then deleted is
 * never trusted once the evict is seen, here at once (the evict deletes the copy too and confirms
 * the handler again), elsewhere within {@code near.trust}.
 *
 * <p>Not made beyond {@code max.entry.size}; a failed write only means no copy (the next such
 * client inflates the page, as before).
 *
 * <p>Stored as {@code 'C'}, the evictions value (8 bytes), then the page as {@link PageCodec}
 * encodes it.
 */
public final class IdentityCopies {
  static final byte COPY_FORMAT = 'C';
  /** The copy's envelope before the page: its format byte and the evictions value. */
  private static final int HEADER_BYTES = 9;
  /** A copy that would live less than this is not worth its write. */
  private static final long MIN_LIFE_MILLIS = 2_000;
  private static final Logger log = LoggerFactory.getLogger(IdentityCopies.class);

  private final Store store;
  private final PageCodec codec;
  private final int maxEntrySize;
  private final boolean on;

  /**
   * @param maxEntrySize {@code max.entry.size}: a copy larger than a page may be is not made
   * @param on           {@code identity.copies}: off, none is read or made
   */
  public IdentityCopies(Store store, PageCodec codec, int maxEntrySize, boolean on) {
    this.store = store;
    this.codec = codec;
    this.maxEntrySize = maxEntrySize;
    this.on = on;
  }

  /** Whether copies are read and made ({@code identity.copies}). */
  public boolean on() {
    return on;
  }

  /** A copy as stored: the evictions value its writer knew before reading the page, and the page with its identity body. */
  public record Copy(long evictions, StoredPage page) {
    /** Whether this copy was made from {@code page} (the same build): then it need not be made again. */
    public boolean isOf(StoredPage page) {
      return this.page.builtAtMillis() == page.builtAtMillis() && this.page.etag().equals(page.etag());
    }
  }

  /** A copy to make of {@code page}, read under {@code pageKey}, once its identity body is known. */
  public record Wanted(String pageKey, long evictions, StoredPage page) {}

  /** Whether a page a client without gzip was served has a copy: any page (not a refusal marker, not a vary record). */
  public static boolean copyable(StoredPage page) {
    return page.status() > 0 && !page.isUncacheableMarker();
  }

  /**
   * The copy of the page under {@code pageKey}, or null when there is none, it is garbage, or
   * memcached cannot be read (the page is read then, which fails open as every lookup does).
   */
  public Copy read(String pageKey) {
    String key = Namespace.identityCopyOf(pageKey);
    if (key == null) {
      return null;
    }
    byte[] bytes;
    try {
      bytes = store.get(key);
    } catch (StoreException e) {
      return null;
    }
    if (bytes == null || bytes.length <= HEADER_BYTES || bytes[0] != COPY_FORMAT) {
      return null;
    }
    StoredPage page = codec.decode(key, bytes, HEADER_BYTES);
    return page == null ? null : new Copy(ByteBuffer.wrap(bytes, 1, 8).getLong(), page);
  }

  /**
   * Stores the copy of {@code page} (read from memcached under {@code pageKey}): with its
   * {@code identity} body when it is gzipped, else the page itself, for as long as the page stays
   * fresh. Never fails the request: a copy not made (too large for max.entry.size, memcached
   * failing) costs the next such client an inflate, and the failure is the store's to count.
   *
   * @param evictions the handler's evictions value this JVM knew before the page was read
   */
  public void write(String pageKey, long evictions, StoredPage page, byte[] identity, long nowMillis) {
    String key = Namespace.identityCopyOf(pageKey);
    long life = page.freshUntilMillis() - nowMillis;
    if (key == null || life < MIN_LIFE_MILLIS || !copyable(page) || identity.length > maxEntrySize) {
      return;
    }
    byte[] encoded = codec.encode(page.gzipped() ? page.withIdentityBody(identity) : page);
    if (HEADER_BYTES + encoded.length > maxEntrySize) {
      return;
    }
    byte[] bytes = ByteBuffer.allocate(HEADER_BYTES + encoded.length).put(COPY_FORMAT).putLong(evictions)
        .put(encoded).array();
    try {
      store.set(key, bytes, Values.expirySeconds(life));
    } catch (RuntimeException e) { // a StoreException, or a value memcached refuses: never the request's failure
      log.debug("pagecache: identity copy of {} not stored ({})", pageKey, e.toString());
    }
  }

  /** Deletes the copy of the page under {@code pageKey} (an evict); memcached failing leaves it to its stamp. */
  public static void delete(Store store, String pageKey) {
    String key = Namespace.identityCopyOf(pageKey);
    if (key == null) {
      return;
    }
    try {
      store.delete(key);
    } catch (StoreException e) {
      // not trusted anyway once the evict is seen: it carries the evictions value from before it
    }
  }
}
