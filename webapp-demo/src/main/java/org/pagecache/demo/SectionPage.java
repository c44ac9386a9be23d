package org.pagecache.demo;

import java.util.List;

/** One page of a section's list, newest first; {@code page} counts from 1. */
public record SectionPage(Section section, List<Article> articles, int page, int pages, int total) {
  public SectionPage {
    articles = List.copyOf(articles);
  }

  public boolean hasPrevious() {
    return page > 1;
  }

  public boolean hasNext() {
    return page < pages;
  }
}
