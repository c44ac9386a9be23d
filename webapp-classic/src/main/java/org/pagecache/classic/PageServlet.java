package org.pagecache.classic;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/** A servlet that writes its page itself; the target the forwarding cases dispatch to. */
public class PageServlet extends HttpServlet {
  @Override
  protected void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException {
    res.setContentType("text/html;charset=UTF-8");
    res.getWriter().write("<!doctype html><title>Plain</title><p>A page the servlet wrote itself, "
        + getInitParameter("words") + ".</p>\n");
  }
}
