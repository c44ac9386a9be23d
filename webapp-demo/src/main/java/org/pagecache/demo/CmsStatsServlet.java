package org.pagecache.demo;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * How often the CMS was called, per handler, as JSON ({@code GET /cms/stats}); never cached (its
 * policy is {@code enabled=false} and it says {@code no-store}), public, read by every page's footer.
 * <pre>
 *   {"delayMillis":300,"total":7,"byHandler":{"article":4,"home":2,"section":1}}
 * </pre>
 */
public class CmsStatsServlet extends HttpServlet {
  private static final long serialVersionUID = 1L;

  @Override
  protected void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException {
    Cms cms = Cms.from(getServletContext());
    CmsCalls calls = cms.calls();
    res.setContentType("application/json;charset=UTF-8");
    res.setHeader("Cache-Control", "no-store");
    res.getWriter().write("{\"delayMillis\":" + cms.delayMillis() + ",\"total\":" + calls.total()
        + ",\"byHandler\":" + Json.counts(calls.byHandler()) + "}\n");
  }
}
