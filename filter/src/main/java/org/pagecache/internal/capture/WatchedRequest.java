package org.pagecache.internal.capture;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpSession;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Collection;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.pagecache.internal.key.QueryParams;

/**
 * The request as the handler sees it while a page is being built for the cache. It asks for the
 * full representation every client can share:
 * <ul>
 *   <li>HEAD becomes GET, so the stored entry has a body (HEAD is later served from it);
 *   <li>conditional and range headers are hidden, so the handler answers 200 with the whole body
 *       rather than a 304 or a 206 that could not be served to others;
 *   <li>Accept-Encoding is hidden: the filter compresses, the handler writes identity.
 * </ul>
 * Starting async keeps capturing when the build asked for it ({@link #captureAsync}), else hands the
 * response to the container first (see {@link CapturingResponse#passThrough()}).
 * Every header and cookie read is recorded in {@link #reads()}: what the page depends on; so is a
 * read of a request body while a page is built for sharing ({@link HeaderReads#readBody()}). While a
 * page is built for sharing, what the handler uses of the session is recorded in
 * {@link #sessionReads()}: the session it gets is a {@link WatchedSession}, and reading a CSRF token
 * a security filter put in the request (it comes from the session) counts as a use.
 *
 * <p>Query parameters left out of the page's key ({@link #watchParameters}) are still there when the
 * handler asks for one by name, and asking is recorded ({@link HeaderReads#parameters()}); under
 * {@code params=read} so is a read that sees them all ({@link HeaderReads#readWholeQuery()}). Ignored
 * tracking parameters the key does not hold are left out of {@code getParameterNames},
 * {@code getParameterMap}, {@code getQueryString} and the container's query string attributes
 * ({@link #QUERY_STRING_ATTRIBUTES}), so a page that echoes every parameter (a form's hidden fields,
 * a data binder, a view printing the original query after an async dispatch) does not show the first
 * visitor's click id to everyone.
 */
public final class WatchedRequest extends HttpServletRequestWrapper {
  private static final Set<String> HIDDEN = Set.of("range", "if-range", "if-none-match",
      "if-modified-since", "if-match", "if-unmodified-since", "accept-encoding");

  private final CapturingResponse capture;
  private final boolean shared;
  /** Conditional headers of the cache's own (lower-case names), in place of the client's. */
  private final Map<String, String> conditions;
  private volatile AsyncCapture async;
  private volatile boolean asyncCaptured;
  private final HeaderReads reads;
  private final SessionReads sessionReads;
  /** Decoded names of the parameters left out of enumerations and the query; null when none are. */
  private volatile Predicate<String> hiddenParameters;
  /** Decoded names of the parameters the key leaves out, whose reads by name are recorded; null when none. */
  private volatile Predicate<String> unkeyedParameters;
  /** The key holds the parameters read alone ({@code params=read}): a read that sees them all is recorded. */
  private volatile boolean keyedOnReads;
  /** Under {@code params=read}: the request attributes set before the build, by filters before PageCache. */
  private volatile Set<String> earlierAttributes;
  /** Set for a signed-in visitor's build: what of the visitor it may read (their roles in the key). */
  private volatile Set<String> keyedRoles;
  private volatile boolean principalKeyed;
  private volatile Set<String> keyedCookies = Set.of();
  /** The session this build asked for and has not used yet (none existed): {@link DeferredSession}. */
  private DeferredSession deferred;
  private BufferedReader reader;

  /**
   * Request attributes through which a filter before PageCache hands the page a token kept in the
   * session: Spring Security's CSRF token ({@code CsrfFilter} sets both names). The token object
   * reads the session through the request it was given, past this wrapper, so the attribute read
   * is the one that can be seen.
   */
  static final Set<String> SESSION_TOKEN_ATTRIBUTES = Set.of("_csrf",
      "org.springframework.security.web.csrf.CsrfToken");

  private WatchedRequest(HttpServletRequest request, CapturingResponse capture, boolean shared,
      Map<String, String> conditions) {
    this(request, capture, shared, conditions, new HeaderReads(), new SessionReads());
  }

  private WatchedRequest(HttpServletRequest request, CapturingResponse capture, boolean shared,
      Map<String, String> conditions, HeaderReads reads, SessionReads sessionReads) {
    super(request);
    this.capture = capture;
    this.shared = shared;
    this.conditions = conditions;
    this.reads = reads;
    this.sessionReads = sessionReads;
  }

