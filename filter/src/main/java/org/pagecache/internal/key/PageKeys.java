package org.pagecache.internal.key;

import jakarta.servlet.http.HttpServletRequest;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import org.pagecache.store.Namespace;

/**
 * The one place a page's memcached key is made, for a request being served and for a URL being
 * evicted alike: scheme, host, port, path, sorted query ({@link PageKey}), the values of the
 * headers the handler's pages vary on, and the request's own key parts ({@link RequestParts}:
 * forwarded headers, cookies a policy varies on), hashed under the namespace ({@link Namespace#page}).
 *
 * <p>The headers a key covers are the policy's {@code vary=}; a page whose response names more in
 * {@code Vary} is stored under a variant key (see {@link VaryRecord}).
 */
public final class PageKeys {
  private final Namespace namespace;
  private final IgnoredParameters ignoredParameters;

  public PageKeys(Namespace namespace) {
    this(namespace, IgnoredParameters.none());
  }

  /** @param ignoredParameters query parameters left out of keys, unless a handler's builds read them */
  public PageKeys(Namespace namespace, IgnoredParameters ignoredParameters) {
    this.namespace = namespace;
    this.ignoredParameters = ignoredParameters;
  }

  /** The key of the page this request gets from the handler. */
  public String forRequest(HttpServletRequest req, String handler, List<String> varyHeaders, List<String[]> requestParts) {
    List<String[]> parts = new ArrayList<>(varyHeaders.size() + requestParts.size());
    for (String name : varyHeaders) {
      parts.add(new String[] {name, headerValue(req, name)});
    }
    parts.addAll(requestParts);
    return namespace.page(handler, PageKey.canonical(req.getScheme(), req.getServerName(), req.getServerPort(),
        req.getRequestURI(), req.getQueryString(), dropped(), parts));
  }

  /**
   * The key of the page a plain request for this URL gets: no varied header, no cookie, no
   * forwarded header (what {@code PageCache.evict(url)} removes).
   */
  public String forUrl(String scheme, String host, int port, String rawPath, String rawQuery, String handler,
      List<String> varyHeaders, List<String> varyCookies) {
    return forUrl(scheme, host, port, rawPath, rawQuery, handler, varyHeaders, varyCookies, null);
  }

  /**
   * As {@link #forUrl(String, String, int, String, String, String, List, List)}, with a key part of the
   * request's own after the cookies, where a request's classes of visitors put theirs (vary=device...).
   *
   * @param classPart the key part of one combination of the handler's declared classes, or null
   */
  public String forUrl(String scheme, String host, int port, String rawPath, String rawQuery, String handler,
      List<String> varyHeaders, List<String> varyCookies, String[] classPart) {
    List<String[]> parts = new ArrayList<>();
    for (String name : varyHeaders) {
      parts.add(new String[] {name, ""});
    }
    Set<String> keyed = ignoredParameters.keyedBy(handler);
    if (!keyed.isEmpty()) { // in the order RequestParts.of puts them: parameters, then cookies
      parts.addAll(RequestParts.parameterParts(rawQuery, keyed));
    }
    parts.addAll(RequestParts.ofPlainRequest(varyCookies));
    if (classPart != null) {
      parts.add(classPart);
    }
    return namespace.page(handler, PageKey.canonical(scheme, host, port, rawPath, rawQuery, dropped(), parts));
  }

  /** The query segments no key holds: ignored parameters (those a handler read are key parts of their own). */
  private Predicate<String> dropped() {
    return ignoredParameters.ignoresNone() ? null : ignoredParameters::ignoredSegment;
  }

  public IgnoredParameters ignoredParameters() {
    return ignoredParameters;
  }

  /**
   * Every value of a request header, repeated headers included, in order; "" when absent. The one
   * header lookup of keys: repeated headers are joined with a line break, which no header value
   * holds, so {@code X: a} twice is not the page of {@code X: a,a} (an application reading
   * {@code getHeader} sees {@code a} in one case and {@code a,a} in the other).
   */
  public static String headerValue(HttpServletRequest req, String name) {
    List<String> values = Collections.list(req.getHeaders(name));
    return values.isEmpty() ? "" : values.size() == 1 ? values.get(0) : String.join("\n", values);
  }
}
