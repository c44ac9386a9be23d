package org.pagecache.internal.capture;

import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;
import org.pagecache.internal.store.StoredPage.Header;

/**
 * What a handler produced, as captured by {@link CapturingResponse}: nothing of it has reached the
 * client yet unless {@code passedThrough} is true.
 *
 * @param status        final status
 * @param headers       every header the handler set, in order, Content-Type included
 * @param cookies       cookies added with addCookie (never cached, replayed when bypassing)
 * @param body          the body bytes
 * @param errorMessage  non-null when the handler called sendError (message may be empty)
 * @param overflowed    the body outgrew the capture limit and was streamed to the client instead
 * @param passedThrough the response went to the client directly (async, overflow): nothing to send
 * @param trailers      the handler set trailer fields (never cached)
 * @param redirect      the handler's sendRedirect call (status and Location are in the fields above too), or null
 */
public record CapturedResponse(
    int status,
    List<Header> headers,
    List<Cookie> cookies,
    byte[] body,
    String errorMessage,
    boolean overflowed,
    boolean passedThrough,
    boolean trailers,
    Redirect redirect) {

  /** A response no sendRedirect made. */
  public CapturedResponse(int status, List<Header> headers, List<Cookie> cookies, byte[] body, String errorMessage,
      boolean overflowed, boolean passedThrough, boolean trailers) {
    this(status, headers, cookies, body, errorMessage, overflowed, passedThrough, trailers, null);
  }

  /**
   * A {@code sendRedirect} as the handler called it: the Location as given, and which form. Sent to
   * the client by the container's own method, never as a Location header, since the container
   * decides what the header says (Undertow makes a relative Location absolute).
   *
   * @param oneArgument the Servlet 6.0 {@code sendRedirect(location)} (a 302 that clears the buffer)
   */
  public record Redirect(String location, boolean clearBuffer, boolean oneArgument) {
    /** Makes this redirect on {@code target}, with {@code status} for the three-argument form. */
    void sendTo(HttpServletResponse target, int status) throws IOException {
      if (oneArgument) {
        target.sendRedirect(location);
      } else {
        StatusRedirect.send(target, location, status, clearBuffer);
      }
    }
  }

  /** The same response with another body (e.g. counters filled in). */
  public CapturedResponse withBody(byte[] newBody) {
    return new CapturedResponse(status, headers, cookies, newBody, errorMessage, overflowed, passedThrough, trailers,
        redirect);
  }

  /** The first value of a header, case-insensitively, or null. */
  public String header(String name) {
    for (Header h : headers) {
      if (h.name().equalsIgnoreCase(name)) {
        return h.value();
      }
    }
    return null;
  }

  /** Every value of a header, case-insensitively. */
  public List<String> headerValues(String name) {
    return headers.stream().filter(h -> h.name().equalsIgnoreCase(name)).map(Header::value).toList();
  }

  public boolean setsCookie() {
    return !cookies.isEmpty() || header("Set-Cookie") != null || header("Set-Cookie2") != null;
  }

  public boolean sentError() {
    return errorMessage != null;
  }
}
