package org.pagecache.capture;

import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletResponse;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
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
import java.util.function.Supplier;
import org.pagecache.store.CachedPage.Header;

/**
 * Captures everything a handler writes, without letting any of it reach the client, so the filter
 * can decide afterwards whether to store the page. Every method that can write, set a header or
 * commit is overridden; a method left to the wrapper would leak straight to the client and make
 * the captured copy differ from what was sent.
 *
 * <p>Two ways out of capturing, both to "pass-through", where the wrapped response takes over and
 * the page is simply not cached: the body grows past the limit (what was captured is written out
 * first), or the request goes async. {@code flushBuffer()} does NOT commit while capturing: a page
 * being cached is sent whole, after the handler returns.
 *
 * <p>Charset rules follow the servlet spec: {@code getWriter()} fixes the charset; content type and
 * other headers are read at the end, so a type set after {@code getWriter()} still counts.
 */
public final class CapturingResponse extends TagsHeaderHidden {
  private static final DateTimeFormatter HTTP_DATE =
      DateTimeFormatter.RFC_1123_DATE_TIME.withZone(ZoneOffset.UTC).withLocale(Locale.US);

  private final HttpServletResponse real;
  private final int limit;
  private final String defaultCharset;

  private int status = SC_OK;
  private final List<Header> headers = new ArrayList<>();
  private final List<Cookie> cookies = new ArrayList<>();
  private String mimeType;
  private String charset;
  private boolean charsetExplicit;
  private boolean writerCharsetLocked;
  private String errorMessage;
  private boolean committed;
  private boolean trailers;
  private int bufferSize = 8192;

  private final ByteArrayOutputStream buffer = new ByteArrayOutputStream(4096);
  private final CaptureStream stream = new CaptureStream();
  private PrintWriter writer;
  private boolean streamUsed;
  private volatile boolean passThrough;
  private boolean overflowed;
  private java.util.function.Consumer<HttpServletResponse> onPassThrough = r -> { };

  public CapturingResponse(HttpServletResponse real, int limit, String defaultCharset) {
    super(real);
    this.real = real;
    this.limit = limit;
    this.defaultCharset = defaultCharset == null ? StandardCharsets.ISO_8859_1.name() : defaultCharset;
  }

  // ---- status, errors, redirects: recorded, and "committed" as the spec says they commit ----

  @Override
  public void setStatus(int sc) {
    if (passThrough) {
      super.setStatus(sc);
    } else if (!committed) {
      status = sc;
    }
  }

  @Override
  public int getStatus() {
    return passThrough ? super.getStatus() : status;
  }

  @Override
  public void sendError(int sc) throws IOException {
    sendError(sc, "");
  }

  @Override
  public void sendError(int sc, String msg) throws IOException {
    if (passThrough) {
      super.sendError(sc, msg);
      return;
    }
    checkNotCommitted();
    status = sc;
    errorMessage = msg == null ? "" : msg;
    buffer.reset();
    committed = true;
  }

  @Override
  public void sendRedirect(String location) throws IOException {
    sendRedirect(location, SC_FOUND, true);
  }

  /** Servlet 6.1 (Tomcat 11): a redirect with a chosen status; no @Override so it compiles on 6.0. */
  public void sendRedirect(String location, int sc, boolean clearBuffer) throws IOException {
    if (passThrough) {
      super.sendRedirect(location);
      return;
    }
    checkNotCommitted();
    status = sc;
    setHeader("Location", location);
    if (clearBuffer) {
      buffer.reset();
    }
    committed = true;
  }

  /** Servlet 6.1 overload. */
  public void sendRedirect(String location, int sc) throws IOException {
    sendRedirect(location, sc, true);
  }

  /** Servlet 6.1 overload. */
  public void sendRedirect(String location, boolean clearBuffer) throws IOException {
    sendRedirect(location, SC_FOUND, clearBuffer);
  }

  // ---- headers: all kept here, in order ----

