package org.pagecache;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import org.pagecache.internal.config.Durations;
import org.pagecache.internal.config.PathPatterns;
import org.pagecache.internal.config.Specs;
import org.pagecache.internal.fragments.SignedInRule;
import org.pagecache.internal.vary.Formats;
import org.pagecache.internal.vary.HandlerClasses;
import org.pagecache.internal.vary.Languages;

/**
 * How the pages of one handler are cached. Written as a one-line spec, e.g. in web.xml:
 * <pre>
 *   ttl=5m, grace=10m, vary=Accept-Language, statuses=200|301|404, paths=/article/*
 * </pre>
 * <table>
 *   <caption>keys of a policy spec</caption>
 *   <tr><td>ttl</td><td>how long a page is fresh</td></tr>
 *   <tr><td>grace</td><td>how long after that a stale page may still be served while one request rebuilds it</td></tr>
 *   <tr><td>vary</td><td>request headers that make different pages, and declared classes of visitors:
 *       device (mobile, tablet, desktop), language (languages=), format (formats=) (|-separated)</td></tr>
 *   <tr><td>languages</td><td>with vary=language: the site's languages, the default first (en|de|fr)</td></tr>
 *   <tr><td>formats</td><td>with vary=format: the types negotiated from Accept, the default first
 *       (text/html|application/json)</td></tr>
 *   <tr><td>statuses</td><td>cacheable statuses (|-separated); default 200|203|300|301|308</td></tr>
 *   <tr><td>paths</td><td>URL patterns whose requests belong to this handler, where a pattern is at least as
 *       specific as the mapping that serves the request (servlet-mapping order: exact, longest prefix,
 *       extension, default)</td></tr>
 *   <tr><td>overrides</td><td>handlers (|-separated) whose URLs this handler's paths claim however specific
 *       their mappings; refused where such a handler's own settings are stricter</td></tr>
 *   <tr><td>cache-control</td><td>honor: the handler's s-maxage/max-age sets the TTL (capped at ttl-max)</td></tr>
 *   <tr><td>ttl-max</td><td>upper bound of a TTL taken from Cache-Control; default 1h</td></tr>
 *   <tr><td>authorized</td><td>allow: cache requests that carry Authorization (off: they bypass)</td></tr>
 *   <tr><td>sessions</td><td>anonymous (default): a request with a session id and no signed-in user is served
 *       from the cache, and builds a shared page only if the build used nothing of the session
 *       (docs/safety.md); off: every request with a session id bypasses; allow: they are cached as if
 *       they had none</td></tr>
 *   <tr><td>early-refresh</td><td>on, off or a strength (1.0 = on): rebuild hot pages shortly before expiry</td></tr>
 *   <tr><td>enabled</td><td>false: never cache this handler</td></tr>
 *   <tr><td>cookies</td><td>bypass (default): a request with a cookie that is not ignored bypasses;
 *       vary:NAME|NAME: keyed on these cookies; ignore: the pages never depend on a cookie</td></tr>
 *   <tr><td>headers</td><td>report (default): headers the handler reads that are not in the key are
 *       shown on the admin page and logged; strict: such pages are not stored</td></tr>
 *   <tr><td>harmless</td><td>request headers the handler reads that do not change its pages (|-separated)</td></tr>
 *   <tr><td>invalidate</td><td>on (default): a successful POST, PUT, DELETE... evicts the page at its URL
 *       and at its same-host Location/Content-Location; off: it does not</td></tr>
 *   <tr><td>signed-in</td><td>bypass (default): requests of a signed-in visitor go to the handler; shared,
 *       roles:A|B, context or user: they are served from the cache, one page per group computed from the
 *       principal, with their fragments filled in for them, and a build is shared only if it read nothing
 *       personal outside its fragments (docs/fragments.md)</td></tr>
 *   <tr><td>origin-cache-headers</td><td>obey (default): the handler's "do not reuse me" headers refuse the
 *       page; ignore: its Expires, Cache-Control max-age, s-maxage, no-cache, must-revalidate,
 *       proxy-revalidate and Pragma are for browsers only, the policy's TTL decides (never Set-Cookie,
 *       private or no-store; docs/safety.md)</td></tr>
 *   <tr><td>refreshed-by</td><td>path patterns (|-separated, /dir/* one segment, /dir/** any depth): a
 *       successful write to a matching path refreshes every page of this handler</td></tr>
 * </table>
 *
 * @param handler the handler's name: the servlet's name, {@link PageCache#HANDLER_ATTRIBUTE}, or
 *     the name a policy is configured under
 * @param ttl how long a page is fresh
 * @param grace how long after {@code ttl} a stale page may still be served while one request
 *     rebuilds it; 0 serves no stale page
 * @param vary request header names (lower case) whose values make different pages
 * @param classes the declared classes of visitors whose pages differ ({@code vary=device},
 *     {@code language}, {@code format}), in that order: one page per class, built for a
 *     representative request of the class (docs/configuration.md#classes-of-visitors)
 * @param languages with {@code vary=language}: the site's language tags, the default first
 * @param formats with {@code vary=format}: the media types negotiated from {@code Accept}, the default first
 * @param statuses the response statuses whose pages are stored
 * @param paths URL patterns ({@code /exact}, {@code /prefix/*}, {@code *.ext}) whose requests
 *     belong to this handler; empty when only the servlet or the handler attribute decides
 * @param honorCacheControl true ({@code cache-control=honor}): the handler's {@code s-maxage} or
 *     {@code max-age} sets the TTL, up to {@code ttlMax}
 * @param ttlMax the longest TTL taken from Cache-Control
 * @param allowAuthorized true: requests with an Authorization header are cached too; false: they
 *     bypass the cache
 * @param allowSessions true ({@code sessions=allow}): requests with a session id are cached as if they
 *     had none; false: {@code anonymousSessions} decides
 * @param earlyRefresh strength of the early refresh of hot pages, from 0 (off) to 10; {@code on} is 1.0
 * @param enabled false: this handler's pages are never cached
 * @param cookies how the pages depend on request cookies
 * @param strictHeaders true ({@code headers=strict}): a page whose handler read a request header
 *     that is not in the key is not stored; false: it is only reported
 * @param harmless request header names (lower case) the handler reads that do not change its pages
 * @param pool the memcached pool of the handler's pages ({@code memcached.pools}); empty for the
 *     main cluster
 * @param invalidateOnWrite true (the default): after a successful unsafe request (POST, PUT, DELETE...)
 *     to this handler, the page at its URL and at the same-host {@code Location} and
 *     {@code Content-Location} it answered with are evicted (RFC 9111 4.4); false ({@code invalidate=off}): not
 * @param anonymousSessions true ({@code sessions=anonymous}, the default): a request with a session id
 *     and no authenticated user may be served from the cache, and shares its build only when the
 *     build used nothing of the session; false ({@code sessions=off}): every such request bypasses
 * @param signedIn how signed-in visitors are served ({@code signed-in=}): {@code bypass} (the default),
 *     {@code shared}, {@code roles:A|B}, {@code context} or {@code user} (docs/fragments.md)
 * @param ignoreOriginCacheHeaders true ({@code origin-cache-headers=ignore}): the handler's
 *     {@code Expires}, {@code Cache-Control} lifetimes, {@code no-cache}, {@code must-revalidate},
 *     {@code proxy-revalidate} and {@code Pragma: no-cache} neither refuse the page nor set its TTL;
 *     {@code Set-Cookie}, {@code private} and {@code no-store} still refuse it. False ({@code obey}): they count
 * @param refreshedBy path patterns ({@code refreshed-by=}, Spring's {@code PathPattern} syntax): a
 *     successful unsafe request to a matching path refreshes every page of this handler
 * @param overrides handlers ({@code overrides=}) whose URLs this handler's {@code paths} claim even
 *     where the handler's mapping is more specific than the pattern; empty: a pattern claims a URL
 *     only where it is at least as specific as the mapping that serves it
 * @param keyOnReads true ({@code params=read}): the page's key holds the query parameters the handler's
 *     builds read, not the others (docs/safety.md, "Keys hold the parameters pages read"); false
 *     ({@code params=all}): the whole query less the ignored tracking parameters. The site-wide
 *     default is {@code params.key}
 */
