package org.pagecache.internal.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.net.http.HttpResponse;
import java.util.Arrays;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.pagecache.PageCacheConfig;
import org.pagecache.PageCacheFilter;
import org.pagecache.store.LocalStore;
import org.pagecache.testing.Http;
import org.pagecache.testing.JettyServer;

/**
 * Regression: once a capture had turned to pass-through (here: the body outgrew max.entry.size),
 * Servlet 6.1's {@code sendRedirect(location, 301 or 308, clearBuffer)} went out as a 302, because
 * the pass-through called the one-argument {@code sendRedirect}.
 *
 * <p>Through the real filter on embedded Jetty 12 (ee10). Jetty's ee10 response implements Servlet
 * 6.0 and has no three-argument method, so this covers the emulated redirect; on Tomcat 11 the
 * container's own method is called (same lookup, see {@code StatusRedirect}). The handler calls the
 * method by reflection, as the API jar the project compiles against is 6.0.
 */
class RedirectStatusLostInPassThroughTest {
  private static final int LIMIT = 1024; // max.entry.size=1k
  private JettyServer jetty;

  @AfterEach
  void stop() {
    if (jetty != null) {
      jetty.close();
    }
  }

  @Test
  void aPermanentRedirectAfterTheBodyOutgrewTheCaptureIsSentAs301WithoutTheBody() {
    start(301, true);
    HttpResponse<byte[]> r = Http.get(jetty.uri("/moved"));
    assertEquals(301, r.statusCode());
    assertEquals("/new-home", r.headers().firstValue("Location").map(l -> l.replaceFirst("^https?://[^/]+", "")).orElse(null));
    assertTrue(r.body().length < LIMIT, "the buffer was cleared: " + r.body().length + " bytes");
    assertEquals("BYPASS", r.headers().firstValue("X-Cache").orElse(null));
  }

  @Test
  void aPermanentRedirectThatKeepsTheBufferIsSentAs308WithTheBytesWritten() {
    start(308, false);
    HttpResponse<byte[]> r = Http.get(jetty.uri("/moved"));
    assertEquals(308, r.statusCode());
    assertTrue(r.headers().firstValue("Location").orElse("").endsWith("/new-home"));
    assertEquals(3 * LIMIT, r.body().length);
  }

  private void start(int status, boolean clearBuffer) {
    PageCacheConfig config = PageCacheConfig.builder().ignoreEnvironment().store(new LocalStore())
        .set("max.entry.size", "1k").build();
    jetty = JettyServer.start(ctx -> {
      JettyServer.filter(ctx, new PageCacheFilter(config));
      JettyServer.servlet(ctx, "moved", new MovedServlet(status, clearBuffer), "/moved");
    });
  }

  private static final class MovedServlet extends HttpServlet {
    private final int status;
    private final boolean clearBuffer;

    MovedServlet(int status, boolean clearBuffer) {
      this.status = status;
      this.clearBuffer = clearBuffer;
    }

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException {
      byte[] body = new byte[3 * LIMIT]; // past max.entry.size: the capture turns to pass-through
      Arrays.fill(body, (byte) 'x');
      res.getOutputStream().write(body);
      try {
        res.getClass().getMethod("sendRedirect", String.class, int.class, boolean.class)
            .invoke(res, "/new-home", status, clearBuffer);
      } catch (InvocationTargetException e) {
        throw new IOException(e.getCause());
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException("the filter's response has no Servlet 6.1 sendRedirect", e);
      }
    }
  }
}
