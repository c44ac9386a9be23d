package org.pagecache.internal.capture;

import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.UnsupportedEncodingException;
import java.nio.charset.Charset;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.StandardCharsets;
import java.nio.charset.UnsupportedCharsetException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.pagecache.internal.store.StoredPage.Header;

/**
 * The capturing side of {@link CapturingResponse}: records status, headers, cookies and body and
 * lets nothing reach the client. Every method that can write, set a header or commit is
 * overridden (Spring's {@code ContentCachingResponseWrapper} style); a method left to the wrapper
 * would leak straight to the client and make the captured copy differ from what was sent.
 *
 * <p>{@link CapturingResponse} stops calling it once the response passes through; only the body
 * stream and writer live on (the handler keeps them), and they then forward to the real response.
 * The capture is its own lock: body writes and the hand-over never interleave.
 */
final class BufferingResponse extends HttpServletResponseWrapper {
  private static final DateTimeFormatter HTTP_DATE =
      DateTimeFormatter.RFC_1123_DATE_TIME.withZone(ZoneOffset.UTC).withLocale(Locale.US);

  /** What the body stream calls when the body outgrows the limit: the switch to pass-through. */
  interface Overflow {
    void passThrough() throws IOException;
  }

  private final HttpServletResponse real;
  /** What the capture wraps, until a container's include puts its own wrapper there. */
  private final ServletResponse below;
  /** An include runs: Tomcat puts its include wrapper below the capture (Jetty wraps the outside). */
  private volatile boolean including;
  /**
   * The container's own word that an include runs, for a container whose include wraps neither
   * side of the capture: Undertow marks its own response "inside include" and passes the capture
   * on unchanged, so only the request's dispatcher type tells the capture.
   */
  private final BooleanSupplier includeRuns;
  private final int limit;
  private final String defaultCharset;
  private final Overflow overflow;

  private int status = SC_OK;
  private final List<Header> headers = new ArrayList<>();
  private final List<Cookie> cookies = new ArrayList<>();
  private String mimeType;
  private String charset;
  private boolean charsetExplicit;
  private boolean writerCharsetLocked;
  private String errorMessage;
  /** The sendRedirect call the handler made, or null. */
  private CapturedResponse.Redirect redirect;
  private boolean committed;
  private boolean trailers;
  private int bufferSize = 8192;

  private final ByteArrayOutputStream buffer = new ByteArrayOutputStream(4096);
  private final CaptureStream stream = new CaptureStream();
  private PrintWriter writer;
  /** The writer is the container's (taken after the hand-over): its characters are the container's to flush. */
  private boolean writerIsContainers;
  private boolean streamUsed;
  private volatile boolean handedOver;
  private boolean draining;
  private boolean overflowed;

  BufferingResponse(HttpServletResponse real, int limit, String defaultCharset, Overflow overflow) {
    this(real, limit, defaultCharset, overflow, () -> false);
  }

  BufferingResponse(HttpServletResponse real, int limit, String defaultCharset, Overflow overflow,
      BooleanSupplier includeRuns) {
    super(ForwardShield.below(real)); // a forward closes the capture, never the client's response (Tomcat 11)
    this.includeRuns = includeRuns;
    this.below = getResponse();
    this.real = real;
    this.limit = limit;
    this.defaultCharset = defaultCharset == null ? StandardCharsets.ISO_8859_1.name() : defaultCharset;
    this.overflow = overflow;
  }

  /**
   * Tomcat's include puts its own wrapper directly below the capture (and takes it out again when
   * the include returns): while it is there, the included resource may not change the page's
   * status or headers (Servlet 6 §9.3), and a JSP's {@code setContentType} must not either.
   */
  @Override
  public void setResponse(ServletResponse response) {
    super.setResponse(response);
    including = response != below;
  }

  /** What an included resource may not change: the status, headers, cookies, type and locale. */
  private boolean headFixed() {
    return committed || including();
  }

  /** An include runs, whichever way the container says so (its wrapper below the capture, or the request). */
  private boolean including() {
    return including || includeRuns.getAsBoolean();
  }

  // ---- status, errors, redirects: recorded, and "committed" as the spec says they commit ----

  /** Recorded, not sent: the status is part of the page and decides whether it is stored. */
  @Override
  public void setStatus(int sc) {
    if (!headFixed()) {
      status = sc;
    }
  }

  @Override
  public int getStatus() {
    return status;
  }

