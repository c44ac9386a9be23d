package org.pagecache.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ArticleDatabaseTest {
  private static final Instant NOW = Instant.parse("2026-11-22T12:00:00Z");
  private final ArticleDatabase db = ArticleDatabase.inMemory();

  ArticleDatabaseTest() {
    db.insert(SeedArticles.all(NOW));
  }

  @AfterEach
  void close() {
    db.close();
  }

  @Test
  void theSeedIsThirtySixArticlesInThreeSectionsTheNewestPublishedNow() {
    List<Article> latest = db.latest(10);

    assertEquals(SeedArticles.COUNT, db.all().size());
    assertEquals(List.of(36L, 35L, 34L, 33L, 32L, 31L, 30L, 29L, 28L, 27L), latest.stream().map(Article::id).toList());
    assertEquals(NOW, latest.get(0).publishedAt());
    assertEquals(Section.SPORT, latest.get(0).section());
    assertEquals(Section.TECH, latest.get(1).section());
    assertEquals(Section.WORLD, latest.get(2).section());
  }

  @Test
  void aSectionIsPagedNewestFirstAndAPagePastTheLastIsEmpty() {
    SectionPage first = db.section(Section.TECH, 1, 5);
    SectionPage last = db.section(Section.TECH, 3, 5);

    assertEquals(List.of(35L, 32L, 29L, 26L, 23L), first.articles().stream().map(Article::id).toList());
    assertEquals(3, first.pages());
    assertEquals(12, first.total());
    assertFalse(first.hasPrevious());
    assertTrue(first.hasNext());
    assertEquals(List.of(5L, 2L), last.articles().stream().map(Article::id).toList());
    assertFalse(last.hasNext());
    assertTrue(db.section(Section.TECH, 4, 5).articles().isEmpty());
  }

  @Test
  void anEditChangesTitleBodyAndUpdateTimeOfThatArticleOnly() {
    Instant later = NOW.plusSeconds(60);

    assertTrue(db.update(7, "New title", "New body", later));

    Article edited = db.find(7).orElseThrow();
    assertEquals("New title", edited.title());
    assertEquals("New body", edited.body());
    assertEquals(later, edited.updatedAt());
    assertEquals(SeedArticles.all(NOW).get(7).title(), db.find(8).orElseThrow().title());
    assertFalse(db.update(999, "x", "y", later), "no such article");
  }

  @Test
  void viewIncrementsAddUpAndIgnoreUnknownArticles() {
    db.addViews(Map.of(1L, 5L, 2L, 3L, 999L, 1L));
    db.addViews(Map.of(1L, 2L));

    assertEquals(7, db.views(1));
    assertEquals(3, db.views(2));
    assertEquals(0, db.views(999));
  }

  @Test
  void everyDatabaseIsSeparate() {
    try (ArticleDatabase other = ArticleDatabase.inMemory()) {
      assertTrue(other.all().isEmpty());
    }
  }
}
