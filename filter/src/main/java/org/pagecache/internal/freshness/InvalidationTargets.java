package org.pagecache.internal.freshness;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

/**
 * The pages a write invalidates (RFC 9111 4.4): after an unsafe request (any method but GET, HEAD,
 * OPTIONS and TRACE) answered with a non-error status (2xx or 3xx), the target URI, and the
 * {@code Location} and {@code Content-Location} URIs the response names when they are on the same
 * host (another host's pages are not this application's to evict). Pure.
 */
public final class InvalidationTargets {
  private static final Set<String> SAFE = Set.of("GET", "HEAD", "OPTIONS", "TRACE");

  private InvalidationTargets() {}

  /**
   * @param method          the request's method
   * @param status          the response's status
   * @param target          the request's absolute URL
   * @param location        the response's Location, or null
   * @param contentLocation the response's Content-Location, or null
   * @return the absolute URLs to evict, the target first; empty for a safe method or an error
   */
  public static List<URI> of(String method, int status, URI target, String location, String contentLocation) {
    List<URI> urls = new ArrayList<>();
    if (!changes(method, status)) {
      return urls;
    }
    urls.add(target);
    for (String ref : new String[] {location, contentLocation}) {
      URI u = resolved(target, ref);
      if (u != null && sameHost(target, u) && !urls.contains(u)) {
        urls.add(u);
      }
    }
    return urls;
  }

  /** Whether a request may have changed pages: an unsafe method answered with 2xx or 3xx. */
  public static boolean changes(String method, int status) {
    return !SAFE.contains(method.toUpperCase(Locale.ROOT)) && status >= 200 && status < 400;
  }

  private static URI resolved(URI base, String ref) {
    if (ref == null || ref.isBlank()) {
      return null;
    }
    try {
      return base.resolve(new URI(ref.trim())).normalize();
    } catch (java.net.URISyntaxException | IllegalArgumentException e) {
      return null; // not a URI: nothing to evict
    }
  }

  private static boolean sameHost(URI a, URI b) {
    return b.getHost() != null && a.getHost() != null && a.getHost().equalsIgnoreCase(b.getHost())
        && Objects.equals(a.getScheme(), b.getScheme()) && port(a) == port(b);
  }

  private static int port(URI u) {
    return u.getPort() != -1 ? u.getPort() : "https".equalsIgnoreCase(u.getScheme()) ? 443 : 80;
  }
}