  /** Recorded with an empty message: an error is never sent before the filter has judged it. */
  @Override
  public void sendError(int sc) throws IOException {
    sendError(sc, "");
  }

  /** Recorded; the captured body is dropped and the response counts as committed, as the spec says. */
  @Override
  public void sendError(int sc, String msg) throws IOException {
    if (including()) {
      return; // ignored in an include, as the container ignores it
    }
    checkNotCommitted();
    status = sc;
    errorMessage = msg == null ? "" : msg;
    buffer.reset();
    committed = true;
  }

  /** A 302, recorded as the three-argument form records it, and remembered as asked for (see {@link #redirect}). */
  @Override
  public void sendRedirect(String location) throws IOException {
    redirect(new CapturedResponse.Redirect(location, true, true), SC_FOUND);
  }

  /**
   * Servlet 6.1 (Tomcat 11): a redirect with a chosen status, recorded as status plus Location; no
   * {@code @Override} so it compiles against Servlet 6.0.
   */
  public void sendRedirect(String location, int sc, boolean clearBuffer) throws IOException {
    redirect(new CapturedResponse.Redirect(location, clearBuffer, false), sc);
  }

  /**
   * Records a redirect as status plus the Location as given, and the call itself: sent to the
   * client, the redirect is made by the container's own {@code sendRedirect}, which may turn the
   * Location absolute (Undertow does; Tomcat and Jetty keep it relative by default), so the visitor
   * gets the Location the container would have sent without PageCache.
   */
  private void redirect(CapturedResponse.Redirect call, int sc) throws IOException {
    if (including()) {
      return; // ignored in an include, as the container ignores it
    }
    checkNotCommitted();
    redirect = call;
    String location = call.location();
    boolean clearBuffer = call.clearBuffer();
    status = sc;
    setHeader("Location", location);
    if (clearBuffer) {
      drain();
      buffer.reset();
    }
    committed = true;
  }

  // ---- headers: all kept here, in order ----

  /** Kept here, in order, replacing earlier values; X-Cache-Tags too (the filter reads it). */
  @Override
  public void setHeader(String name, String value) {
    if (headFixed() || name == null || special(name, value)) {
      return;
    }
    headers.removeIf(h -> h.name().equalsIgnoreCase(name));
    if (value != null) {
      headers.add(new Header(name, value));
    }
  }

  /** Kept here, in order, beside earlier values. */
  @Override
  public void addHeader(String name, String value) {
    if (headFixed() || name == null || value == null || special(name, value)) {
      return;
    }
    headers.add(new Header(name, value));
  }

  /** Headers with their own setters: Content-Type and Content-Length are not plain headers. */
  private boolean special(String name, String value) {
    if (name.equalsIgnoreCase("Content-Type")) {
      setContentType(value);
      return true;
    }
    if (name.equalsIgnoreCase("Content-Length")) {
      return true; // the filter sets the length of what it actually sends
    }
    return false;
  }

  /** Formatted here (HTTP-date) so the captured header is what a client would have seen. */
  @Override
  public void setDateHeader(String name, long date) {
    setHeader(name, HTTP_DATE.format(Instant.ofEpochMilli(date)));
  }

  /** Formatted here (HTTP-date), as {@link #setDateHeader}. */
  @Override
  public void addDateHeader(String name, long date) {
    addHeader(name, HTTP_DATE.format(Instant.ofEpochMilli(date)));
  }

  /** Kept as text, like every captured header. */
  @Override
  public void setIntHeader(String name, int value) {
    setHeader(name, Integer.toString(value));
  }

  /** Kept as text, like every captured header. */
  @Override
  public void addIntHeader(String name, int value) {
    addHeader(name, Integer.toString(value));
  }

  /** Answers from the captured headers: the real response has none of them yet. */
  @Override
  public boolean containsHeader(String name) {
    return name.equalsIgnoreCase("Content-Type") ? mimeType != null : header(name) != null;
  }

  /** Answers from the captured headers. */
  @Override
  public String getHeader(String name) {
    return name.equalsIgnoreCase("Content-Type") ? getContentType() : header(name);
  }

  /** Answers from the captured headers. */
  @Override
  public Collection<String> getHeaders(String name) {
    return headers.stream().filter(h -> h.name().equalsIgnoreCase(name)).map(Header::value).toList();
  }

