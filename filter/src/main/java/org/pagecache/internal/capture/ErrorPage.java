package org.pagecache.internal.capture;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.pagecache.internal.html.Html;
import org.pagecache.internal.store.StoredPage.Header;

/**
 * The small page stored for a {@code sendError} whose status the policy caches: the container's
 * own error page is written past the capture, so PageCache stores this instead.
 */
public final class ErrorPage {
  private ErrorPage() {}

  /** The captured error with a small HTML body naming its status and message. */
  public static CapturedResponse of(CapturedResponse c) {
    String msg = c.errorMessage().isEmpty() ? "Error " + c.status() : c.errorMessage();
    String html = "<!DOCTYPE html><html><head><title>" + c.status() + "</title></head><body><h1>"
        + c.status() + "</h1><p>" + Html.escape(msg) + "</p></body></html>";
    List<Header> headers = new ArrayList<>(c.headers());
    headers.removeIf(h -> h.name().equalsIgnoreCase("Content-Type"));
    headers.add(new Header("Content-Type", "text/html;charset=UTF-8"));
    return new CapturedResponse(c.status(), headers, c.cookies(), html.getBytes(StandardCharsets.UTF_8), null,
        false, false, c.trailers());
  }
}