  /**
   * The same build seen through the request of its ASYNC dispatch (the container dispatches its
   * own request when the handler started async without wrappers): what the handler reads there
   * counts for the same page, and going async again keeps capturing.
   */
  public WatchedRequest continuing(HttpServletRequest dispatched) {
    WatchedRequest next = new WatchedRequest(dispatched, capture, shared, conditions, reads, sessionReads);
    next.async = async;
    next.hiddenParameters = hiddenParameters;
    next.unkeyedParameters = unkeyedParameters;
    next.keyedOnReads = keyedOnReads;
    next.earlierAttributes = earlierAttributes;
    next.keyedRoles = keyedRoles;
    next.principalKeyed = principalKeyed;
    next.keyedCookies = keyedCookies;
    return next;
  }

  /** For a page being built for the cache: the full representation every client can share. */
  public static WatchedRequest forSharing(HttpServletRequest request, CapturingResponse capture) {
    return new WatchedRequest(request, capture, true, Map.of());
  }

  /**
   * For a stored page being revalidated: as {@link #forSharing}, but asking with the page's own
   * validators ({@link Freshening#conditions}), so the handler may answer 304.
   */
  public static WatchedRequest forRevalidation(HttpServletRequest request, CapturingResponse capture,
      Map<String, String> conditions) {
    return new WatchedRequest(request, capture, true, Map.copyOf(conditions));
  }

  /**
   * For a response captured only to fill in counters before it is sent (a bypass): the request is
   * left as the client sent it; only going async is intercepted.
   */
  public static WatchedRequest asSent(HttpServletRequest request, CapturingResponse capture) {
    return new WatchedRequest(request, capture, false, Map.of());
  }

  /** For a request that is only watched, not captured (a bypassed HEAD): it records what the handler reads. */
  public static WatchedRequest watching(HttpServletRequest request) {
    return new WatchedRequest(request, null, false, Map.of());
  }

  /** What the handler used of the session so far (recorded only while a page is built for sharing). */
  public SessionReads sessionReads() {
    return sessionReads;
  }

  /**
   * This build is a signed-in visitor's, to be shared with their group: reading the principal, a
   * role not in {@code keyedRoles}, {@code Authorization}, the {@code Cookie} header or the value of
   * a cookie not in {@code keyedCookies} makes it the visitor's only (recorded in
   * {@link #sessionReads()}). With {@code principalKeyed} (a page per user) the principal and every
   * role may be read.
   *
   * @param keyedCookies the cookies whose values key the page ({@code cookies=vary:})
   */
  public void watchSignedIn(Set<String> keyedRoles, boolean principalKeyed, Collection<String> keyedCookies) {
    this.principalKeyed = principalKeyed;
    this.keyedCookies = Set.copyOf(keyedCookies);
    this.keyedRoles = Set.copyOf(keyedRoles);
  }

  private boolean signedIn() {
    return shared && keyedRoles != null;
  }

  /** True for a signed-in visitor's build for sharing whose pages are not per user: a read of the principal counts. */
  boolean watchesPrincipal() {
    return signedIn() && !principalKeyed;
  }

  /** A read of the visitor past this wrapper ({@link BuildThread#principalRead}): cause {@code principal-thread-local}. */
  void principalReadPastRequest() {
    if (watchesPrincipal()) {
      sessionReads.used("principal-thread-local");
    }
  }

  @Override
  public java.security.Principal getUserPrincipal() {
    if (signedIn() && !principalKeyed && !Bookkeeping.calledFrom()) {
      sessionReads.used("principal");
    }
    try (BuildThread.Scope answering = BuildThread.answering()) {
      return super.getUserPrincipal();
    }
  }

  @Override
  public String getRemoteUser() {
    if (signedIn() && !principalKeyed) {
      sessionReads.used("principal");
    }
    try (BuildThread.Scope answering = BuildThread.answering()) {
      return super.getRemoteUser();
    }
  }

  @Override
  public boolean isUserInRole(String role) {
    if (signedIn() && !principalKeyed && !keyedRoles.contains(role)) {
      sessionReads.used("role:" + (role != null && role.matches("[A-Za-z0-9_.:-]{1,64}") ? role : "?"));
    }
    try (BuildThread.Scope answering = BuildThread.answering()) {
      return super.isUserInRole(role);
    }
  }