  /** Answers from the captured headers, Content-Type included when set. */
  @Override
  public Collection<String> getHeaderNames() {
    LinkedHashSet<String> names = new LinkedHashSet<>();
    headers.forEach(h -> names.add(h.name()));
    if (mimeType != null) {
      names.add("Content-Type");
    }
    return names;
  }

  private String header(String name) {
    for (Header h : headers) {
      if (h.name().equalsIgnoreCase(name)) {
        return h.value();
      }
    }
    return null;
  }

  /** Kept apart: a page that sets a cookie is never stored, and the cookie is replayed when bypassing. */
  @Override
  public void addCookie(Cookie cookie) {
    if (!headFixed()) {
      cookies.add(cookie);
    }
  }

  /** Noted (a page with trailers is never stored) and handed to the real response, which sends trailers last anyway. */
  @Override
  public void setTrailerFields(Supplier<java.util.Map<String, String>> supplier) {
    trailers = true;
    super.setTrailerFields(supplier);
  }

  // ---- content type, charset, length, locale ----

  /** Recorded; a charset parameter goes through {@link #setCharacterEncoding}, as the spec says. */
  @Override
  public void setContentType(String type) {
    if (headFixed()) {
      return;
    }
    if (type == null) {
      mimeType = null;
      if (!writerCharsetLocked) {
        charset = null;
        charsetExplicit = false;
      }
      return;
    }
    String[] parts = type.split(";");
    mimeType = parts[0].trim();
    for (int i = 1; i < parts.length; i++) {
      String p = parts[i].trim();
      if (p.regionMatches(true, 0, "charset=", 0, 8)) {
        setCharacterEncoding(p.substring(8).trim().replace("\"", ""));
      }
    }
  }

  /** The captured type, with the charset once one was set explicitly or fixed by getWriter(). */
  @Override
  public String getContentType() {
    if (mimeType == null) {
      return null;
    }
    String cs = charsetExplicit || writerCharsetLocked ? charset : null;
    return cs == null ? mimeType : mimeType + ";charset=" + cs;
  }

  /** Recorded; no effect after getWriter(), as the spec says. */
  @Override
  public void setCharacterEncoding(String encoding) {
    if (headFixed() || writerCharsetLocked) {
      return;
    }
    charset = encoding;
    charsetExplicit = encoding != null;
  }

  /** The captured charset, else the context's response encoding, else ISO-8859-1. */
  @Override
  public String getCharacterEncoding() {
    return charset != null ? charset : defaultCharset;
  }

  /** Ignored: the filter sets the length of what it actually sends (gzip or not). */
  @Override
  public void setContentLength(int len) {
    // the length of the captured body is known at the end
  }

  /** Ignored, as {@link #setContentLength}. */
  @Override
  public void setContentLengthLong(long len) {
    // the length of the captured body is known at the end
  }

  /** Recorded as Content-Language; the real response's locale is left alone. */
  @Override
  public void setLocale(Locale locale) {
    if (!headFixed() && locale != null) {
      setHeader("Content-Language", locale.toLanguageTag());
    }
  }

  // ---- body ----

  /** The capture stream: into the buffer while capturing, to the client after the hand-over. */
  @Override
  public ServletOutputStream getOutputStream() {
    if (writer != null) {
      throw new IllegalStateException("getWriter() has already been called for this response");
    }
    streamUsed = true;
    return stream;
  }

  /** A writer over the capture stream in the response's charset, which it fixes (spec). */
  @Override
  public PrintWriter getWriter() throws IOException {
    if (writer == null && handedOver && !streamUsed) {
      // The container's own writer: it is flushed when the response ends (an ASYNC dispatch
      // writing through a handed-over capture would otherwise leave its last bytes in ours).
      writer = real.getWriter();
      writerIsContainers = true;
    }
    if (writer == null) {
      if (streamUsed) {
        throw new IllegalStateException("getOutputStream() has already been called for this response");
      }
      String cs = getCharacterEncoding();
      Charset resolved;
      try {
        resolved = Charset.forName(cs);
      } catch (IllegalCharsetNameException | UnsupportedCharsetException e) {
        throw new UnsupportedEncodingException(cs);
      }
      charset = cs;
      writerCharsetLocked = true;
      writer = new PrintWriter(new OutputStreamWriter(stream, resolved), false);
    }
    return writer;
  }

  /** Remembered only: the real buffer is not ours to size while capturing. */
  @Override
  public void setBufferSize(int size) {
    bufferSize = size;
  }

  @Override
  public int getBufferSize() {
    return bufferSize;
  }

