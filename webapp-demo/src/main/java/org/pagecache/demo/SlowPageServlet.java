package org.pagecache.demo;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A deliberately slow page: 200 ms of simulated backend work (configurable with the init-param
 * {@code delay}), so the cache's effect is visible in the browser and the footer.
 */
public class SlowPageServlet extends HttpServlet {
  static final AtomicLong BACKEND_CALLS = new AtomicLong();
  private long delayMillis = 200;

  @Override
  public void init() {
    String d = getInitParameter("delay");
    if (d != null) {
      delayMillis = Long.parseLong(d.trim());
    }
  }

  @Override
  protected void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException {
    long calls = BACKEND_CALLS.incrementAndGet();
    try {
      Thread.sleep(delayMillis); // the "backend"
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    res.setContentType("text/html;charset=UTF-8");
    PrintWriter w = res.getWriter();
    w.println("<!DOCTYPE html><html><head><title>PageCache demo</title></head><body>");
    w.println("<h1>A slow page</h1><p>This page takes " + delayMillis + " ms to build.</p>");
    w.println("<footer>Rendered at " + Instant.now() + "; backend calls so far: " + calls + "</footer>");
    w.println("</body></html>");
  }
}
