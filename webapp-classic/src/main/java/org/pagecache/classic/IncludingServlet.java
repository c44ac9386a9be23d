package org.pagecache.classic;

import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.PrintWriter;

/** A page assembled from includes: a servlet's fragment and a JSP's, between its own header and footer. */
public class IncludingServlet extends HttpServlet {
  @Override
  protected void doGet(HttpServletRequest req, HttpServletResponse res) throws ServletException, IOException {
    res.setContentType("text/html;charset=UTF-8");
    PrintWriter out = res.getWriter();
    out.write("<!doctype html><title>Included</title><header>Top</header>\n");
    req.getRequestDispatcher("/plain/fragment").include(req, res);
    req.getRequestDispatcher("/WEB-INF/jsp/fragment.jsp").include(req, res);
    out.write("<footer>Bottom</footer>\n");
  }
}
