package org.pagecache.internal.vary;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.pagecache.internal.capture.CapturedResponse;
import org.pagecache.internal.store.StoredPage.Header;

/**
 * What a page of declared classes tells the caches in front of PageCache (a CDN, a browser): its
 * {@code Vary} names the request headers the classes are read from ({@code User-Agent} and
 * {@code Sec-CH-UA-Mobile}, {@code Accept-Language}, {@code Accept}), merged into the one the
 * application sent. A cache that honours {@code Vary} then keys on the raw headers, finer than the
 * class, so it can never hand one class's page to another; it keeps more copies than PageCache does
 * (one per header value), which is its cost, not a leak. {@code Cache-Control: private} would also be
 * safe but would keep every shared cache from storing the page at all, and override what the
 * application said (docs/safety.md#classes-of-visitors).
 */
public final class DownstreamVary {
  private DownstreamVary() {}

  /** The response with the classes' headers in its {@code Vary}; the same response without classes or once sent. */
  public static CapturedResponse of(CapturedResponse c, List<String> classes) {
    if (classes.isEmpty() || c.passedThrough()) {
      return c;
    }
    Set<String> names = new LinkedHashSet<>();
    Set<String> lower = new LinkedHashSet<>();
    List<Header> headers = new ArrayList<>(c.headers().size() + 1);
    for (Header h : c.headers()) {
      if (h.name().equalsIgnoreCase("Vary")) {
        for (String v : h.value().split(",")) {
          String name = v.trim();
          if (!name.isEmpty() && lower.add(name.toLowerCase(Locale.ROOT))) {
            names.add(name);
          }
        }
      } else {
        headers.add(h);
      }
    }
    if (lower.contains("*")) {
      return c; // varies on everything already (and is never stored)
    }
    for (String name : HandlerClasses.varyOf(classes)) {
      if (lower.add(name.toLowerCase(Locale.ROOT))) {
        names.add(name);
      }
    }
    headers.add(new Header("Vary", String.join(", ", names)));
    return new CapturedResponse(c.status(), headers, c.cookies(), c.body(), c.errorMessage(), c.overflowed(),
        c.passedThrough(), c.trailers());
  }
}
