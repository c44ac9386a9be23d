package org.pagecache.demo;

import java.time.Instant;
import java.util.List;

/**
 * One article of the CMS. The body is plain text; blank lines separate paragraphs.
 *
 * @param views the durable view count (the database's; the live one is in memcached)
 */
public record Article(long id, Section section, String title, String body, Instant publishedAt,
    Instant updatedAt, long views) {

  public static final int MAX_TITLE = 200;
  public static final int MAX_BODY = 20_000;

  /** The tag of every page that shows this article: {@code article:42}. */
  public static String tag(long id) {
    return "article:" + id;
  }

  /** The object key of its view counter, the same string as its tag. */
  public static String viewKey(long id) {
    return "article:" + id;
  }

  public String tag() {
    return tag(id);
  }

  public List<String> paragraphs() {
    return List.of(body.strip().split("\\R\\s*\\R"));
  }
}