  @Override
  public void setHeader(String name, String value) {
    if (passThrough) {
      super.setHeader(name, value); // TagsHeaderHidden keeps X-Cache-Tags from the client
      return;
    }
    if (committed || name == null || special(name, value, true)) {
      return;
    }
    headers.removeIf(h -> h.name().equalsIgnoreCase(name));
    if (value != null) {
      headers.add(new Header(name, value));
    }
  }

  @Override
  public void addHeader(String name, String value) {
    if (passThrough) {
      super.addHeader(name, value);
      return;
    }
    if (committed || name == null || value == null || special(name, value, false)) {
      return;
    }
    headers.add(new Header(name, value));
  }

  /** Headers with their own setters: Content-Type and Content-Length are not plain headers. */
  private boolean special(String name, String value, boolean replace) {
    if (name.equalsIgnoreCase("Content-Type")) {
      setContentType(value);
      return true;
    }
    if (name.equalsIgnoreCase("Content-Length")) {
      return true; // the filter sets the length of what it actually sends
    }
    return false;
  }

  @Override
  public void setDateHeader(String name, long date) {
    setHeader(name, HTTP_DATE.format(Instant.ofEpochMilli(date)));
  }

  @Override
  public void addDateHeader(String name, long date) {
    addHeader(name, HTTP_DATE.format(Instant.ofEpochMilli(date)));
  }

  @Override
  public void setIntHeader(String name, int value) {
    setHeader(name, Integer.toString(value));
  }

  @Override
  public void addIntHeader(String name, int value) {
    addHeader(name, Integer.toString(value));
  }

  @Override
  public boolean containsHeader(String name) {
    if (passThrough) {
      return super.containsHeader(name);
    }
    return name.equalsIgnoreCase("Content-Type") ? mimeType != null : header(name) != null;
  }

  @Override
  public String getHeader(String name) {
    if (passThrough) {
      return super.getHeader(name);
    }
    return name.equalsIgnoreCase("Content-Type") ? getContentType() : header(name);
  }

  @Override
  public Collection<String> getHeaders(String name) {
    if (passThrough) {
      return super.getHeaders(name);
    }
    return headers.stream().filter(h -> h.name().equalsIgnoreCase(name)).map(Header::value).toList();
  }

