package org.pagecache.internal.key;

import jakarta.servlet.http.HttpServletRequest;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What of a request, besides its URL and the headers a policy varies on, decides which page it
 * gets; or why it must not share a page at all. Computed before the lookup, from the request alone.
 *
 * <ul>
 *   <li>Headers that decide which site or URL a request is for ({@link #SITE_HEADERS}) are part of
 *       the key whenever present: an application behind a proxy builds its links from them, so an
 *       attacker's {@code X-Forwarded-Host} only ever fills an entry that only the attacker asks
 *       for (unkeyed-input cache poisoning, Kettle 2018).
 *   <li>A method override ({@link #METHOD_OVERRIDES}) bypasses: a framework that honours it treats
 *       the GET as a DELETE or a POST, whose answer is not a page to share, under any key.
 *   <li>Cookies follow the policy's cookie rule ({@code cookies=}); ignored cookies never count.
 *   <li>Ignored query parameters ({@link IgnoredParameters}) are out of the key, except those the
 *       handler's builds were seen reading: each of these is a part {@code param:NAME} with the raw
 *       {@code name=value} segments, so the build of a page knows which of them its key covers.
 * </ul>
 *
 * @param bypass   null when the request may use the cache, else the reason it may not
 * @param cookies  the names of the cookies that made it bypass (names only, never values)
 * @param keyParts name/value pairs to add to the page key (names are lower case; cookies are
 *                 {@code cookie:NAME} and query parameters {@code param:NAME}, which no header name can spell)
 */
public record RequestParts(String bypass, List<String> cookies, List<String[]> keyParts) {
  /**
   * Headers that say which host, scheme, port or path the request is for; keyed whenever present.
   * Besides the {@code X-Forwarded-*} family, the flags that turn a request into an https one: Spring's
   * {@code ForwardedHeaderUtils} honours {@code X-Forwarded-Ssl}; Jetty's {@code ForwardedRequestCustomizer}
   * {@code X-Proxied-Https}, and takes the mere presence of {@code Proxy-ssl-id} or {@code Proxy-auth-cert}
   * for TLS; {@code Front-End-Https} (Microsoft's proxies) and {@code X-Url-Scheme} are honoured by
   * other stacks an application may put behind PageCache. A handler that builds links or redirects
   * from any of them must never hand the result to visitors who did not send it.
   */
  public static final List<String> SITE_HEADERS = List.of("x-forwarded-host", "x-forwarded-proto",
      "x-forwarded-scheme", "x-forwarded-port", "x-forwarded-prefix", "x-forwarded-server", "forwarded",
      "x-host", "x-original-url", "x-rewrite-url", "x-forwarded-ssl", "front-end-https", "x-url-scheme",
      "x-proxied-https", "proxy-ssl-id", "proxy-auth-cert");
  /** Headers that make frameworks treat a request as another method. */
  public static final List<String> METHOD_OVERRIDES = List.of("x-http-method-override", "x-http-method",
      "x-method-override");

  private static final RequestParts PLAIN = new RequestParts(null, List.of(), List.of());

  public RequestParts {
    cookies = List.copyOf(cookies);
    keyParts = List.copyOf(keyParts);
  }

  /**
   * @param cookiesIgnored the policy says {@code cookies=ignore}: no cookie bypasses nor keys the page
   * @param varyCookies the cookies the page is keyed on ({@code cookies=vary:}); empty otherwise
   * @param sessionCookie the container's session cookie name: it follows {@code sessions=}, not the cookie rule
   */
  public static RequestParts of(HttpServletRequest req, boolean cookiesIgnored, List<String> varyCookies,
      IgnoredCookies ignored, String sessionCookie) {
    return of(req, cookiesIgnored, varyCookies, ignored, sessionCookie, ParameterRecord.wholeQuery(Set.of()));
  }

  /** @param keyedParameters what of the query the handler's keys hold ({@link PageKeys#parameters}) */
  public static RequestParts of(HttpServletRequest req, boolean cookiesIgnored, List<String> varyCookies,
      IgnoredCookies ignored, String sessionCookie, ParameterRecord keyedParameters) {
    for (String name : METHOD_OVERRIDES) {
      if (req.getHeader(name) != null) {
        return new RequestParts("method-override", List.of(), List.of());
      }
    }
    List<String[]> parts = keyedParameters.wholeQuery() && keyedParameters.names().isEmpty() ? null
        : parameterParts(req.getQueryString(), keyedParameters);
    for (String name : SITE_HEADERS) {
      String value = joined(req, name);
      if (value != null) {
        parts = parts == null ? new ArrayList<>(2) : parts;
        parts.add(new String[] {name, value});
      }
    }
    if (cookiesIgnored) {
      return parts == null ? PLAIN : new RequestParts(null, List.of(), parts);
    }
    Map<String, List<String>> cookies = req.getHeader("Cookie") == null ? Map.of()
        : CookieNames.parse(Collections.list(req.getHeaders("Cookie")));
    List<String> significant = null;
    for (String name : cookies.keySet()) {
      if (!varyCookies.contains(name) && !name.equals(sessionCookie) && !ignored.ignored(name)) {
        significant = significant == null ? new ArrayList<>(2) : significant;
        significant.add(name);
      }
    }
    if (significant != null) {
      return new RequestParts("cookie", significant, List.of());
    }
    for (String name : varyCookies) { // absent or not, so a visitor without the cookie has one entry
      List<String> values = cookies.get(name);
      parts = parts == null ? new ArrayList<>(2) : parts;
      parts.add(new String[] {"cookie:" + name, values == null ? null : String.join("; ", values)});
    }
    return parts == null ? PLAIN : new RequestParts(null, List.of(), parts);
  }

  /** These parts and one more name/value pair (a signed-in visitor's group). */
  public RequestParts with(String[] part) {
    List<String[]> more = new ArrayList<>(keyParts);
    more.add(part);
    return new RequestParts(bypass, cookies, more);
  }

  /**
   * The key parts of a request that carries no cookie and no forwarded header, the page
   * {@code PageCache.evict(url)} names: under {@code cookies=vary:} its cookies are keyed as absent.
   */
  public static List<String[]> ofPlainRequest(List<String> varyCookies) {
    List<String[]> parts = new ArrayList<>(varyCookies.size());
    for (String name : varyCookies) {
      parts.add(new String[] {"cookie:" + name, null});
    }
    return parts;
  }

  /**
   * A part {@code param:NAME} for each parameter of the record, absent or not, so a visitor without it
   * has one entry; for a record of the parameters read, a last part saying the rest of the query is
   * out of the key ({@link #keyedOnReads}).
   */
  static List<String[]> parameterParts(String rawQuery, ParameterRecord record) {
    List<String[]> parts = new ArrayList<>(record.names().size() + 3);
    for (String name : record.names()) {
      parts.add(new String[] {PARAM + name, QueryParams.rawValues(rawQuery, name)});
    }
    if (!record.wholeQuery()) {
      parts.add(ON_READS);
    }
    return parts;
  }

  private static final String PARAM = "param:";
  /** Marks a key made of the parameters read alone; no header name or {@code param:} part spells it. */
  private static final String[] ON_READS = {"\u0000params", "read"};

  /** Whether these key parts hold the parameters read alone ({@code params=read}): the query itself is out of the key. */
  public static boolean keyedOnReads(List<String[]> keyParts) {
    for (String[] part : keyParts) {
      if (part == ON_READS || ON_READS[0].equals(part[0])) {
        return true;
      }
    }
    return false;
  }

  /**
   * These parts keyed on the parameters read so far and {@code more}, in place of the parameters they
   * key ({@code params=read}): the key of a page whose build read {@code more} besides them; null when
   * that would be more than {@link ParameterRecord#MAX_NAMES} names (the handler goes to the whole query).
   */
  public RequestParts readingAlso(String rawQuery, Collection<String> more) {
    ParameterRecord wider = new ParameterRecord(false, List.copyOf(keyedParameters())).reading(more);
    if (wider.wholeQuery()) {
      return null;
    }
    List<String[]> parts = parameterParts(rawQuery, wider);
    for (String[] part : keyParts) {
      if (!part[0].startsWith(PARAM) && !ON_READS[0].equals(part[0])) {
        parts.add(part);
      }
    }
    return new RequestParts(bypass, cookies, parts);
  }

  /** The ignored query parameters this request's key covers (the handler's builds read them). */
  public Set<String> keyedParameters() {
    Set<String> names = null;
    for (String[] part : keyParts) {
      if (part[0].startsWith(PARAM)) {
        names = names == null ? new java.util.HashSet<>() : names;
        names.add(part[0].substring(PARAM.length()));
      }
    }
    return names == null ? Set.of() : names;
  }

  /** Every value of a header, repeated headers included, in order; null when absent. */
  private static String joined(HttpServletRequest req, String name) {
    return req.getHeader(name) == null ? null : PageKeys.headerValue(req, name);
  }

  /** Lower-case header names that this request's key covers, besides the policy's vary headers. */
  public static boolean keyedHeader(String lowerCaseName) {
    return SITE_HEADERS.contains(lowerCaseName) || METHOD_OVERRIDES.contains(lowerCaseName)
        || lowerCaseName.equals("host") || lowerCaseName.equals("cookie");
  }
}
