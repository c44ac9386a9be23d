package org.pagecache.demo;

import jakarta.servlet.http.HttpServletRequest;
import java.util.List;
import java.util.Optional;
import org.pagecache.PageCache;

/** The home page ({@code /}, handler {@code home}): the latest articles of all sections. */
public class HomeServlet extends SitePage {
  private static final long serialVersionUID = 1L;
  static final int LATEST = 10;

  @Override
  Optional<Content> content(HttpServletRequest req, Cms cms) {
    List<Article> latest = cms.latest(getServletName(), LATEST);
    // Editing any of these articles must rebuild this page too.
    PageCache.tag(req, latest.stream().map(Article::tag).toArray(String[]::new));
    return Optional.of(new Content("Latest news",
        "<h1>Latest news</h1>\n" + articleList(req, latest, true)));
  }
}
