package org.pagecache.internal.capture;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.pagecache.internal.store.StoredPage;
import org.pagecache.internal.store.StoredPage.Header;

/**
 * Revalidation of a stored page (RFC 9111 4.3): the conditional request made from its validators,
 * and the stored headers freshened by the handler's 304. Pure.
 */
public final class Freshening {
  /** Fields a 304 cannot change: they describe the body it does not carry, or the connection. */
  private static final Set<String> KEPT = Set.of("content-length", "content-encoding", "content-type",
      "transfer-encoding", "content-range", "age", "set-cookie", "set-cookie2", "x-cache-tags", "cache-status");

  private Freshening() {}

  /**
   * The conditional headers to ask the handler with: {@code If-None-Match} with the page's own
   * {@code ETag}, {@code If-Modified-Since} with its {@code Last-Modified}; empty when it has neither
   * (PageCache's body hash is not the application's, so it cannot validate with it).
   */
  public static Map<String, String> conditions(StoredPage page) {
    Map<String, String> headers = new LinkedHashMap<>();
    if (page == null || page.isUncacheableMarker() || page.isVaryRecord()) {
      return headers;
    }
    for (Header h : page.headers()) {
      if (h.name().equalsIgnoreCase("ETag")) {
        headers.putIfAbsent("if-none-match", h.value());
      } else if (h.name().equalsIgnoreCase("Last-Modified") && HttpDates.parse(h.value()) != null) {
        headers.putIfAbsent("if-modified-since", h.value());
      }
    }
    return headers;
  }

  /**
   * The stored headers updated with a 304's (RFC 9111 3.2): each field the 304 carries replaces the
   * stored lines of that name, except those about the body; the stored age is dropped (the 304 is new).
   */
  public static List<Header> merged(List<Header> stored, List<Header> notModified) {
    Set<String> replaced = new java.util.HashSet<>();
    for (Header h : notModified) {
      String name = h.name().toLowerCase(Locale.ROOT);
      if (!KEPT.contains(name)) {
        replaced.add(name);
      }
    }
    List<Header> out = new ArrayList<>();
    for (Header h : stored) {
      String name = h.name().toLowerCase(Locale.ROOT);
      if (!replaced.contains(name) && !name.equals("age")) {
        out.add(h);
      }
    }
    for (Header h : notModified) {
      if (replaced.contains(h.name().toLowerCase(Locale.ROOT)) || h.name().equalsIgnoreCase("Age")) {
        out.add(h);
      }
    }
    return out;
  }
}
