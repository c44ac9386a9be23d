package org.pagecache.classic;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/** A search API that takes its query from a GET's body, as {@code @RequestBody} on a {@code @GetMapping} does. */
public class SearchServlet extends HttpServlet {
  @Override
  protected void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException {
    StringBuilder query = new StringBuilder();
    req.getReader().lines().forEach(query::append);
    res.setContentType("text/plain;charset=UTF-8");
    res.getWriter().write("results for: " + (query.isEmpty() ? "everything" : query) + "\n");
  }
}
