package org.pagecache.classic;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * Goes async and dispatches to a view (as Spring MVC's {@code Callable} does), with the request and
 * response it was given: the view prints the container's {@code jakarta.servlet.async.query_string}.
 */
public class AsyncViewServlet extends HttpServlet {
  @Override
  protected void doGet(HttpServletRequest req, HttpServletResponse res) {
    AsyncContext async = req.startAsync(req, res);
    async.start(() -> async.dispatch("/WEB-INF/jsp/asyncview.jsp"));
  }
}