  /** A header read: recorded, and for a signed-in build Authorization and Cookie are personal. */
  private void headerRead(String name) {
    reads.header(name);
    if (signedIn() && name != null) {
      if (name.equalsIgnoreCase("authorization")) {
        sessionReads.used("authorization");
      } else if (name.equalsIgnoreCase("cookie")) {
        sessionReads.used("cookies");
      }
    }
  }

  @Override
  public HttpSession getSession() {
    return getSession(true);
  }

  /**
   * In a build for sharing, a visitor without a session who asks for one gets a {@link
   * DeferredSession}: created by the container only when the handler uses it (a JSP asks on every
   * page). Until then {@code getSession(false)} answers that there is none, as the container would:
   * Spring MVC's request-handled event reads the id of any session it finds, which would create it.
   * Otherwise the container's session, watched.
   */
  @Override
  public HttpSession getSession(boolean create) {
    if (!shared) {
      return super.getSession(create);
    }
    HttpSession existing = super.getSession(false);
    if (existing != null) {
      return watched(existing);
    }
    if (!create) {
      return null; // none exists until a use creates one: frameworks asking whether there is one see none
    }
    synchronized (this) {
      if (deferred == null) {
        deferred = new DeferredSession(() -> watched(super.getSession(false)), () -> watched(super.getSession(true)),
            sessionReads, getServletContext());
      }
      return deferred;
    }
  }

  private HttpSession watched(HttpSession session) {
    return shared && session != null ? new WatchedSession(session, sessionReads) : session;
  }

  /**
   * The container's attributes that carry the visitor's query string: the original one after an
   * async dispatch, a forward or an error dispatch, and an include's. Containers fill them from
   * the request they hold, which is not always this wrapper (Jetty's async dispatch, and Tomcat's
   * {@code startAsync(req, res)} with the request under it), so they are cleaned here as
   * {@link #getQueryString()} is. The {@code javax.} names are still set by some bridges. The
   * {@code request_uri} attributes carry no query and are left alone. {@code Set.copyOf}, not
   * {@code Set.of}: in the javax artifact the two halves name the same attributes.
   */
  static final Set<String> QUERY_STRING_ATTRIBUTES = Set.copyOf(List.of("jakarta.servlet.async.query_string",
      "jakarta.servlet.forward.query_string", "jakarta.servlet.include.query_string",
      "jakarta.servlet.error.query_string", "javax.servlet.async.query_string",
      "javax.servlet.forward.query_string", "javax.servlet.include.query_string",
      "javax.servlet.error.query_string"));

  @Override
  public Object getAttribute(String name) {
    Object value = super.getAttribute(name);
    if (shared && value != null && SESSION_TOKEN_ATTRIBUTES.contains(name)) {
      sessionReads.used("csrf-token");
    }
    if (keyedOnReads && QUERY_STRING_ATTRIBUTES.contains(name)) {
      reads.wholeQuery(); // present or not, it tells the build about the visitor's query
    } else if (keyedOnReads && value != null && earlierAttributes != null && earlierAttributes.contains(name)) {
      parameterBehind(name, value);
    }
    Predicate<String> hidden = hiddenParameters;
    if (hidden != null && value instanceof String query && QUERY_STRING_ATTRIBUTES.contains(name)) {
      return QueryParams.without(query, hidden);
    }
    return value;
  }

  /**
   * How the build is shown the query, for a page built for sharing (a no-op otherwise).
   *
   * @param unkeyed  decoded names the page's key leaves out: a read of one by name is recorded
   *                 ({@link HeaderReads#parameters()}); null when the key leaves none out
   * @param hidden   decoded names kept from the enumerations, the query string and the container's
   *                 query string attributes (ignored tracking parameters the key does not hold); null: none
   * @param onReads  the key holds only the parameters read ({@code params=read}): a read that sees every
   *                 parameter at once is recorded ({@link HeaderReads#readWholeQuery()})
   */
  public WatchedRequest watchParameters(Predicate<String> unkeyed, Predicate<String> hidden, boolean onReads) {
    this.unkeyedParameters = shared ? unkeyed : null;
    this.hiddenParameters = shared ? hidden : null;
    this.keyedOnReads = shared && onReads;
    if (keyedOnReads) {
      earlierAttributes = Set.copyOf(Collections.list(super.getAttributeNames()));
    }
    return this;
  }

