package org.pagecache.internal.capture;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.http.HttpTester;
import org.eclipse.jetty.server.LocalConnector;
import org.eclipse.jetty.server.Server;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.pagecache.internal.store.StoredPage.Header;

/**
 * {@link CapturingResponse} around a real Jetty 12 response, through Jetty's {@code LocalConnector}
 * (the real server without sockets): each test runs a handler against the capture, then looks at
 * both what was captured and what reached the client.
 */
class CapturingResponseTest {
  private static final int LIMIT = 1000;
  private static Server server;
  private static LocalConnector connector;
  private static volatile Exchange current;

  /** What a handler does to the response. */
  interface Handler {
    void run(CapturingResponse response) throws Exception;
  }

  /** One request: what was captured, and the raw response the client received. */
  static final class Exchange {
    final Handler handler;
    CapturedResponse captured;
    HttpTester.Response sent;
    Throwable failure;

    Exchange(Handler handler) {
      this.handler = handler;
    }
  }

  @BeforeAll
  static void start() throws Exception {
    server = new Server();
    connector = new LocalConnector(server);
    server.addConnector(connector);
    ServletContextHandler context = new ServletContextHandler();
    context.addServlet(new ServletHolder(new HttpServlet() {
      @Override
      protected void service(HttpServletRequest req, HttpServletResponse res) {
        Exchange ex = current;
        CapturingResponse capture = new CapturingResponse(res, LIMIT, null);
        capture.onPassThrough(r -> r.setHeader("X-Cache", "BYPASS"));
        try {
          ex.handler.run(capture);
        } catch (Throwable t) {
          ex.failure = t;
        }
        ex.captured = capture.finish();
      }
    }), "/*");
    server.setHandler(context);
    server.start();
  }

  @AfterAll
  static void stop() throws Exception {
    server.stop();
  }

  private static Exchange run(Handler handler) throws Exception {
    Exchange ex = new Exchange(handler);
    current = ex;
    String raw = connector.getResponse("GET /page HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n");
    ex.sent = HttpTester.parseResponse(raw);
    if (ex.failure instanceof Error e) {
      throw e; // an assertion made inside the handler
    }
    if (ex.failure != null) {
      throw new AssertionError("handler failed: " + ex.failure, ex.failure);
    }
    return ex;
  }

  private static void assertNothingSent(Exchange ex) {
    assertEquals(200, ex.sent.getStatus());
    assertEquals(0, ex.sent.getContentBytes() == null ? 0 : ex.sent.getContentBytes().length);
    assertNull(ex.sent.get("X-Handler"));
    assertNull(ex.sent.get("X-Cache"));
  }

  private static byte[] bytes(char c, int n) {
    byte[] b = new byte[n];
    Arrays.fill(b, (byte) c);
    return b;
  }

  // ---- capturing ----

  @Test
  void statusHeadersAndCookiesAreCapturedAndNothingReachesTheClient() throws Exception {
    Exchange ex = run(r -> {
      r.setStatus(404);
      r.setHeader("X-Handler", "1");
      r.addHeader("Vary", "Accept");
      r.addHeader("Vary", "Cookie");
      r.setIntHeader("X-Int", 7);
      r.setDateHeader("Last-Modified", 784111777000L);
      r.addCookie(new Cookie("session", "s1"));
      r.setContentType("text/html;charset=UTF-8");
      assertEquals(404, r.getStatus());
      assertTrue(r.containsHeader("content-type"));
      assertEquals(List.of("Accept", "Cookie"), List.copyOf(r.getHeaders("vary")));
      assertEquals("text/html;charset=UTF-8", r.getHeader("Content-Type"));
    });
    CapturedResponse c = ex.captured;
    assertEquals(404, c.status());
    assertEquals("1", c.header("X-Handler"));
    assertEquals(List.of("Accept", "Cookie"), c.headerValues("Vary"));
    assertEquals("7", c.header("X-Int"));
    assertEquals("Sun, 6 Nov 1994 08:49:37 GMT", c.header("Last-Modified"));
    assertEquals("text/html;charset=UTF-8", c.header("Content-Type"));
    assertEquals("session", c.cookies().get(0).getName());
    assertFalse(c.passedThrough());
    assertNothingSent(ex);
    assertNull(ex.sent.get("Vary"));
    assertNull(ex.sent.get("Set-Cookie"));
  }

