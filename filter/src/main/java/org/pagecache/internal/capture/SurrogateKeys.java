package org.pagecache.internal.capture;

import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The response headers in which applications and CDNs name a page's tags (surrogate keys):
 * Fastly's {@code Surrogate-Key}, Cloudflare's and Akamai's {@code Cache-Tag}, Varnish's
 * {@code xkey}, besides PageCache's own {@code X-Cache-Tags}. PageCache reads all four (tags
 * separated by spaces or commas). Its own header never leaves the filter; the other three are
 * stripped before the client too, unless {@code tags.headers=pass} sends them on to a CDN in front
 * ({@link #hidden}).
 */
public final class SurrogateKeys {
  /** The CDN headers, besides X-Cache-Tags. */
  public static final List<String> CDN_HEADERS = List.of("Surrogate-Key", "Cache-Tag", "xkey");
  private static final Set<String> LOWER = Set.of("surrogate-key", "cache-tag", "xkey");

  private SurrogateKeys() {}

  static boolean isCdnHeader(String name) {
    return name != null && LOWER.contains(name.toLowerCase(Locale.ROOT));
  }

  /** The response to the client without the CDN tag headers, whichever path sets them (built, replayed, passed through, a hit). */
  public static HttpServletResponse hidden(HttpServletResponse response) {
    return new HttpServletResponseWrapper(response) {
      @Override
      public void setHeader(String name, String value) {
        if (!isCdnHeader(name)) {
          super.setHeader(name, value);
        }
      }

      @Override
      public void addHeader(String name, String value) {
        if (!isCdnHeader(name)) {
          super.addHeader(name, value);
        }
      }
    };
  }
}
