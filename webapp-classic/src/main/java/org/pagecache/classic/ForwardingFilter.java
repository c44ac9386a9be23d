package org.pagecache.classic;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * Forwards {@code /filtered/servlet} and {@code /filtered/jsp} to a servlet and a JSP, as the
 * filter-based front controllers of Struts 2 and many frameworks do; anything else goes on.
 */
public class ForwardingFilter extends HttpFilter {
  @Override
  protected void doFilter(HttpServletRequest req, HttpServletResponse res, FilterChain chain)
      throws IOException, ServletException {
    String target = switch (req.getServletPath() + (req.getPathInfo() == null ? "" : req.getPathInfo())) {
      case "/filtered/servlet" -> "/plain/page";
      case "/filtered/jsp" -> "/WEB-INF/jsp/dispatched.jsp";
      default -> null;
    };
    if (target == null) {
      chain.doFilter(req, res);
    } else {
      req.getRequestDispatcher(target).forward(req, res);
    }
  }
}