  /**
   * A request attribute a filter before PageCache set (present when the build started) and the build
   * read: if its name ends in the name of a query parameter the key leaves out (the whole name, or the
   * word after a {@code .}, {@code :}, {@code _} or {@code -}) and its value is that parameter's value,
   * that filter may have taken it from the parameter (a language or a theme switched by {@code ?lang=}
   * into {@code lang}), so the parameter counts as read. The name must match too, so
   * that a visitor cannot make the key hold any parameter by giving it the attribute's value. A value
   * derived otherwise (parsed, looked up) is not recognised: docs/safety.md says what to do.
   */
  private void parameterBehind(String attribute, Object value) {
    Predicate<String> unkeyed = unkeyedParameters;
    if (unkeyed == null || !(value instanceof String || value instanceof Number || value instanceof Boolean
        || value instanceof Enum<?> || value instanceof Locale)) {
      return;
    }
    String text = value.toString();
    String lowerAttribute = attribute.toLowerCase(Locale.ROOT);
    for (Map.Entry<String, String[]> e : super.getParameterMap().entrySet()) {
      String name = e.getKey();
      if (!name.isEmpty() && unkeyed.test(name) && namedAfter(lowerAttribute, name.toLowerCase(Locale.ROOT))) {
        for (String v : e.getValue()) {
          if (!v.isEmpty() && (v.equals(text) || v.equalsIgnoreCase(text.replace('_', '-')))) {
            reads.parameter(e.getKey());
          }
        }
      }
    }
  }

  /** {@code lang} for {@code lang}, {@code ...LocaleResolver.LOCALE} for {@code locale}: the attribute's last word is the name. */
  private static boolean namedAfter(String lowerAttribute, String lowerName) {
    if (!lowerAttribute.endsWith(lowerName)) {
      return false;
    }
    int before = lowerAttribute.length() - lowerName.length() - 1;
    return before < 0 || ".:_-".indexOf(lowerAttribute.charAt(before)) >= 0;
  }

  private boolean hiddenParameter(String name) {
    Predicate<String> hidden = hiddenParameters;
    return hidden != null && hidden.test(name);
  }

  private void readByName(String name) {
    Predicate<String> unkeyed = unkeyedParameters;
    if (unkeyed != null && name != null && unkeyed.test(name)) {
      reads.parameter(name);
    }
  }

  /** A read that sees every parameter at once: recorded under {@code params=read}, where the key holds only those read. */
  private void readWhole() {
    if (keyedOnReads) {
      reads.wholeQuery();
    }
  }

  @Override
  public String getParameter(String name) {
    readByName(name);
    return super.getParameter(name);
  }

  @Override
  public String[] getParameterValues(String name) {
    readByName(name);
    return super.getParameterValues(name);
  }

  @Override
  public Enumeration<String> getParameterNames() {
    readWhole();
    if (hiddenParameters == null) {
      return super.getParameterNames();
    }
    List<String> names = Collections.list(super.getParameterNames());
    names.removeIf(this::hiddenParameter);
    return Collections.enumeration(names);
  }

  @Override
  public Map<String, String[]> getParameterMap() {
    readWhole();
    Map<String, String[]> all = super.getParameterMap();
    if (hiddenParameters == null || all.keySet().stream().noneMatch(this::hiddenParameter)) {
      return all;
    }
    Map<String, String[]> shown = new LinkedHashMap<>(all);
    shown.keySet().removeIf(this::hiddenParameter);
    return Collections.unmodifiableMap(shown);
  }

  @Override
  public String getQueryString() {
    readWhole();
    String query = super.getQueryString();
    Predicate<String> hidden = hiddenParameters;
    return hidden == null ? query : QueryParams.without(query, hidden);
  }

  /** While a page is built for sharing, the body is watched: a build that reads one is not stored. */
  @Override
  public ServletInputStream getInputStream() throws IOException {
    ServletInputStream in = super.getInputStream();
    return shared ? new WatchedInput(in, reads) : in;
  }

  @Override
  public synchronized BufferedReader getReader() throws IOException {
    if (!shared) {
      return super.getReader();
    }
    if (reader == null) { // one buffer over the body, however often it is asked for
      reader = new BufferedReader(new WatchedInput.WatchedReader(super.getReader(), reads));
    }
    return reader;
  }

