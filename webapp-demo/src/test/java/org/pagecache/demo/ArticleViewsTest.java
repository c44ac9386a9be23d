package org.pagecache.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ArticleViewsTest {
  private final ArticleDatabase db = ArticleDatabase.inMemory();
  private final ArticleViews views = new ArticleViews(db);

  ArticleViewsTest() {
    db.insert(SeedArticles.all(Instant.parse("2026-11-22T12:00:00Z")));
    db.addViews(Map.of(5L, 40L));
  }

  @AfterEach
  void close() {
    db.close();
  }

  @Test
  void aCounterStartsFromTheArticlesViewsColumn() throws Exception {
    assertEquals(40, views.load("article:5"));
    assertEquals(0, views.load("article:6"));
    assertEquals(0, views.load("article:999"), "no such article");
    assertEquals(0, views.load("section:tech"), "not an article key");
  }

  @Test
  void aFlushAddsEachArticlesIncrementAndIgnoresOtherKeys() throws Exception {
    views.flush(Map.of("article:5", 2L, "article:6", 3L, "video:1", 9L, "article:x", 1L));

    assertEquals(42, db.views(5));
    assertEquals(3, db.views(6));
  }
}
