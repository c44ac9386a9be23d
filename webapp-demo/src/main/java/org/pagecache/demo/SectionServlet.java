package org.pagecache.demo;

import jakarta.servlet.http.HttpServletRequest;
import java.util.Optional;
import org.pagecache.PageCache;

/** A section's list with paging ({@code /section/tech?page=2}, handler {@code section}). */
public class SectionServlet extends SitePage {
  private static final long serialVersionUID = 1L;

  @Override
  Optional<Content> content(HttpServletRequest req, Cms cms) {
    String info = req.getPathInfo();
    Optional<Section> section = info == null ? Optional.empty() : Section.bySlug(info.substring(1));
    String pageParam = req.getParameter("page");
    if (section.isEmpty() || (pageParam != null && !pageParam.matches("[1-9][0-9]{0,3}"))) {
      return Optional.empty();
    }
    int page = pageParam == null ? 1 : Integer.parseInt(pageParam);
    SectionPage list = cms.section(getServletName(), section.get(), page);
    if (list.articles().isEmpty()) {
      return Optional.empty();
    }
    PageCache.tag(req, section.get().tag());
    PageCache.tag(req, list.articles().stream().map(Article::tag).toArray(String[]::new));
    String base = Html.escape(req.getContextPath()) + "/section/" + section.get().slug();
    StringBuilder html = new StringBuilder("<h1>").append(section.get().title()).append("</h1>\n")
        .append(articleList(req, list.articles(), false))
        .append("<p>Page ").append(list.page()).append(" of ").append(list.pages()).append(" · ");
    if (list.hasPrevious()) {
      html.append("<a rel=\"prev\" href=\"").append(base).append("?page=").append(page - 1).append("\">newer</a> ");
    }
    if (list.hasNext()) {
      html.append("<a rel=\"next\" href=\"").append(base).append("?page=").append(page + 1).append("\">older</a>");
    }
    html.append("</p>");
    String title = section.get().title() + (page > 1 ? ", page " + page : "");
    return Optional.of(new Content(title, html.toString()));
  }
}
