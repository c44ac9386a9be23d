package org.pagecache.demo;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Optional;

/**
 * A public HTML page of the site: one handler (its servlet-name is the handler name the cache
 * uses for its policy, stats and Refresh button), built from the CMS, framed by {@link Layout}.
 * Nothing in it depends on who asks, which is what makes it cacheable for everyone.
 */
abstract class SitePage extends HttpServlet {
  private static final long serialVersionUID = 1L;

  /** A page's title and the HTML of its main part. */
  record Content(String title, String html) {}

  /** Builds the page from the CMS; empty for a URL with nothing behind it (404). */
  abstract Optional<Content> content(HttpServletRequest req, Cms cms);

  @Override
  protected final void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException {
    long start = System.nanoTime();
    Cms cms = Cms.from(getServletContext());
    Optional<Content> content = content(req, cms);
    if (content.isEmpty()) {
      res.setStatus(HttpServletResponse.SC_NOT_FOUND);
    }
    Content c = content.orElseGet(() -> new Content("Not found",
        "<h1>Not found</h1><p>Nothing here. Try the <a href=\"" + Html.escape(req.getContextPath()) + "/\">home page</a>.</p>"));
    res.setContentType("text/html;charset=UTF-8");
    res.getWriter().write(Layout.page(req, c.title(), c.html(), Layout.build(req, getServletName(), start, cms)));
  }

  /** The number after the servlet path ({@code /article/42} → 42), if that is all there is. */
  static Optional<Long> idIn(HttpServletRequest req) {
    return idIn(req.getPathInfo());
  }

  /** The number in {@code /42}; empty for anything else. */
  static Optional<Long> idIn(String info) {
    if (info == null || !info.matches("/[0-9]{1,9}")) {
      return Optional.empty();
    }
    return Optional.of(Long.parseLong(info.substring(1)));
  }

  static String articleLink(HttpServletRequest req, Article a) {
    return "<a href=\"" + Html.escape(req.getContextPath()) + "/article/" + a.id() + "\">" + Html.escape(a.title()) + "</a>";
  }

  static String articleList(HttpServletRequest req, Iterable<Article> articles, boolean showSection) {
    StringBuilder b = new StringBuilder("<ul class=\"articles\">");
    for (Article a : articles) {
      b.append("<li>").append(articleLink(req, a)).append("<br><span class=\"meta\">")
          .append(showSection ? a.section().title() + " · " : "")
          .append(Layout.DAY.format(a.publishedAt())).append("</span></li>");
    }
    return b.append("</ul>").toString();
  }
}
