package org.pagecache.internal.fragments;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

/**
 * The {@link GzipShell}s of the pages with placeholders served lately, keyed by the page's entity
 * tag (a SHA-256 of its stored body, placeholders in place): what a shell holds comes from the
 * shared page alone, never from a visitor, so every visitor of every group whose page has that body
 * uses the same one. Bounded by bytes (Caffeine); a page evicted from here is deflated again on its
 * next gzip serve.
 */
public final class GzipShells {
  /** Enough for a few thousand pages of 20 KB (a shell is about the size of the page gzipped). */
  public static final long DEFAULT_MAX_BYTES = 16L << 20;

  private final Cache<String, GzipShell> shells;

  public GzipShells(long maxBytes) {
    // Evictions on the calling thread, as the near cache does: no common-pool thread, the bound holds at once.
    this.shells = Caffeine.newBuilder().maximumWeight(maxBytes)
        .weigher((String tag, GzipShell s) -> s.weight()).executor(Runnable::run).build();
  }

  /** The shell of the page with entity tag {@code etag} and stored body {@code body}, made on first use. */
  public GzipShell of(String etag, byte[] body) {
    GzipShell shell = shells.get(etag, tag -> GzipShell.of(body, Placeholders.find(body)));
    // Same tag, another length: not the same page after all (a tampered entry); never mix them.
    return shell.length() == body.length ? shell : GzipShell.of(body, Placeholders.find(body));
  }

  /** Shells held (Caffeine's estimate). */
  long size() {
    return shells.estimatedSize();
  }
}
