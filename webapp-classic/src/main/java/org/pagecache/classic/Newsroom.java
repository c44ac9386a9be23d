package org.pagecache.classic;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/** The site's content, in memory: five articles and the comments readers post. */
public final class Newsroom {
  public static final Newsroom INSTANCE = new Newsroom();

  /** Public with getters: the JSPs read it through EL. */
  public record Article(int id, String title, String body) {
    public int getId() {
      return id;
    }

    public String getTitle() {
      return title;
    }

    public String getBody() {
      return body;
    }
  }

  private final List<Article> articles = new ArrayList<>();
  private final Map<Integer, List<String>> comments = new ConcurrentHashMap<>();

  private Newsroom() {
    for (int id = 1; id <= 5; id++) {
      articles.add(new Article(id, "Headline " + id, "The story of day " + id + ", told in full."));
    }
  }

  public List<Article> articles() {
    return List.copyOf(articles);
  }

  public Article article(int id) {
    return id >= 1 && id <= articles.size() ? articles.get(id - 1) : null;
  }

  public List<String> comments(int id) {
    return List.copyOf(comments.getOrDefault(id, List.of()));
  }

  public void comment(int id, String text) {
    comments.computeIfAbsent(id, k -> new CopyOnWriteArrayList<>()).add(text);
  }
}
