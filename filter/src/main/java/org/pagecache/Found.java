package org.pagecache;

import java.util.Map;
import org.pagecache.internal.freshness.Freshness.Decision;
import org.pagecache.internal.store.StoredPage;

/** What the lookup found for a request: the page's key, the page, the handler's token, their classification. */
record Found(String key, StoredPage page, long token, Decision decision, Map<String, Long> tagVersions) {
  /** The same lookup with another page in it (one that arrived while the request waited). */
  Found withPage(StoredPage other) {
    return new Found(key, other, token, decision, tagVersions);
  }

  /** The same lookup under a newer token (a refresh seen by the second look). */
  Found withToken(long newer) {
    return new Found(key, page, newer, decision, tagVersions);
  }
}
