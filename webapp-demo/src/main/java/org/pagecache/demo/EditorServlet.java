package org.pagecache.demo;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import org.pagecache.PageCache;
import org.pagecache.store.StoreException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The editor ({@code /cms/}, handler {@code cms}, never cached): lists the articles and edits an
 * article's title and body. Saving tells the cache {@code invalidateTag("article:ID")}, so the
 * article's page, its JSON and every list showing it are rebuilt on their next request, while all
 * other pages stay cached. Only users in the container role {@code pagecache-admin} get here (the
 * security-constraint in web.xml); each form carries the session's {@link CsrfToken}.
 *
 * <pre>
 *   GET  /cms             → 302 /cms/ (so the browser scopes the login to /cms/)
 *   GET  /cms/            the list
 *   GET  /cms/edit?id=42  the form
 *   POST /cms/edit        id, title, body, csrf → 303 /cms/edit?id=42&amp;saved=...
 * </pre>
 */
public class EditorServlet extends HttpServlet {
  private static final long serialVersionUID = 1L;
  private static final Logger log = LoggerFactory.getLogger(EditorServlet.class);

  @Override
  protected void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException {
    long start = System.nanoTime();
    String ctx = req.getContextPath();
    String path = req.getPathInfo();
    if (path == null) {
      // /cms itself is outside the security-constraint: a browser that logs in at /cms/ sends the
      // credentials again below /cms/ only, not to every public page of the site.
      res.sendRedirect(ctx + "/cms/");
      return;
    }
    Cms cms = Cms.from(getServletContext());
    switch (path) {
      case "/" -> send(req, res, HttpServletResponse.SC_OK, "Editor", list(req, cms), start, cms);
      case "/edit" -> {
        Optional<Article> article = SitePage.idIn("/" + nullToEmpty(req.getParameter("id")))
            .flatMap(id -> cms.article(getServletName(), id));
        if (article.isEmpty()) {
          send(req, res, HttpServletResponse.SC_NOT_FOUND, "Editor", "<p class=\"error\">No such article.</p>", start, cms);
          return;
        }
        Article a = article.get();
        String saved = savedNotice(req, a.id());
        send(req, res, HttpServletResponse.SC_OK, "Edit: " + a.title(), saved + form(req, a.id(), a.title(), a.body(), null), start, cms);
      }
      default -> send(req, res, HttpServletResponse.SC_NOT_FOUND, "Editor", "<p class=\"error\">Nothing here.</p>", start, cms);
    }
  }

  @Override
  protected void doPost(HttpServletRequest req, HttpServletResponse res) throws IOException {
    long start = System.nanoTime();
    Cms cms = Cms.from(getServletContext());
    if (!"/edit".equals(req.getPathInfo())) {
      send(req, res, HttpServletResponse.SC_NOT_FOUND, "Editor", "<p class=\"error\">Nothing here.</p>", start, cms);
      return;
    }
    req.setCharacterEncoding("UTF-8");
    if (!CsrfToken.matches(req.getSession(false), req.getParameter(CsrfToken.FIELD))) {
      send(req, res, HttpServletResponse.SC_FORBIDDEN, "Editor", "<p class=\"error\">This form has expired or"
          + " did not come from this editor. <a href=\"" + Html.escape(req.getContextPath()) + "/cms/\">Open the editor again</a>.</p>",
          start, cms);
      return;
    }
    Optional<Long> id = SitePage.idIn("/" + nullToEmpty(req.getParameter("id")));
    String title = nullToEmpty(req.getParameter("title")).strip();
    String body = nullToEmpty(req.getParameter("body")).strip().replace("\r\n", "\n");
    String problem = id.isEmpty() ? "id: not an article id"
        : title.isEmpty() || title.length() > Article.MAX_TITLE ? "Title: 1 to " + Article.MAX_TITLE + " characters"
        : body.isEmpty() || body.length() > Article.MAX_BODY ? "Text: 1 to " + Article.MAX_BODY + " characters"
        : null;
    if (problem != null) {
      send(req, res, HttpServletResponse.SC_BAD_REQUEST, "Editor",
          id.map(i -> form(req, i, title, body, problem)).orElse("<p class=\"error\">" + problem + "</p>"), start, cms);
      return;
    }
    if (!cms.edit(getServletName(), id.get(), title, body)) {
      send(req, res, HttpServletResponse.SC_NOT_FOUND, "Editor", "<p class=\"error\">No such article.</p>", start, cms);
      return;
    }
    res.setStatus(HttpServletResponse.SC_SEE_OTHER);
    res.setHeader("Location", req.getContextPath() + "/cms/edit?id=" + id.get() + "&saved=" + tellCache(id.get()));
  }

