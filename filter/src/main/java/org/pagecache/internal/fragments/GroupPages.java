package org.pagecache.internal.fragments;

import org.pagecache.internal.text.KeyParts;

/**
 * How an evict of a URL reaches its groups' pages, whose keys hold a group digest the evict cannot
 * know: every group's page of a URL carries the URL's own tag, named after the key of the URL's
 * anonymous page (the key {@code PageCache.evict} deletes), and the evict purges that tag (hard:
 * ABSENT, as a deleted page is) before it deletes the page, in every cluster. A lookup in memcached
 * reads the tag in the page's own multi-get; the near cache judges a held page against the tag as
 * this JVM knows it, since the evict's change of the handler's evictions key makes other JVMs read
 * the page again. Pages of anonymous visitors carry no such tag.
 */
public final class GroupPages {
  /** No tag an application names starts with it in practice; one that does only shares the evicts of that URL. */
  static final String PREFIX = "pagecache.url~";

  private GroupPages() {}

  /** The tag every group's page of the URL whose anonymous page is under {@code anonymousPageKey} carries. */
  public static String urlTag(String anonymousPageKey) {
    return PREFIX + KeyParts.sha256(anonymousPageKey);
  }

  public static boolean isUrlTag(String tag) {
    return tag.startsWith(PREFIX);
  }
}
