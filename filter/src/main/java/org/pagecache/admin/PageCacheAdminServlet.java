package org.pagecache.admin;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.pagecache.PageCache;
import org.pagecache.admin.AdminEndpoint;

/**
 * The admin page and JSON API of the page cache: editors refresh a handler after changing content,
 * engineers see whether caching pays off. It shows the cache of the PageCacheFilter of the same web
 * application ({@link PageCache#from}); without one it answers 503.
 *
 * <p>In web.xml (any path; the demo uses {@code /cache-admin/*}):
 * <pre>{@code
 * <servlet>
 *   <servlet-name>pagecache-admin</servlet-name>
 *   <servlet-class>org.pagecache.admin.PageCacheAdminServlet</servlet-class>
 * </servlet>
 * <servlet-mapping>
 *   <servlet-name>pagecache-admin</servlet-name>
 *   <url-pattern>/cache-admin/*</url-pattern>
 * </servlet-mapping>
 * }</pre>
 * Access is refused until configured: a security-constraint for role {@code pagecache-admin}
 * (editors sign in) and/or {@code PAGECACHE_ADMIN_TOKEN} (scripts send {@code Authorization: Bearer}).
 * Routes, fields and the security model: docs/admin-api.md.
 */
public class PageCacheAdminServlet extends HttpServlet {
  private static final long serialVersionUID = 1L;

  private transient AdminEndpoint endpoint;

  @Override
  public void init() {
    endpoint = new AdminEndpoint(getServletName());
  }

  /** Every method goes to the endpoint, which answers 405 with an Allow header itself. */
  @Override
  protected void service(HttpServletRequest req, HttpServletResponse res) throws IOException {
    req.setAttribute(PageCache.CHANGES_NO_PAGE_ATTRIBUTE, Boolean.TRUE); // its POSTs are cache actions, not content
    endpoint.handle(PageCache.from(getServletContext()), req, res);
  }
}