  /**
   * Invalidates the article's tag; what happened, as the {@code saved} parameter of the redirect.
   * The article is saved by now, so a failure here is reported on the edit page, never as a 500.
   */
  private String tellCache(long id) {
    PageCache cache = PageCache.from(getServletContext());
    if (cache == null) {
      return "no-cache";
    }
    String tag = Article.tag(id);
    try {
      cache.invalidateTag(tag);
      return "invalidated";
    } catch (StoreException e) {
      log.warn("demo: article {} saved, but memcached is unreachable: {} not invalidated ({})", id, tag, e.getMessage());
      return "cache-unavailable";
    } catch (IllegalStateException e) {
      // The tag's version is raised by compare-and-set: it gives up after losing every round to
      // other writers, or when the request thread is interrupted.
      log.warn("demo: article {} saved, but {} was not invalidated: {}", id, tag, e.getMessage());
      return "not-invalidated";
    }
  }

  private static String savedNotice(HttpServletRequest req, long id) {
    String saved = req.getParameter("saved");
    if (saved == null) {
      return "";
    }
    String ctx = Html.escape(req.getContextPath());
    String tag = Article.tag(id);
    return switch (saved) {
      case "invalidated" -> "<p class=\"notice\">Saved. The cache was told <code>invalidateTag(\"" + tag + "\")</code>:"
          + " <a href=\"" + ctx + "/article/" + id + "\">the article</a>, its JSON and the lists showing it are rebuilt"
          + " on their next request; every other page stays cached.</p>";
      case "cache-unavailable" -> "<p class=\"error\">Saved, but memcached could not be reached to invalidate "
          + tag + ": cached pages show the old text until their TTL runs out.</p>";
      case "not-invalidated" -> "<p class=\"error\">Saved, but the cache could not invalidate " + tag
          + " (memcached was busy with other updates of it, or the request was interrupted): cached pages show the"
          + " old text until their TTL runs out. Save again to retry.</p>";
      default -> "<p class=\"error\">Saved. No PageCache filter is configured, so nothing needed invalidating.</p>";
    };
  }

  private String list(HttpServletRequest req, Cms cms) {
    String ctx = Html.escape(req.getContextPath());
    List<Article> all = cms.all(getServletName());
    StringBuilder html = new StringBuilder("<h1>Editor</h1>\n<p>Signed in as <b>")
        .append(Html.escape(nullToEmpty(req.getRemoteUser()))).append("</b>. Edit an article: saving rebuilds only the pages"
            + " that show it. To rebuild every page of one handler (say, all section lists), use the <b>Refresh</b>"
            + " buttons of the <a href=\"").append(ctx).append("/cache-admin/\">cache admin</a>. View counts live in memcached"
            + " and reach the database every few seconds; the numbers below are the database's.</p>\n<ul class=\"articles\">");
    for (Article a : all) {
      html.append("<li><a href=\"").append(ctx).append("/cms/edit?id=").append(a.id()).append("\">")
          .append(Html.escape(a.title())).append("</a> <span class=\"meta\">#").append(a.id()).append(" · ")
          .append(a.section().title()).append(" · ").append(a.views()).append(" views in the database</span></li>");
    }
    return html.append("</ul>").toString();
  }

  private static String form(HttpServletRequest req, long id, String title, String body, String problem) {
    String ctx = Html.escape(req.getContextPath());
    return "<h1>Edit article " + id + "</h1>\n"
        + (problem == null ? "" : "<p class=\"error\">" + Html.escape(problem) + "</p>\n")
        + "<form method=\"post\" action=\"" + ctx + "/cms/edit\">"
        + "<input type=\"hidden\" name=\"id\" value=\"" + id + "\">"
        + "<input type=\"hidden\" name=\"" + CsrfToken.FIELD + "\" value=\"" + CsrfToken.of(req.getSession()) + "\">"
        + "<p><label>Title<br><input type=\"text\" name=\"title\" maxlength=\"" + Article.MAX_TITLE + "\" value=\""
        + Html.escape(title) + "\"></label></p>"
        + "<p><label>Text (a blank line between paragraphs)<br><textarea name=\"body\" rows=\"12\">" + Html.escape(body)
        + "</textarea></label></p>"
        + "<p><button type=\"submit\">Save</button></p></form>\n"
        + "<p class=\"meta\"><a href=\"" + ctx + "/article/" + id + "\">View the article</a> · <a href=\"" + ctx
        + "/cms/\">All articles</a> · <a href=\"" + ctx + "/cache-admin/\">Cache admin (Refresh buttons)</a></p>";
  }

  private void send(HttpServletRequest req, HttpServletResponse res, int status, String title, String html,
      long start, Cms cms) throws IOException {
    res.setStatus(status);
    res.setHeader("Cache-Control", "no-store");
    res.setContentType("text/html;charset=UTF-8");
    res.getWriter().write(Layout.page(req, title, html, Layout.build(req, getServletName(), start, cms)));
  }

  private static String nullToEmpty(String s) {
    return s == null ? "" : s;
  }
}