  @Test
  void theWriterEncodesInTheCharsetItFixesAndATypeSetAfterwardsStillCounts() throws Exception {
    Exchange ex = run(r -> {
      r.setCharacterEncoding("UTF-8");
      r.getWriter().print("é");
      r.setCharacterEncoding("ISO-8859-1"); // no effect after getWriter()
      r.setContentType("text/plain");
      assertSame(r.getWriter(), r.getWriter());
      assertThrows(IllegalStateException.class, r::getOutputStream);
    });
    assertArrayEquals("é".getBytes(StandardCharsets.UTF_8), ex.captured.body());
    assertEquals("text/plain;charset=UTF-8", ex.captured.header("Content-Type"));
    assertNothingSent(ex);
  }

  @Test
  void theOutputStreamIsCapturedAndTheWriterIsThenRefused() throws Exception {
    Exchange ex = run(r -> {
      r.getOutputStream().write(bytes('a', 10));
      r.getOutputStream().write('b');
      assertThrows(IllegalStateException.class, r::getWriter);
    });
    assertEquals("aaaaaaaaaab", new String(ex.captured.body(), StandardCharsets.US_ASCII));
    assertNothingSent(ex);
  }

  @Test
  void sendErrorRecordsStatusAndMessageDropsTheBodyAndCommitsTheCapture() throws Exception {
    Exchange ex = run(r -> {
      r.getOutputStream().write(bytes('a', 10));
      r.sendError(503, "down");
      assertTrue(r.isCommitted());
      r.setStatus(200);
      r.setHeader("X-Handler", "late");
      r.getOutputStream().write(bytes('b', 10));
      assertThrows(IllegalStateException.class, r::resetBuffer);
      assertThrows(IllegalStateException.class, () -> r.sendError(500));
    });
    CapturedResponse c = ex.captured;
    assertEquals(503, c.status());
    assertEquals("down", c.errorMessage());
    assertEquals(0, c.body().length);
    assertNull(c.header("X-Handler"));
    assertNothingSent(ex);
  }

  @Test
  void sendRedirectRecordsA302WithTheLocationDropsTheBodyAndCommits() throws Exception {
    Exchange ex = run(r -> {
      r.getWriter().print("pending in the writer");
      r.sendRedirect("/elsewhere");
      assertTrue(r.isCommitted());
      assertThrows(IllegalStateException.class, r::reset);
    });
    assertEquals(302, ex.captured.status());
    assertEquals("/elsewhere", ex.captured.header("Location"));
    assertEquals(0, ex.captured.body().length);
    assertNothingSent(ex);
    assertNull(ex.sent.get("Location"));
  }

  @Test
  void aServlet61RedirectWithAStatusIsCapturedWithThatStatus() throws Exception {
    Exchange ex = run(r -> {
      r.getOutputStream().write(bytes('a', 5));
      r.sendRedirect("/moved", 308, false);
    });
    assertEquals(308, ex.captured.status());
    assertEquals("/moved", ex.captured.header("Location"));
    assertEquals(5, ex.captured.body().length);
    assertNothingSent(ex);
  }

  @Test
  void resetClearsStatusHeadersCookiesAndBodyWhileResetBufferClearsOnlyTheBody() throws Exception {
    Exchange ex = run(r -> {
      r.setStatus(201);
      r.setHeader("X-Gone", "1");
      r.addCookie(new Cookie("c", "1"));
      r.getWriter().print("first");
      r.reset();
      r.setHeader("X-Handler", "kept");
      r.getWriter().print("second");
      r.resetBuffer();
      r.getWriter().print("third");
    });
    CapturedResponse c = ex.captured;
    assertEquals(200, c.status());
    assertNull(c.header("X-Gone"));
    assertEquals("kept", c.header("X-Handler"));
    assertTrue(c.cookies().isEmpty());
    assertEquals("third", new String(c.body(), StandardCharsets.ISO_8859_1));
  }

  @Test
  void aContentLengthFromTheHandlerIsIgnoredTheFilterSendsTheLengthItSends() throws Exception {
    Exchange ex = run(r -> {
      r.setContentLength(99);
      r.setContentLengthLong(99);
      r.setHeader("Content-Length", "99");
      r.addHeader("content-length", "99");
      r.getOutputStream().write(bytes('a', 3));
    });
    assertNull(ex.captured.header("Content-Length"));
    assertEquals(3, ex.captured.body().length);
  }

  @Test
  void flushBufferDoesNotCommitWhileCapturing() throws Exception {
    Exchange ex = run(r -> {
      PrintWriter w = r.getWriter();
      w.print("body");
      w.flush();
      r.flushBuffer();
      assertFalse(r.isCommitted());
      r.setStatus(201); // still possible: nothing was sent
      r.setHeader("X-Handler", "1");
    });
    assertEquals(201, ex.captured.status());
    assertEquals("body", new String(ex.captured.body(), StandardCharsets.ISO_8859_1));
    assertNothingSent(ex);
  }

