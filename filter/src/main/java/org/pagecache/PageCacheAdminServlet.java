package org.pagecache;

import jakarta.servlet.GenericServlet;
import jakarta.servlet.ServletConfig;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServlet;
import java.io.IOException;

/**
 * The admin servlet's name before it moved to {@code org.pagecache.admin}: web.xml files that name
 * {@code org.pagecache.PageCacheAdminServlet} keep deploying and behave exactly as the new one does.
 *
 * <p>It hands every call to {@code org.pagecache.admin.PageCacheAdminServlet}, found by name so
 * that this package does not import the admin package above it (docs/architecture.md).
 *
 * @deprecated name {@code org.pagecache.admin.PageCacheAdminServlet} in web.xml instead
 */
@Deprecated
public class PageCacheAdminServlet extends HttpServlet {
  private static final long serialVersionUID = 1L;
  private static final String CURRENT = "org.pagecache.admin.PageCacheAdminServlet";

  private transient GenericServlet current;

  /** Creates the servlet; the container calls {@link #init(ServletConfig)} before any request. */
  public PageCacheAdminServlet() {}

  @Override
  public void init(ServletConfig config) throws ServletException {
    super.init(config);
    try {
      current = (GenericServlet) Class.forName(CURRENT, true, PageCacheAdminServlet.class.getClassLoader())
          .getDeclaredConstructor().newInstance();
    } catch (ReflectiveOperationException e) {
      throw new ServletException(CURRENT + " could not be created", e);
    }
    current.init(config);
  }

  @Override
  public void service(ServletRequest req, ServletResponse res) throws ServletException, IOException {
    current.service(req, res);
  }

  @Override
  public void destroy() {
    if (current != null) {
      current.destroy();
    }
  }
}
