package org.pagecache.internal.capture;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UnsupportedEncodingException;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * The response a handler writes to while the filter may still cache the page: at first everything
 * is captured and nothing reaches the client (see {@code BufferingResponse}), so the filter can
 * decide afterwards whether to store the page.
 *
 * <p>Two ways out of capturing, both to "pass-through", where the real response takes over and the
 * page is simply not cached: the body grows past the limit (what was captured is written out
 * first), or the request goes async. The switch is one step: the wrapped response (this wrapper's
 * {@code getResponse()}) changes from the capture to the real response, behind
 * {@link TagsHeaderHidden} so {@code X-Cache-Tags} never reaches the client; every later call is
 * plain delegation. {@code flushBuffer()} does NOT commit while capturing: a page being cached is
 * sent whole, after the handler returns.
 *
 * <p>Charset rules follow the servlet spec: {@code getWriter()} fixes the charset; content type and
 * other headers are read at the end, so a type set after {@code getWriter()} still counts.
 */
public final class CapturingResponse extends HttpServletResponseWrapper {
  private final HttpServletResponse real;
  private final BufferingResponse capture;
  private volatile boolean passThrough;
  private Consumer<HttpServletResponse> onPassThrough = r -> { };

  public CapturingResponse(HttpServletResponse real, int limit, String defaultCharset) {
    this(real, new Switch(), limit, defaultCharset, () -> false);
  }

  /**
   * A capture of {@code real} for {@code request}: while the request's dispatcher type is
   * {@code INCLUDE}, the included resource may not change the page's status or headers (Servlet 6
   * §9.3), also on a container whose include leaves the capture unwrapped (Undertow).
   */
  public CapturingResponse(HttpServletRequest request, HttpServletResponse real, int limit, String defaultCharset) {
    this(real, new Switch(), limit, defaultCharset, () -> request.getDispatcherType() == DispatcherType.INCLUDE);
  }

  private CapturingResponse(HttpServletResponse real, Switch toPassThrough, int limit, String defaultCharset,
      BooleanSupplier includeRuns) {
    super(new BufferingResponse(real, limit, defaultCharset, toPassThrough, includeRuns));
    toPassThrough.response = this;
    this.real = real;
    this.capture = (BufferingResponse) getResponse();
  }

  /** Lets the capture's body stream, built before this wrapper exists, turn it to pass-through. */
  private static final class Switch implements BufferingResponse.Overflow {
    private CapturingResponse response;

    @Override
    public void passThrough() throws IOException {
      response.passThrough();
    }
  }

  // ---- what must outlive the switch ----

  /**
   * Always the capture's stream, which forwards to the real response after the switch: the handler
   * keeps the object it got, and the real response's own stream may already be taken by the replay.
   */
  @Override
  public ServletOutputStream getOutputStream() {
    return capture.getOutputStream();
  }

  /** Always the capture's writer (same reason as {@link #getOutputStream()}; the spec wants one writer). */
  @Override
  public PrintWriter getWriter() throws IOException {
    return capture.getWriter();
  }

  /** Characters still in the capture's writer go first, then the current target flushes (a no-op while capturing). */
  @Override
  public void flushBuffer() throws IOException {
    capture.drain();
    super.flushBuffer();
  }

  /** Characters still in the capture's writer are cleared too. */
  @Override
  public void resetBuffer() {
    capture.drain();
    super.resetBuffer();
  }

  /** Characters still in the capture's writer are cleared too. */
  @Override
  public void reset() {
    capture.drain();
    super.reset();
  }

  /** Characters still in the capture's writer go before the error replaces the buffer, never after it. */
  @Override
  public void sendError(int sc, String msg) throws IOException {
    capture.drain();
    super.sendError(sc, msg);
  }

  /** As {@link #sendError(int, String)}. */
  @Override
  public void sendError(int sc) throws IOException {
    capture.drain();
    super.sendError(sc);
  }

  /** A 302, to the current target (characters still in the writer are dropped with the buffer). */
  @Override
  public void sendRedirect(String location) throws IOException {
    capture.drain();
    super.sendRedirect(location);
  }

  /**
   * Servlet 6.1 (Tomcat 11): a redirect with a chosen status (301, 303, 307, 308), no
   * {@code @Override} so it compiles against Servlet 6.0. Goes to the current target's own method
   * when it has one, else is emulated there: never downgraded to a 302 (see {@code StatusRedirect}).
   */
  public void sendRedirect(String location, int sc, boolean clearBuffer) throws IOException {
    capture.drain();
    StatusRedirect.send((HttpServletResponse) getResponse(), location, sc, clearBuffer);
  }

  /** Servlet 6.1 overload: {@code sendRedirect(location, sc, true)}. */
  public void sendRedirect(String location, int sc) throws IOException {
    sendRedirect(location, sc, true);
  }

  /** Servlet 6.1 overload: {@code sendRedirect(location, 302, clearBuffer)}. */
  public void sendRedirect(String location, boolean clearBuffer) throws IOException {
    sendRedirect(location, SC_FOUND, clearBuffer);
  }

  // ---- leaving capture ----

  /**
   * Hands the response over to the container: what was captured so far is written to the real
   * response and everything after goes straight through. Used when a request goes async and when
   * the body outgrows the limit. The page is then not cached.
   */
  public void passThrough() throws IOException {
    synchronized (capture) {
      if (passThrough) {
        return;
      }
      passThrough = true;
      onPassThrough.accept(real);
      capture.handOver();
      setResponse(new TagsHeaderHidden(real));
    }
  }

  /** Runs on the real response when capturing ends early, e.g. to label it {@code X-Cache: BYPASS}. */
  public void onPassThrough(Consumer<HttpServletResponse> action) {
    this.onPassThrough = action;
  }

  public boolean isPassThrough() {
    return passThrough;
  }

  /** Ends capturing and returns what the handler produced. */
  public CapturedResponse finish() {
    synchronized (capture) {
      return capture.finish(passThrough);
    }
  }
}