  /** Does NOT commit: a page being cached is sent whole, after the handler returns. */
  @Override
  public void flushBuffer() throws IOException {
    drain();
  }

  @Override
  public boolean isCommitted() {
    return committed;
  }

  /** Clears what was captured (status, headers, cookies, type, body); the charset stays once fixed. */
  @Override
  public void reset() {
    if (including()) {
      return; // ignored in an include, as the container ignores it
    }
    checkNotCommitted();
    status = SC_OK;
    headers.clear();
    cookies.clear();
    mimeType = null;
    if (!writerCharsetLocked) {
      charset = null;
      charsetExplicit = false;
    }
    resetBuffer();
  }

  /** Clears the captured body, characters still in the writer included. */
  @Override
  public void resetBuffer() {
    checkNotCommitted();
    drain();
    buffer.reset();
  }

  private void checkNotCommitted() {
    if (committed) {
      throw new IllegalStateException("response already committed");
    }
  }

  /**
   * Pushes characters held in the writer's encoder into the stream (the buffer while capturing, the
   * real response's buffer after the hand-over) without flushing the real response, which would
   * commit it.
   */
  void drain() {
    if (writer == null || writerIsContainers) {
      return;
    }
    draining = true;
    try {
      writer.flush();
    } finally {
      draining = false;
    }
  }

  // ---- the hand-over ----

  /**
   * Writes what was captured to the real response (an error is sent as one); from here on the body
   * stream forwards to the real response. Called with this capture's lock held.
   */
  void handOver() throws IOException {
    drain();
    handedOver = true;
    if (errorMessage != null) {
      real.sendError(status, errorMessage);
      return;
    }
    replayHead(real);
    if (redirect != null) {
      if (!redirect.clearBuffer() && buffer.size() > 0) {
        buffer.writeTo(real.getOutputStream()); // kept in the buffer by sendRedirect(location, sc, false)
      }
      buffer.reset();
      redirect.sendTo(real, status);
      return;
    }
    if (buffer.size() > 0) {
      buffer.writeTo(real.getOutputStream());
      buffer.reset();
    }
  }

  /** Writes status, headers, cookies and content type (not the body) to another response. */
  private void replayHead(HttpServletResponse target) {
    target.setStatus(status);
    for (Header h : headers) {
      if (redirect != null && h.name().equalsIgnoreCase("Location")) {
        continue; // the container's sendRedirect sets it
      }
      if (!PageBuilder.forTheCacheOnly(h.name())) { // cache-internal, like on a hit
        target.addHeader(h.name(), h.value());
      }
    }
    cookies.forEach(target::addCookie);
    if (mimeType != null) {
      target.setContentType(getContentType());
    } else if (charsetExplicit) {
      target.setCharacterEncoding(charset);
    }
  }

  /** What the handler produced; {@code passedThrough} when the real response took over. */
  CapturedResponse finish(boolean passedThrough) {
    drain();
    List<Header> all = new ArrayList<>(headers);
    String type = getContentType();
    if (type != null && !passedThrough) {
      all.add(new Header("Content-Type", type));
    }
    return new CapturedResponse(status, List.copyOf(all), List.copyOf(cookies), buffer.toByteArray(),
        errorMessage, overflowed, passedThrough, trailers, redirect);
  }

  /** Body sink: into the buffer while capturing, to the client after {@link #handOver()}. */
  private final class CaptureStream extends ServletOutputStream {
    @Override
    public void write(int b) throws IOException {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      synchronized (BufferingResponse.this) {
        if (handedOver) {
          real.getOutputStream().write(b, off, len);
          return;
        }
        if (committed) {
          return; // after sendError/sendRedirect the body is the container's
        }
        if (buffer.size() + len > limit) {
          overflowed = true;
          overflow.passThrough();
          real.getOutputStream().write(b, off, len);
          return;
        }
        buffer.write(b, off, len);
      }
    }

    /** Flushes the real response once it has taken over (streaming); nothing to do while capturing. */
    @Override
    public void flush() throws IOException {
      if (handedOver && !draining) {
        real.getOutputStream().flush();
      }
    }

    @Override
    public boolean isReady() {
      return true;
    }

    @Override
    public void setWriteListener(WriteListener listener) {
      // Non-blocking output is only used by async handlers, which pass through before writing.
      try {
        overflow.passThrough();
        real.getOutputStream().setWriteListener(listener);
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
    }
  }
}
