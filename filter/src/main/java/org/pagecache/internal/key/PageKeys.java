package org.pagecache.internal.key;

import jakarta.servlet.http.HttpServletRequest;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
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
  private final ParameterRecords records;
  private final ConcurrentHashMap<String, ParameterRecord> wholeQuery = new ConcurrentHashMap<>();

  public PageKeys(Namespace namespace) {
    this(namespace, IgnoredParameters.none());
  }

  /** @param ignoredParameters query parameters left out of keys, unless a handler's builds read them */
  public PageKeys(Namespace namespace, IgnoredParameters ignoredParameters) {
    this.namespace = namespace;
    this.ignoredParameters = ignoredParameters;
    this.records = new ParameterRecords(ignoredParameters.kept());
  }

  /**
   * The key of the page this request gets from the handler.
   *
   * @param requestUri the request's URI as it arrived (not read from {@code req}: see PageRequest)
   * @param queryString its query string as it arrived, or null
   */
  public String forRequest(HttpServletRequest req, String requestUri, String queryString, String handler,
      List<String> varyHeaders, List<String[]> requestParts) {
    List<String[]> parts = new ArrayList<>(varyHeaders.size() + requestParts.size());
    for (String name : varyHeaders) {
      parts.add(new String[] {name, headerValue(req, name)});
    }
    parts.addAll(requestParts);
    Predicate<String> dropped = RequestParts.keyedOnReads(requestParts) ? EVERY_SEGMENT : dropped();
    return namespace.page(handler, PageKey.canonical(req.getScheme(), req.getServerName(), req.getServerPort(),
        requestUri, queryString, dropped, parts));
  }

  /**
   * The key of the page a plain request for this URL gets: no varied header, no cookie, no
   * forwarded header (what {@code PageCache.evict(url)} removes), keyed on the query as the handler's
   * {@link #parameters record} says now.
   *
   * @param keyOnReads the handler's policy says {@code params=read}
   */
  public String forUrl(String scheme, String host, int port, String rawPath, String rawQuery, String handler,
      List<String> varyHeaders, List<String> varyCookies, boolean keyOnReads) {
    return forUrl(scheme, host, port, rawPath, rawQuery, handler, varyHeaders, varyCookies, keyOnReads, null);
  }

  /**
   * As {@link #forUrl(String, String, int, String, String, String, List, List, boolean)}, with a key
   * part of the request's own after the cookies, where a request's classes of visitors put theirs
   * (vary=device...).
   *
   * @param classPart the key part of one combination of the handler's declared classes, or null
   */
  public String forUrl(String scheme, String host, int port, String rawPath, String rawQuery, String handler,
      List<String> varyHeaders, List<String> varyCookies, boolean keyOnReads, String[] classPart) {
    List<String[]> parts = new ArrayList<>();
    for (String name : varyHeaders) {
      parts.add(new String[] {name, ""});
    }
    ParameterRecord record = parameters(handler, keyOnReads);
    parts.addAll(RequestParts.parameterParts(rawQuery, record)); // in RequestParts.of's order: parameters, then cookies
    parts.addAll(RequestParts.ofPlainRequest(varyCookies));
    if (classPart != null) {
      parts.add(classPart);
    }
    return namespace.page(handler, PageKey.canonical(scheme, host, port, rawPath, rawQuery,
        record.wholeQuery() ? dropped() : EVERY_SEGMENT, parts));
  }

  /**
   * What of the query the handler's keys hold now: for {@code params=read} ({@code keyOnReads}) the
   * parameters its builds read, until one saw the whole query; else the whole query less the ignored
   * parameters, with those its builds read keyed beside it.
   */
  public ParameterRecord parameters(String handler, boolean keyOnReads) {
    ParameterRecord record = keyOnReads ? records.of(handler) : null;
    return record != null && !record.wholeQuery() ? record : wholeQuery(handler);
  }

  /** The whole query with the listed parameters the handler read, made again only when they grew (the hit path allocates none). */
  private ParameterRecord wholeQuery(String handler) {
    Set<String> keyed = ignoredParameters.keyedBy(handler);
    ParameterRecord known = wholeQuery.get(handler);
    if (known != null && known.names().size() == keyed.size()) { // the set only grows
      return known;
    }
    ParameterRecord now = ParameterRecord.wholeQuery(keyed);
    wholeQuery.put(handler, now);
    return now;
  }

  /** The {@code params=read} handlers' records. */
  public ParameterRecords records() {
    return records;
  }

  private static final Predicate<String> EVERY_SEGMENT = segment -> true;

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
