package org.pagecache.demo;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.pagecache.counters.CountSink;
import org.pagecache.counters.CountSource;

/**
 * The articles' durable view counts, as the page cache's counters see them. memcached keeps the
 * live count shown on every page view; this is where a counter starts when memcached does not
 * have it ({@link #load}), and where the counted views end up, summed, once per flush interval
 * ({@link #flush}): one database write per article per interval instead of one per view.
 * Object keys are the articles' view keys, {@code article:42}.
 */
final class ArticleViews implements CountSource, CountSink {
  private static final String PREFIX = "article:";

  private final ArticleDatabase db;

  ArticleViews(ArticleDatabase db) {
    this.db = db;
  }

  @Override
  public long load(String objectKey) {
    return idOf(objectKey).map(db::views).orElse(0L);
  }

  /** All increments in one transaction: a failed flush wrote nothing and is offered again whole. */
  @Override
  public void flush(Map<String, Long> increments) {
    Map<Long, Long> byId = new HashMap<>();
    increments.forEach((key, views) -> idOf(key).ifPresent(id -> byId.merge(id, views, Long::sum)));
    db.addViews(byId);
  }

  static Optional<Long> idOf(String objectKey) {
    if (!objectKey.startsWith(PREFIX) || !objectKey.substring(PREFIX.length()).matches("[0-9]{1,9}")) {
      return Optional.empty();
    }
    return Optional.of(Long.parseLong(objectKey.substring(PREFIX.length())));
  }
}
