package org.pagecache.internal.capture;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UnsupportedEncodingException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;

/**
 * Whether a GET or HEAD carries a body: such a request bypasses (a "fat GET", Kettle's web cache
 * entanglement, 2020: a search API that reads {@code @RequestBody} on a {@code @GetMapping} would
 * otherwise store the page its sender shaped under the URL everyone asks for). Looked at before the
 * lookup, without reading a byte of the body and without waiting for one:
 * <ul>
 *   <li>HTTP/1.x: the framing headers decide (RFC 9112 section 6.3: a request with neither
 *       {@code Content-Length} nor {@code Transfer-Encoding} has no body), so a positive
 *       {@code Content-Length} or any {@code Transfer-Encoding} is a body; chunked or not.
 *   <li>HTTP/2 and later frame the body in DATA frames, with or without {@code Content-Length}:
 *       besides the headers, the input is asked how many bytes have arrived
 *       ({@code available()}, which neither blocks nor consumes on Jetty 12 and Tomcat 11). Not
 *       {@code isFinished()}: Jetty answers true only once the application has read the end.
 * </ul>
 * DATA frames that have not arrived when the request is looked up are not seen here; the build's
 * own reads are ({@link WatchedRequest}: a build that reads a body byte is not stored).
 */
public final class RequestBody {
  /** The bypass reason {@code Cache-Status} and the stats show. */
  public static final String REASON = "request-body";

  private RequestBody() {}

  /**
   * The request to go on with: for a GET or HEAD over HTTP/2 and later one whose input may be looked
   * at ({@link #carried} opens it, and the application may still ask for a reader), else the
   * request itself (writes read their own bodies).
   */
  public static HttpServletRequest watchable(HttpServletRequest req) {
    String protocol = req.getProtocol();
    String method = req.getMethod();
    boolean safe = "GET".equals(method) || "HEAD".equals(method);
    return !safe || protocol != null && protocol.startsWith("HTTP/1.") ? req : new InputOpened(req);
  }

  /** True when the request carries a body, or may: it must not share a page. */
  public static boolean carried(HttpServletRequest req) {
    if (req.getContentLengthLong() > 0 || req.getHeader("Transfer-Encoding") != null) {
      return true;
    }
    return req instanceof InputOpened opened && opened.bodyArrived();
  }

  /**
   * A request whose input stream PageCache opened to look for a body. The servlet API lets a
   * request hand out either its stream or its reader, never both; so the reader comes from the
   * stream here, decoded as the container would ({@code getCharacterEncoding()}, ISO-8859-1 by
   * default), and an application that reads text keeps working.
   */
  static final class InputOpened extends HttpServletRequestWrapper {
    private BufferedReader reader;

    InputOpened(HttpServletRequest request) {
      super(request);
    }

    /** Bytes of a body have arrived; or the input cannot tell (a filter before took the reader). */
    boolean bodyArrived() {
      try {
        return getInputStream().available() > 0;
      } catch (IOException | IllegalStateException e) {
        return true; // in doubt, the page is not shared
      }
    }

    @Override
    public synchronized BufferedReader getReader() throws IOException {
      if (reader == null) {
        String encoding = getCharacterEncoding();
        Charset charset;
        try {
          charset = encoding == null ? StandardCharsets.ISO_8859_1
              : Charset.forName(encoding);
        } catch (IllegalArgumentException e) {
          throw new UnsupportedEncodingException(encoding);
        }
        reader = new BufferedReader(new InputStreamReader(getInputStream(), charset));
      }
      return reader;
    }
  }
}