  // ---- leaving capture ----

  @Test
  void outgrowingTheLimitSendsTheCapturedHeadAndBytesFirstThenStreamsTheRest() throws Exception {
    Exchange ex = run(r -> {
      r.setStatus(201);
      r.setHeader("X-Handler", "1");
      r.setHeader(PageBuilder.TAGS_HEADER, "article-1");
      r.setContentType("text/plain");
      r.getOutputStream().write(bytes('a', LIMIT - 10));
      assertFalse(r.isPassThrough());
      r.getOutputStream().write(bytes('b', 20)); // past the limit
      assertTrue(r.isPassThrough());
      r.getOutputStream().write(bytes('c', 5));
    });
    assertTrue(ex.captured.overflowed());
    assertTrue(ex.captured.passedThrough());
    assertEquals(201, ex.sent.getStatus());
    assertEquals("1", ex.sent.get("X-Handler"));
    assertEquals("BYPASS", ex.sent.get("X-Cache"));
    assertTrue(ex.sent.get("Content-Type").startsWith("text/plain"));
    assertNull(ex.sent.get(PageBuilder.TAGS_HEADER));
    String expected = "a".repeat(LIMIT - 10) + "b".repeat(20) + "c".repeat(5);
    assertEquals(expected, new String(ex.sent.getContentBytes(), StandardCharsets.US_ASCII));
  }

  @Test
  void afterPassThroughEveryCallReachesTheRealResponseButTheTagsHeader() throws Exception {
    Exchange ex = run(r -> {
      r.setHeader("X-Before", "1");
      r.passThrough(); // what starting async does
      r.setStatus(202);
      r.setHeader("X-Handler", "after");
      r.setHeader(PageBuilder.TAGS_HEADER, "t1");
      r.addHeader(PageBuilder.TAGS_HEADER, "t2");
      assertEquals(202, r.getStatus());
      assertEquals("after", r.getHeader("X-Handler"));
      assertFalse(r.containsHeader(PageBuilder.TAGS_HEADER));
      assertFalse(r.isCommitted());
      r.getOutputStream().write(bytes('z', 3));
      r.flushBuffer();
      assertTrue(r.isCommitted()); // the real response's state now
    });
    assertTrue(ex.captured.passedThrough());
    assertFalse(ex.captured.overflowed());
    assertEquals(202, ex.sent.getStatus());
    assertEquals("1", ex.sent.get("X-Before"));
    assertEquals("after", ex.sent.get("X-Handler"));
    assertEquals("BYPASS", ex.sent.get("X-Cache"));
    assertNull(ex.sent.get(PageBuilder.TAGS_HEADER));
    assertEquals("zzz", ex.sent.getContent());
  }

  @Test
  void theWriterTakenBeforePassThroughKeepsWritingToTheClient() throws Exception {
    Exchange ex = run(r -> {
      r.setContentType("text/plain;charset=UTF-8");
      PrintWriter w = r.getWriter();
      w.print("before ");
      r.passThrough();
      assertSame(w, r.getWriter());
      w.print("après");
    });
    assertEquals("before après", new String(ex.sent.getContentBytes(), StandardCharsets.UTF_8));
  }

  @Test
  void anErrorCapturedBeforePassThroughIsSentAsAnError() throws Exception {
    Exchange ex = run(r -> {
      r.sendError(404, "no such page");
      r.passThrough();
      assertTrue(r.isCommitted());
    });
    assertEquals(404, ex.sent.getStatus());
    assertTrue(ex.captured.sentError());
  }

  @Test
  void aRedirectWithAStatusInPassThroughKeepsItsStatusAndClearsTheBuffer() throws Exception {
    Exchange ex = run(r -> {
      r.passThrough();
      r.getWriter().print("not for the client");
      r.sendRedirect("/moved", 301, true);
      assertTrue(r.isCommitted());
    });
    assertEquals(301, ex.sent.getStatus());
    assertTrue(ex.sent.get("Location").endsWith("/moved"));
    assertFalse(ex.sent.getContent().contains("not for the client"));
  }

  @Test
  void theCapturedHeadersKeepTheirOrder() throws Exception {
    Exchange ex = run(r -> {
      r.addHeader("B", "1");
      r.addHeader("A", "2");
      r.addHeader("B", "3");
    });
    assertEquals(List.of(new Header("B", "1"), new Header("A", "2"), new Header("B", "3")), ex.captured.headers());
  }
}