  @Override
  public Collection<String> getHeaderNames() {
    if (passThrough) {
      return super.getHeaderNames();
    }
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

  @Override
  public void addCookie(Cookie cookie) {
    if (passThrough) {
      super.addCookie(cookie);
    } else if (!committed) {
      cookies.add(cookie);
    }
  }

  @Override
  public void setTrailerFields(Supplier<java.util.Map<String, String>> supplier) {
    trailers = true;
    super.setTrailerFields(supplier);
  }

  // ---- content type, charset, length, locale ----

  @Override
  public void setContentType(String type) {
    if (passThrough) {
      super.setContentType(type);
      return;
    }
    if (committed) {
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

  @Override
  public String getContentType() {
    if (passThrough) {
      return super.getContentType();
    }
    if (mimeType == null) {
      return null;
    }
    String cs = charsetExplicit || writerCharsetLocked ? charset : null;
    return cs == null ? mimeType : mimeType + ";charset=" + cs;
  }

  @Override
  public void setCharacterEncoding(String encoding) {
    if (passThrough) {
      super.setCharacterEncoding(encoding);
      return;
    }
    if (committed || writerCharsetLocked) {
      return; // spec: no effect after getWriter()
    }
    charset = encoding;
    charsetExplicit = encoding != null;
  }

  @Override
  public String getCharacterEncoding() {
    if (passThrough) {
      return super.getCharacterEncoding();
    }
    return charset != null ? charset : defaultCharset;
  }

  @Override
  public void setContentLength(int len) {
    if (passThrough) {
      super.setContentLength(len);
    }
  }

  @Override
  public void setContentLengthLong(long len) {
    if (passThrough) {
      super.setContentLengthLong(len);
    }
  }

  @Override
  public void setLocale(Locale locale) {
    if (passThrough) {
      super.setLocale(locale);
    } else if (!committed && locale != null) {
      setHeader("Content-Language", locale.toLanguageTag());
    }
  }

  // ---- body ----

  @Override
  public ServletOutputStream getOutputStream() {
    if (writer != null) {
      throw new IllegalStateException("getWriter() has already been called for this response");
    }
    streamUsed = true;
    return stream;
  }

  @Override
  public PrintWriter getWriter() throws UnsupportedEncodingException {
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

  @Override
  public void setBufferSize(int size) {
    bufferSize = size;
  }

  @Override
  public int getBufferSize() {
    return bufferSize;
  }

  @Override
  public void flushBuffer() throws IOException {
    if (writer != null) {
      writer.flush();
    }
    if (passThrough) {
      super.flushBuffer();
    }
  }

  @Override
  public boolean isCommitted() {
    return passThrough ? super.isCommitted() : committed;
  }

  @Override
  public void reset() {
    if (passThrough) {
      super.reset();
      return;
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

  @Override
  public void resetBuffer() {
    if (passThrough) {
      super.resetBuffer();
      return;
    }
    checkNotCommitted();
    if (writer != null) {
      writer.flush();
    }
    buffer.reset();
  }

  private void checkNotCommitted() {
    if (committed) {
      throw new IllegalStateException("response already committed");
    }
  }

  // ---- leaving capture ----

  /**
   * Hands the response over to the container: what was captured so far is written to the real
   * response and everything after goes straight through. Used when a request goes async and when
   * the body outgrows the limit. The page is then not cached.
   */
  public synchronized void passThrough() throws IOException {
    if (passThrough) {
      return;
    }
    if (writer != null) {
      writer.flush();
    }
    passThrough = true;
    onPassThrough.accept(real);
    if (errorMessage != null) {
      real.sendError(status, errorMessage);
      return;
    }
    replayHead(real);
    if (buffer.size() > 0) {
      buffer.writeTo(real.getOutputStream());
      buffer.reset();
    }
  }

  /** Writes status, headers, cookies and content type (not the body) to another response. */
  private void replayHead(HttpServletResponse target) {
    target.setStatus(status);
    for (Header h : headers) {
      if (!h.name().equalsIgnoreCase(PageBuilder.TAGS_HEADER)) { // cache-internal, like on a hit
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

  /** Runs on the real response when capturing ends early, e.g. to label it {@code X-Cache: BYPASS}. */
  public void onPassThrough(java.util.function.Consumer<HttpServletResponse> action) {
    this.onPassThrough = action;
  }

  public boolean isPassThrough() {
    return passThrough;
  }

  /** Ends capturing and returns what the handler produced. */
  public synchronized Captured finish() {
    if (writer != null) {
      writer.flush();
    }
    List<Header> all = new ArrayList<>(headers);
    String type = getContentType();
    if (type != null && !passThrough) {
      all.add(new Header("Content-Type", type));
    }
    return new Captured(status, List.copyOf(all), List.copyOf(cookies), buffer.toByteArray(),
        errorMessage, overflowed, passThrough, trailers);
  }

  /** Body sink: into the buffer while capturing, to the client after {@link #passThrough()}. */
  private final class CaptureStream extends ServletOutputStream {
    @Override
    public void write(int b) throws IOException {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      synchronized (CapturingResponse.this) {
        if (passThrough) {
          real.getOutputStream().write(b, off, len);
          return;
        }
        if (committed) {
          return; // after sendError/sendRedirect the body is the container's
        }
        if (buffer.size() + len > limit) {
          overflowed = true;
          passThrough();
          real.getOutputStream().write(b, off, len);
          return;
        }
        buffer.write(b, off, len);
      }
    }

    @Override
    public void flush() throws IOException {
      if (passThrough) {
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
        passThrough();
        real.getOutputStream().setWriteListener(listener);
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
    }
  }

  /** For tests and diagnostics: the body captured so far. */
  OutputStream bufferForTest() {
    return buffer;
  }
}
