package org.pagecache.soak;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.pagecache.PageCache;
import org.pagecache.stats.ClusterDelivery;

/**
 * An editor's actions on a frontend, by POST so no cache stands in the way: {@code /editor/refresh?handler=},
 * {@code /editor/tag?tag=}, {@code /editor/evict?url=}; the answer names the clusters that have it
 * and those that will. Lets a test act on a child JVM frontend before it kills it.
 */
public final class EditorActions extends HttpServlet {
  @Override
  protected void doPost(HttpServletRequest req, HttpServletResponse res) throws IOException {
    PageCache cache = PageCache.from(req.getServletContext());
    ClusterDelivery d = switch (req.getPathInfo()) {
      case "/refresh" -> cache.refreshHandler(req.getParameter("handler")).clusters();
      case "/tag" -> cache.invalidateTag(req.getParameter("tag")).clusters();
      case "/evict" -> cache.evict(req.getParameter("url")).clusters();
      default -> null;
    };
    if (d == null) {
      res.sendError(404);
      return;
    }
    res.setContentType("text/plain");
    res.getWriter().print("delivered=" + d.delivered() + " pending=" + d.pending() + " lost=" + d.lost());
  }

  /** Posts an action to the frontend on {@code port}; its answer's body. */
  public static String post(int port, String pathAndQuery) throws IOException, InterruptedException {
    HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
        URI.create("http://127.0.0.1:" + port + "/editor" + pathAndQuery)).timeout(Duration.ofSeconds(30))
        .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() != 200) {
      throw new IOException("editor action " + pathAndQuery + ": HTTP " + r.statusCode() + " " + r.body());
    }
    return r.body();
  }
}
