package org.pagecache.demo;

import jakarta.servlet.http.HttpServletRequest;
import java.util.Optional;
import org.pagecache.PageCache;

/**
 * An article ({@code /article/42}, handler {@code article}) with its live view count and the
 * number of visitors online. Both numbers change on every request while the page is cached once:
 * the page carries placeholders that the filter fills in each time it serves it.
 */
public class ArticleServlet extends SitePage {
  private static final long serialVersionUID = 1L;

  @Override
  Optional<Content> content(HttpServletRequest req, Cms cms) {
    Optional<Article> found = idIn(req).flatMap(id -> cms.article(getServletName(), id));
    if (found.isEmpty()) {
      return Optional.empty();
    }
    Article a = found.get();
    PageCache.tag(req, a.tag(), a.section().tag());
    PageCache.countView(req, Article.viewKey(a.id()));
    String ctx = Html.escape(req.getContextPath());
    StringBuilder html = new StringBuilder()
        .append("<p class=\"meta\"><a href=\"").append(ctx).append("/section/").append(a.section().slug()).append("\">")
        .append(a.section().title()).append("</a> · ").append(Layout.DAY.format(a.publishedAt()))
        .append(" · views: <span class=\"views\"><!--pagecache:views ").append(Article.viewKey(a.id()))
        .append("--></span> · readers online: <span class=\"online\"><!--pagecache:online--></span></p>\n")
        .append("<h1>").append(Html.escape(a.title())).append("</h1>\n");
    for (String p : a.paragraphs()) {
      html.append("<p>").append(Html.escape(p)).append("</p>\n");
    }
    html.append("<p class=\"meta\"><a href=\"").append(ctx).append("/cms/edit?id=").append(a.id())
        .append("\">Edit this article</a> · <a href=\"").append(ctx).append("/api/articles/").append(a.id())
        .append("\">as JSON</a></p>");
    return Optional.of(new Content(a.title(), html.toString()));
  }
}