  /** The headers and cookies the handler has read so far. */
  public HeaderReads reads() {
    return reads;
  }

  @Override
  public String getMethod() {
    String method = super.getMethod();
    return shared && "HEAD".equals(method) ? "GET" : method;
  }

  private String condition(String name) {
    return conditions.isEmpty() || name == null ? null : conditions.get(name.toLowerCase(Locale.ROOT));
  }

  @Override
  public String getHeader(String name) {
    if (condition(name) != null) {
      return condition(name);
    }
    if (hidden(name)) {
      return null;
    }
    headerRead(name);
    return super.getHeader(name);
  }

  @Override
  public Enumeration<String> getHeaders(String name) {
    if (condition(name) != null) {
      return Collections.enumeration(List.of(condition(name)));
    }
    if (hidden(name)) {
      return Collections.emptyEnumeration();
    }
    headerRead(name);
    return super.getHeaders(name);
  }

  @Override
  public long getDateHeader(String name) {
    if (condition(name) != null) {
      Long date = HttpDates.parse(condition(name));
      if (date == null) {
        throw new IllegalArgumentException(name + ": not a date");
      }
      return date;
    }
    if (hidden(name)) {
      return -1;
    }
    headerRead(name);
    return super.getDateHeader(name);
  }

  @Override
  public int getIntHeader(String name) {
    if (hidden(name)) {
      return -1;
    }
    headerRead(name);
    return super.getIntHeader(name);
  }

  @Override
  public Enumeration<String> getHeaderNames() {
    List<String> names = Collections.list(super.getHeaderNames());
    names.removeIf(this::hidden);
    names.addAll(conditions.keySet());
    return Collections.enumeration(names);
  }

  /**
   * For a signed-in build, the cookies not in the key are handed out as {@link WatchedCookie}s: their
   * names may be looked at (finding a keyed cookie means looking at every name), their values count.
   */
  @Override
  public Cookie[] getCookies() {
    reads.cookies();
    Cookie[] cookies = super.getCookies();
    if (!signedIn() || cookies == null) {
      return cookies;
    }
    Cookie[] watched = new Cookie[cookies.length];
    for (int i = 0; i < cookies.length; i++) {
      watched[i] = keyedCookies.contains(cookies[i].getName()) ? cookies[i] : WatchedCookie.of(cookies[i], sessionReads);
    }
    return watched;
  }

  /** The locale comes from Accept-Language: reading it is reading that header. */
  @Override
  public Locale getLocale() {
    reads.header("Accept-Language");
    return super.getLocale();
  }

  @Override
  public Enumeration<Locale> getLocales() {
    reads.header("Accept-Language");
    return super.getLocales();
  }

  /**
   * Keeps capturing when the handler goes async: {@code build} is told when it completes the async
   * context or dispatches (see {@link CapturedAsync}). Without it, going async hands the response over.
   */
  public void captureAsync(AsyncCapture build) {
    this.async = build;
  }

  /**
   * Stops (or starts again) recording reads: from an async dispatch until the filter sees it, the
   * filters before PageCache's read the request through this one, and their reads are not the page's.
   */
  public void pauseWatching(boolean paused) {
    reads.pause(paused);
    sessionReads.pause(paused);
  }

  /** True when the handler went async with its response still captured: the build ends at its complete(). */
  public boolean asyncCaptured() {
    return asyncCaptured;
  }

  @Override
  public AsyncContext startAsync() {
    if (capturesAsync()) {
      asyncCaptured = true;
      return new CapturedAsync(super.startAsync(), async, this::handOver, this, capture);
    }
    handOver();
    return super.startAsync();
  }

  @Override
  public AsyncContext startAsync(ServletRequest request, ServletResponse response) {
    if (capturesAsync()) {
      asyncCaptured = true;
      return new CapturedAsync(super.startAsync(request, response), async, this::handOver, request, response);
    }
    handOver();
    return super.startAsync(request, response);
  }

  private boolean capturesAsync() {
    return async != null && capture != null && !capture.isPassThrough();
  }

  private void handOver() {
    if (capture == null) {
      return;
    }
    try {
      capture.passThrough();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private boolean hidden(String name) {
    return shared && name != null && HIDDEN.contains(name.toLowerCase(Locale.ROOT));
  }
}
