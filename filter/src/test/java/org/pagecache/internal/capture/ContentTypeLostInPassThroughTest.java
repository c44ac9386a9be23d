package org.pagecache.internal.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.pagecache.PageCacheConfig;
import org.pagecache.PageCacheFilter;
import org.pagecache.store.LocalStore;
import org.pagecache.testing.Http;
import org.pagecache.testing.JettyServer;

/**
 * Regression: when a capture turned to pass-through (the body outgrew max.entry.size, or the
 * request went async), the Content-Type the handler had set was lost: the replay read the type back
 * from the real response, which had none yet, so the client got the page without one (and a
 * browser guessed, a text/plain page could be sniffed as HTML).
 */
class ContentTypeLostInPassThroughTest {
  @Test
  void aPageLargerThanMaxEntrySizeKeepsTheContentTypeItsHandlerSet() {
    PageCacheConfig config = PageCacheConfig.builder().ignoreEnvironment().store(new LocalStore())
        .set("max.entry.size", "1k").build();
    try (JettyServer jetty = JettyServer.start(ctx -> {
      JettyServer.filter(ctx, new PageCacheFilter(config));
      JettyServer.servlet(ctx, "large", new HttpServlet() {
        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException {
          res.setContentType("text/plain;charset=UTF-8");
          res.getWriter().print("é".repeat(2000)); // 4000 bytes: past max.entry.size
        }
      }, "/large");
    })) {
      HttpResponse<byte[]> r = Http.get(jetty.uri("/large"));
      assertEquals(200, r.statusCode());
      assertEquals("BYPASS", r.headers().firstValue("X-Cache").orElse(null));
      assertEquals("text/plain;charset=utf-8", r.headers().firstValue("Content-Type").orElse("").toLowerCase().replace(" ", ""));
      assertEquals("é".repeat(2000), new String(r.body(), StandardCharsets.UTF_8));
    }
  }
}
