package org.pagecache.internal.fragments;

import org.pagecache.internal.text.KeyParts;

/**
 * How an evict of a URL reaches its groups' pages, whose keys hold a group digest the evict cannot
 * know: every group's page of a URL carries the URL's own tag, named after the key of the URL's
 * anonymous page (the key {@code PageCache.evict} deletes), and the evict purges that tag (hard:
 * ABSENT, as a deleted page is). The tag travels as any tag does: read with the page's other tags,
 * cached per JVM for {@code tag.cache}, purged in every cluster. Pages of anonymous visitors carry
 * no such tag; a group page's hit reads it as it reads any tag of the page.
 */
public final class GroupPages {
  /** No tag an application names starts with it in practice; one that does only shares the evicts of that URL. */
  static final String PREFIX = "pagecache.url~";

  private GroupPages() {}

  /** The tag every group's page of the URL whose anonymous page is under {@code anonymousPageKey} carries. */
  public static String urlTag(String anonymousPageKey) {
    return PREFIX + KeyParts.sha256(anonymousPageKey);
  }
}
