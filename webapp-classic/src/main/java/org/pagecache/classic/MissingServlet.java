package org.pagecache.classic;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/** Knows no page: {@code sendError(404)}, which the container answers with the WAR's error page. */
public class MissingServlet extends HttpServlet {
  @Override
  protected void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException {
    res.sendError(HttpServletResponse.SC_NOT_FOUND, "no such page");
  }
}
