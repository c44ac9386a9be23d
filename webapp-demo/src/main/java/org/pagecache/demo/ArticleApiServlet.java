package org.pagecache.demo;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Optional;
import org.pagecache.PageCache;

/**
 * The same data as JSON ({@code /api/articles/42}, handler {@code api}), cached like the pages and
 * tagged like them, so an edit reaches the API and the HTML at the same moment.
 * <pre>
 *   {"id":42,"section":"tech","title":"...","body":"...","publishedAt":"...","updatedAt":"...",
 *    "url":"/article/42","viewsUrl":"/counters?views=article:42"}
 * </pre>
 * Live counts are not in the cached document; {@code viewsUrl} gives them.
 */
public class ArticleApiServlet extends HttpServlet {
  private static final long serialVersionUID = 1L;

  @Override
  protected void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException {
    Cms cms = Cms.from(getServletContext());
    Optional<Article> found = SitePage.idIn(req).flatMap(id -> cms.article(getServletName(), id));
    res.setContentType("application/json;charset=UTF-8");
    if (found.isEmpty()) {
      res.setStatus(HttpServletResponse.SC_NOT_FOUND);
      res.getWriter().write("{\"error\":\"no such article; use /api/articles/{id} with an id from 1 to "
          + SeedArticles.COUNT + "\"}");
      return;
    }
    Article a = found.get();
    PageCache.tag(req, a.tag(), a.section().tag());
    String ctx = req.getContextPath();
    res.getWriter().write("{\"id\":" + a.id()
        + ",\"section\":" + Json.quote(a.section().slug())
        + ",\"title\":" + Json.quote(a.title())
        + ",\"body\":" + Json.quote(a.body())
        + ",\"publishedAt\":" + Json.quote(a.publishedAt().toString())
        + ",\"updatedAt\":" + Json.quote(a.updatedAt().toString())
        + ",\"url\":" + Json.quote(ctx + "/article/" + a.id())
        + ",\"viewsUrl\":" + Json.quote(ctx + "/counters?views=" + Article.viewKey(a.id()))
        + "}\n");
  }
}
