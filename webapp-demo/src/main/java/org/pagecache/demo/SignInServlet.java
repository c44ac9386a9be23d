package org.pagecache.demo;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;
import org.pagecache.PageCache;

/**
 * Readers sign in at {@code /signin} (a form POST with {@code username} and {@code password}, kept in
 * the session) and out at {@code /signout}. Never cached (its policy says {@code enabled=false}); a
 * sign-in changes no page, so the cache evicts nothing for it.
 */
public class SignInServlet extends HttpServlet {
  private static final long serialVersionUID = 1L;

  @Override
  protected void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException {
    form(req, res, null);
  }

  @Override
  protected void doPost(HttpServletRequest req, HttpServletResponse res) throws IOException {
    req.setAttribute(PageCache.CHANGES_NO_PAGE_ATTRIBUTE, true);
    String ctx = req.getContextPath();
    if ("/signout".equals(req.getServletPath())) {
      HttpSession session = req.getSession(false);
      if (session != null && CsrfToken.matches(session, req.getParameter(CsrfToken.FIELD))) {
        session.removeAttribute(Readers.ATTRIBUTE);
      }
      res.sendRedirect(ctx + "/");
      return;
    }
    String reader = Readers.check(req.getParameter("username"), req.getParameter("password"));
    if (reader == null) {
      res.setStatus(HttpServletResponse.SC_UNAUTHORIZED);
      form(req, res, "Unknown reader or wrong password.");
      return;
    }
    HttpSession session = req.getSession(true);
    req.changeSessionId(); // a new id at sign-in: a session id known before it (fixation) signs nobody in
    session.setAttribute(Readers.ATTRIBUTE, reader);
    res.sendRedirect(ctx + "/");
  }

  private static void form(HttpServletRequest req, HttpServletResponse res, String error) throws IOException {
    res.setContentType("text/html;charset=UTF-8");
    res.setHeader("Cache-Control", "no-store");
    String ctx = Html.escape(req.getContextPath());
    res.getWriter().write("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Sign in · PageCache News</title></head>"
        + "<body><h1>Sign in</h1>" + (error == null ? "" : "<p class=\"error\">" + Html.escape(error) + "</p>")
        + "<form method=\"post\" action=\"" + ctx + "/signin\">"
        + "<label>Name <input type=\"text\" name=\"username\" autocomplete=\"username\"></label> "
        + "<label>Password <input type=\"password\" name=\"password\" autocomplete=\"current-password\"></label> "
        + "<button>Sign in</button></form>"
        + "<p>Demo readers: <code>alice</code>/<code>alice</code> and <code>bob</code>/<code>bob</code>"
        + " (built into the demo, not for a real site).</p><p><a href=\"" + ctx + "/\">Back to the news</a></p></body></html>\n");
  }
}
