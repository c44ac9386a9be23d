package org.pagecache.examples;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A handler with a slow backend: every request it really handles sleeps {@code delayMillis} and
 * is counted, so an example can show what the cache saved.
 */
public class SlowServlet extends HttpServlet {
  private static final long serialVersionUID = 1L;

  private final long delayMillis;
  private final AtomicInteger calls = new AtomicInteger();

  public SlowServlet(long delayMillis) {
    this.delayMillis = delayMillis;
  }

  /** How many requests reached this handler (the cache answered the others). */
  public int calls() {
    return calls.get();
  }

  @Override
  protected void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException {
    int call = calls.incrementAndGet();
    try {
      Thread.sleep(delayMillis); // the slow database, remote service or template
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    res.setContentType("text/html;charset=UTF-8");
    res.getWriter().print("<p>" + req.getRequestURI() + " built at " + Instant.now() + " by call " + call + "</p>");
  }
}