public record CachePolicy(
    String handler,
    Duration ttl,
    Duration grace,
    List<String> vary,
    Set<Integer> statuses,
    List<String> paths,
    boolean honorCacheControl,
    Duration ttlMax,
    boolean allowAuthorized,
    boolean allowSessions,
    double earlyRefresh,
    boolean enabled,
    CookieRule cookies,
    boolean strictHeaders,
    List<String> harmless,
    String pool,
    boolean invalidateOnWrite,
    boolean anonymousSessions,
    String signedIn,
    boolean ignoreOriginCacheHeaders,
    List<String> refreshedBy,
    List<String> overrides,
    boolean keyOnReads,
    List<String> classes,
    List<String> languages,
    List<String> formats) {

  /** The statuses cached when a policy sets no {@code statuses}: 200, 203, 300, 301 and 308. */
  public static final Set<Integer> DEFAULT_STATUSES = Set.of(200, 203, 300, 301, 308);
  private static final String KEYS = "ttl, grace, vary, languages, formats, statuses, paths, cache-control, ttl-max, authorized,"
      + " sessions, early-refresh, enabled, cookies, headers, harmless, pool, invalidate, signed-in,"
      + " origin-cache-headers, refreshed-by, overrides, params";

  /**
   * Copies the lists and the set, so a policy never changes once made. Values are not checked
   * here: build policies with {@link #defaults} and {@link #with(String)}, which validate the spec.
   */
  public CachePolicy {
    vary = List.copyOf(vary);
    statuses = Set.copyOf(statuses);
    paths = List.copyOf(paths);
    harmless = List.copyOf(harmless);
    refreshedBy = List.copyOf(refreshedBy);
    overrides = List.copyOf(overrides);
    classes = List.copyOf(classes);
    languages = List.copyOf(languages);
    formats = List.copyOf(formats);
  }

  /** The policy every handler gets unless configured otherwise. */
  public static CachePolicy defaults(String handler, Duration ttl, Duration grace) {
    return new CachePolicy(handler, ttl, grace, List.of(), DEFAULT_STATUSES, List.of(), false,
        Duration.ofHours(1), false, false, 0, true, CookieRule.BYPASS, false, List.of(), "", true, true, "bypass", false,
        List.of(), List.of(), false, List.of(), List.of(), List.of());
  }

  /** This policy keyed on the parameters its builds read ({@code params=read}), or on the whole query. */
  CachePolicy keyedOnReads(boolean onReads) {
    return new CachePolicy(handler, ttl, grace, vary, statuses, paths, honorCacheControl, ttlMax, allowAuthorized,
        allowSessions, earlyRefresh, enabled, cookies, strictHeaders, harmless, pool, invalidateOnWrite, anonymousSessions,
        signedIn, ignoreOriginCacheHeaders, refreshedBy, overrides, onReads, classes, languages, formats);
  }

  /** This policy under another handler's name (a configured default applied to a handler). */
  CachePolicy named(String name) {
    return new CachePolicy(name, ttl, grace, vary, statuses, paths, honorCacheControl, ttlMax, allowAuthorized,
        allowSessions, earlyRefresh, enabled, cookies, strictHeaders, harmless, pool, invalidateOnWrite, anonymousSessions,
        signedIn, ignoreOriginCacheHeaders, refreshedBy, overrides, keyOnReads, classes, languages, formats);
  }

  /**
   * This policy with the settings of a spec applied on top; the handler name is kept.
   *
   * @param spec a policy spec such as {@code ttl=5m, vary=Accept-Language}; keys it does not name
   *     keep this policy's values
   * @throws IllegalArgumentException when an item is not {@code key=value}, a key is unknown, a
   *     value is not accepted, or the resulting ttl is 0; the message names
   *     {@code policies[handler].key} and what is accepted
   */
  public CachePolicy with(String spec) {
    String param = "policies[" + handler + "]";
    Duration ttl = this.ttl;
    Duration grace = this.grace;
    List<String> vary = this.vary;
    Set<Integer> statuses = this.statuses;
    List<String> paths = this.paths;
    boolean cc = honorCacheControl;
    Duration ttlMax = this.ttlMax;
    boolean auth = allowAuthorized;
    boolean sessions = allowSessions;
    boolean anonymous = anonymousSessions;
    double early = earlyRefresh;
    boolean enabled = this.enabled;
    CookieRule cookies = this.cookies;
    boolean strict = strictHeaders;
    List<String> harmless = this.harmless;
    boolean invalidate = invalidateOnWrite;
    String pool = this.pool;
    String signedIn = this.signedIn;
    boolean ignoreOrigin = ignoreOriginCacheHeaders;
    List<String> refreshedBy = this.refreshedBy;
    List<String> overrides = this.overrides;
    boolean onReads = keyOnReads;
    List<String> classes = this.classes;
    List<String> languages = this.languages;
    List<String> formats = this.formats;
    boolean languagesNamed = false;
    boolean formatsNamed = false;
    for (Specs.Item item : Specs.keyValues(spec)) {
      if (!item.wellFormed()) {
        throw new IllegalArgumentException(param + ": '" + item.text()
            + "' is not key=value; keys: " + KEYS);
      }
      String key = item.name().toLowerCase(Locale.ROOT);
      String value = item.value();
      String p = param + "." + key;
      switch (key) {
        case "ttl" -> ttl = Durations.parse(p, value);
        case "grace" -> grace = Durations.parse(p, value);
        case "vary" -> {
          List<String> named = headerNames(p, value);
          classes = HandlerClasses.NAMES.stream().filter(named::contains).toList();
          vary = named.stream().filter(n -> !HandlerClasses.NAMES.contains(n)).toList();
          checkClassHeaders(p, classes, vary);
        }
        case "languages" -> {
          languages = Languages.parse(p, value).tags();
          languagesNamed = true;
        }
        case "formats" -> {
          formats = Formats.parse(p, value).types();
          formatsNamed = true;
        }
        case "statuses" -> statuses = statuses(p, value);
        case "paths" -> paths = paths(p, value);
        case "cache-control" -> cc = ParameterValues.bool(p, value);
        case "ttl-max" -> ttlMax = Durations.parse(p, value);
        case "authorized" -> auth = ParameterValues.bool(p, value);
        case "sessions" -> {
          String mode = sessionsMode(p, value);
          sessions = mode.equals("allow");
          anonymous = mode.equals("anonymous");
        }
        case "early-refresh" -> early = earlyRefresh(p, value);
        case "enabled" -> enabled = ParameterValues.bool(p, value);
        case "cookies" -> cookies = CookieRule.parse(p, value);
        case "headers" -> strict = headersMode(p, value);
        case "harmless" -> harmless = headerNames(p, value);
        case "pool" -> pool = poolName(p, value);
        case "invalidate" -> invalidate = ParameterValues.bool(p, value);
        case "signed-in" -> signedIn = SignedInRule.parse(p, value).spec();
        case "origin-cache-headers" -> ignoreOrigin = originCacheHeaders(p, value);
        case "refreshed-by" -> refreshedBy = writePaths(p, value);
        case "overrides" -> overrides = handlerNames(p, value);
        case "params" -> onReads = paramsMode(p, value);
        default -> throw new IllegalArgumentException(p + ": unknown key '" + key
            + "'; keys: " + KEYS);
      }
    }
    if (ttl.isZero()) {
      throw new IllegalArgumentException(param + ".ttl: '0s' must be at least 1s; use enabled=false to turn caching off");
    }
    if (ignoreOrigin && cc) {
      // ignore leaves the TTL to the policy; honor takes it from the very headers ignore sets aside
      throw new IllegalArgumentException(param + ": origin-cache-headers=ignore and cache-control=honor contradict"
          + " each other; keep one (add cache-control=off when the default policy honors)");
    }
    checkClassLists(param, classes, languages, languagesNamed, formats, formatsNamed);
    return new CachePolicy(handler, ttl, grace, vary, statuses, paths, cc, ttlMax, auth, sessions, early, enabled,
        cookies, strict, harmless, pool, invalidate, anonymous, signedIn, ignoreOrigin, refreshedBy, overrides,
        onReads, classes, languages, formats);
  }

  /**
   * A class and a header it is read from cannot both be keyed: the class would be one page per
   * header value again.
   */
  private static void checkClassHeaders(String param, List<String> classes, List<String> headers) {
    for (String header : HandlerClasses.headersOf(classes)) {
      if (headers.contains(header)) {
        throw new IllegalArgumentException(param + ": '" + header + "' is what a declared class of this vary= is read"
            + " from; keep the class (device, language, format: one page per class) or the header (one page per"
            + " value), not both");
      }
    }
  }

  /** {@code vary=language} needs its languages and {@code vary=format} its formats; neither list stands alone. */
  private static void checkClassLists(String param, List<String> classes, List<String> languages,
      boolean languagesNamed, List<String> formats, boolean formatsNamed) {
    if (classes.contains(HandlerClasses.LANGUAGE) && languages.isEmpty()) {
      throw new IllegalArgumentException(param + ".languages: vary=language needs the site's languages, the default"
          + " first; add e.g. languages=en|de|fr");
    }
    if (classes.contains(HandlerClasses.FORMAT) && formats.isEmpty()) {
      throw new IllegalArgumentException(param + ".formats: vary=format needs the formats the handler answers in,"
          + " the default first; add e.g. formats=text/html|application/json");
    }
    if (languagesNamed && !classes.contains(HandlerClasses.LANGUAGE)) {
      throw new IllegalArgumentException(param + ".languages: '" + String.join("|", languages) + "' is given without"
          + " vary=language; add language to vary= (e.g. vary=language, languages=en|de|fr) or leave languages out");
    }
    if (formatsNamed && !classes.contains(HandlerClasses.FORMAT)) {
      throw new IllegalArgumentException(param + ".formats: '" + String.join("|", formats) + "' is given without"
          + " vary=format; add format to vary= (e.g. vary=format, formats=text/html|application/json) or leave"
          + " formats out");
    }
  }

  /**
   * The request headers (lower case) this policy's pages are keyed on: its {@code vary=} headers and
   * those its declared classes are read from. None of them is an unkeyed read, and a response's
   * {@code Vary} naming one makes no variant of its own.
   */
  public List<String> keyedHeaders() {
    if (classes.isEmpty()) {
      return vary;
    }
    List<String> all = new ArrayList<>(vary);
    all.addAll(HandlerClasses.headersOf(classes));
    return all;
  }

  /**
   * {@code read} or {@code all}: whether a page's key holds the query parameters its builds read, or
   * the whole query (the policy item {@code params}, the site-wide {@code params.key}).
   */
  static boolean paramsMode(String param, String value) {
    return switch (value.trim().toLowerCase(Locale.ROOT)) {
      case "read" -> true;
      case "all" -> false;
      default -> throw new IllegalArgumentException(param + ": '" + value + "' is not accepted; use read (the key"
          + " holds the query parameters the handler's pages read) or all (the whole query less tracking parameters)");
    };
  }

  /** {@code allow}, {@code anonymous} or {@code off}; the switch words of other keys are accepted too. */
  private static String sessionsMode(String param, String value) {
    String v = value.trim().toLowerCase(Locale.ROOT);
    if (v.equals("anonymous")) {
      return v;
    }
    try {
      return ParameterValues.bool(param, value) ? "allow" : "off";
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(param + ": '" + value + "' is not accepted; use anonymous (the default),"
          + " off or allow", e);
    }
  }

  /** The policy in its own spec syntax, for the admin page and logs. */
  public String spec() {
    return "ttl=" + Durations.format(ttl) + ", grace=" + Durations.format(grace)
        + (vary.isEmpty() && classes.isEmpty() ? "" : ", vary=" + String.join("|", varyList()))
        + (classes.contains(HandlerClasses.LANGUAGE) ? ", languages=" + String.join("|", languages) : "")
        + (classes.contains(HandlerClasses.FORMAT) ? ", formats=" + String.join("|", formats) : "")
        + ", statuses=" + String.join("|", new TreeSet<>(statuses).stream().map(String::valueOf).toList())
        + (paths.isEmpty() ? "" : ", paths=" + String.join("|", paths))
        + (honorCacheControl ? ", cache-control=honor" : "")
        + (allowAuthorized ? ", authorized=allow" : "")
        + (allowSessions ? ", sessions=allow" : anonymousSessions ? "" : ", sessions=off")
        + (earlyRefresh > 0 ? ", early-refresh=" + earlyRefresh : "")
        + (enabled ? "" : ", enabled=false")
        + ", cookies=" + cookies.spec()
        + (strictHeaders ? ", headers=strict" : "")
        + (harmless.isEmpty() ? "" : ", harmless=" + String.join("|", harmless))
        + (pool.isEmpty() ? "" : ", pool=" + pool)
        + (invalidateOnWrite ? "" : ", invalidate=off")
        + (signedInRule().mode() == SignedInRule.Mode.BYPASS ? "" : ", signed-in=" + signedIn)
        + (ignoreOriginCacheHeaders ? ", origin-cache-headers=ignore" : "")
        + (refreshedBy.isEmpty() ? "" : ", refreshed-by=" + String.join("|", refreshedBy))
        + (overrides.isEmpty() ? "" : ", overrides=" + String.join("|", overrides))
        + (keyOnReads ? ", params=read" : "");
  }

  /** {@code vary=} as written: the declared classes, then the headers. */
  private List<String> varyList() {
    List<String> all = new ArrayList<>(classes);
    all.addAll(vary);
    return all;
  }

  /** How this policy serves signed-in visitors, parsed. */
  SignedInRule signedInRule() {
    return SignedInRule.of(signedIn);
  }

  /** A pool's name as {@code memcached.pools} defines them; whether it is defined is checked at start-up. */
  private static String poolName(String param, String value) {
    if (!value.matches("[a-z0-9_-]{1,32}")) {
      throw new IllegalArgumentException(param + ": '" + value
          + "' is not a pool name; use 1 to 32 characters of a-z 0-9 _ - as defined in memcached.pools");
    }
    return value;
  }

  /** {@code obey} (the default) or {@code ignore}: whether the handler's browser caching headers are set aside. */
  private static boolean originCacheHeaders(String param, String value) {
    return switch (value.trim().toLowerCase(Locale.ROOT)) {
      case "obey" -> false;
      case "ignore" -> true;
      default -> throw new IllegalArgumentException(param + ": '" + value
          + "' is not accepted; use obey (the default: the handler's Expires, Cache-Control and Pragma can refuse"
          + " the page) or ignore (they are for browsers only; the policy's ttl decides)");
    };
  }

  private static List<String> writePaths(String param, String value) {
    List<String> list = new ArrayList<>();
    for (String s : value.split("[|\\s]+")) {
      if (!s.isEmpty()) {
        list.add(PathPatterns.check(param, s));
      }
    }
    return list;
  }

  private static boolean headersMode(String param, String value) {
    return switch (value.trim().toLowerCase(Locale.ROOT)) {
      case "report" -> false;
      case "strict" -> true;
      default -> throw new IllegalArgumentException(param + ": '" + value + "' is not report or strict");
    };
  }

  private static List<String> headerNames(String param, String value) {
    List<String> names = new ArrayList<>();
    for (String name : value.split("[|\\s]+")) {
      if (name.isEmpty()) {
        continue;
      }
      if (!name.matches("[A-Za-z0-9!#$%&'*+.^_`|~-]{1,64}")) {
        throw new IllegalArgumentException(param + ": '" + name + "' is not a header name");
      }
      names.add(name.toLowerCase(Locale.ROOT));
    }
    return names;
  }

  private static Set<Integer> statuses(String param, String value) {
    Set<Integer> set = new LinkedHashSet<>();
    for (String s : value.split("[|\\s]+")) {
      if (s.isEmpty()) {
        continue;
      }
      int code;
      try {
        code = Integer.parseInt(s);
      } catch (NumberFormatException e) {
        code = -1;
      }
      if (code < 200 || code > 599 || code == 206 || code == 304) {
        throw new IllegalArgumentException(param + ": '" + s
            + "' is not a cacheable status; use codes from 200 to 599 except 206 and 304, e.g. 200|301|404");
      }
      set.add(code);
    }
    return set;
  }

  private static List<String> paths(String param, String value) {
    List<String> list = new ArrayList<>();
    for (String s : value.split("[|\\s]+")) {
      if (s.isEmpty()) {
        continue;
      }
      if (!(s.startsWith("/") || s.startsWith("*."))) {
        throw new IllegalArgumentException(param + ": '" + s
            + "' is not a URL pattern; use /exact, /prefix/* or *.ext");
      }
      list.add(s);
    }
    return list;
  }

  private static List<String> handlerNames(String param, String value) {
    List<String> names = new ArrayList<>();
    for (String name : value.split("[|\\s]+")) {
      if (name.isEmpty()) {
        continue;
      }
      if (!name.matches("[A-Za-z0-9_.\\-]{1,64}")) {
        throw new IllegalArgumentException(param + ": '" + name
            + "' is not a handler name; use names of 1 to 64 characters of A-Z a-z 0-9 _ . -, |-separated");
      }
      names.add(name);
    }
    return names;
  }

  private static double earlyRefresh(String param, String value) {
    String v = value.trim().toLowerCase(Locale.ROOT);
    if (v.equals("on") || v.equals("true")) {
      return 1.0;
    }
    if (v.equals("off") || v.equals("false")) {
      return 0;
    }
    try {
      double beta = Double.parseDouble(v);
      if (beta >= 0 && beta <= 10) {
        return beta;
      }
    } catch (NumberFormatException e) {
      // message below
    }
    throw new IllegalArgumentException(param + ": '" + value + "' is not on, off or a strength from 0 to 10");
  }
}
