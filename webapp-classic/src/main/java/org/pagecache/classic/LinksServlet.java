package org.pagecache.classic;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * Absolute links in the scheme a proxy's flag says, as Spring's forwarded-header handling builds
 * them from {@code X-Forwarded-Ssl: on} when it runs after PageCache.
 */
public class LinksServlet extends HttpServlet {
  @Override
  protected void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException {
    String scheme = "on".equalsIgnoreCase(req.getHeader("X-Forwarded-Ssl")) ? "https" : req.getScheme();
    res.setContentType("text/html;charset=UTF-8");
    res.getWriter().write("<a href=\"" + scheme + "://" + req.getServerName() + req.getContextPath() + "/news/1\">news</a>\n");
  }
}
