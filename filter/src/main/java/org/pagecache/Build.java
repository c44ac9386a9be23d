package org.pagecache;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletRequestWrapper;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.ServletResponseWrapper;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import org.pagecache.internal.capture.AsyncCapture;
import org.pagecache.internal.capture.BuildThread;
import org.pagecache.internal.capture.CacheStatus;
import org.pagecache.internal.capture.CapturedResponse;
import org.pagecache.internal.capture.CapturingResponse;
import org.pagecache.internal.capture.Freshening;
import org.pagecache.internal.capture.HeaderReads;
import org.pagecache.internal.capture.RequestBody;
import org.pagecache.internal.capture.WatchedRequest;
import org.pagecache.internal.freshness.Freshness;
import org.pagecache.internal.key.PageKeys;
import org.pagecache.internal.key.RequestParts;
import org.pagecache.internal.key.VaryRecord;
import org.pagecache.internal.stats.Event;
import org.pagecache.internal.stats.PageTrace;
import org.pagecache.internal.store.StoredPage;
import org.pagecache.internal.vary.DownstreamVary;
import org.pagecache.store.Store;
import org.pagecache.store.StoreException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One build of a page: the handler run with its response captured (conditionally, with the stored
 * validators, to revalidate), under the rebuild lock's lease or without one, with the stale copy
 * to fall back on. {@link #finish} decides what the capture ends in ({@link BuildDecision}; {@link
 * PageWriter} stores) for both ways a build ends:
 * <ul>
 *   <li>the handler returns: {@link #run} gives the lease back and returns the outcome;
 *   <li>the handler went async ({@link #run} returns {@link Outcome.Continues}): the build ends once,
 *       when the handler completes its async context, when the ASYNC dispatch it asked for has run
 *       through the filter without going async again ({@link #resume}), or at a timeout; then it
 *       gives the lease back itself and answers through the same {@link Answer} as every request.
 *       A dispatch the filter does not see (not mapped for ASYNC dispatches, or none seen yet)
 *       hands the response to the client uncached and leaves a refusal marker.
 * </ul>
 */
final class Build implements AsyncCapture {
  private static final Logger log = LoggerFactory.getLogger(Build.class);
  /** The request attribute through which the ASYNC dispatch (the container's, not a part's) finds its build. */
  static final String ATTRIBUTE = Build.class.getName();

  /** Sends what a request's route ended in: {@link PageFlow#answer}, the one answer. */
  interface Answer {
    void send(PageRequest p, Outcome outcome) throws IOException, ServletException;
  }

  /**
   * The pieces of the cache a build uses, made once ({@link PageFlow}).
   *
   * @param answer              the one answer ({@link PageFlow#answer}), which an async build calls when it ends
   * @param asyncDispatchesSeen true once an ASYNC dispatch has passed the filter: only then can one continue a build
   */
  record Tools(Lookup lookup, Clock clock, Duration replicaLag, Responder responder, PageWriter writer,
      LiveCounts live, Store store, PageKeys keys, Answer answer,
      BooleanSupplier asyncDispatchesSeen) {}

  private final Tools tools;
  private final PageRequest p;
  private Found found; // the second look under the lease may bring a newer token
  private final StoredPage stale;
  private final Lease lease;
  private final CapturingResponse capture;
  private final WatchedRequest shared;
  /** The signed-in visitor's personal values, asked before the build (null: the source failed). */
  private Collection<String> personalValues = List.of();
  private final Map<String, String> conditions;
  private final long start;
  private final long startNanos; // build time for metrics: a monotonic clock, not the TTL clock
  private final AtomicInteger asyncStarts = new AtomicInteger();
  private final AtomicBoolean ended = new AtomicBoolean();

  /**
   * @param stale the stale copy to serve if the build fails, or null
   * @param lease the rebuild lock this build holds, or null: built without the lock (a refused page
   *              makes nobody queue; a request that waited lock.wait already)
   */
  Build(Tools tools, PageRequest p, Found found, StoredPage stale, Lease lease) {
    this.tools = tools;
    this.p = p;
    this.found = found;
    this.stale = stale;
    this.lease = lease;
    this.start = tools.clock().millis();
    this.startNanos = System.nanoTime();
    this.capture = tools.responder().newCapture(p);
    capture.onPassThrough(tools.responder().label(CacheStatus.bypass("streamed"))::apply);
    // A stored page with the application's validators is asked for conditionally (RFC 9111 4.3.1).
    this.conditions = Freshening.conditions(found.page());
    // Under declared classes of visitors the build sees its class's representative request (PresentedRequest).
    HttpServletRequest seen = p.notes().presented != null ? p.notes().presented : p.req();
    this.shared = conditions.isEmpty() ? WatchedRequest.forSharing(seen, capture)
        : WatchedRequest.forRevalidation(seen, capture, conditions);
    Set<String> keyed = p.parts().keyedParameters();
    boolean onReads = RequestParts.keyedOnReads(p.parts().keyParts());
    Predicate<String> hidden = tools.keys().ignoredParameters().hiddenFrom(keyed);
    shared.watchParameters(onReads ? name -> !keyed.contains(name) : hidden, hidden, onReads);
    SignedInVisitors.Visitor visitor = p.notes().visitor;
    if (visitor != null) { // a signed-in visitor's build: the wrapper watches the principal, roles, Authorization, cookies
      shared.watchSignedIn(visitor.rule().keyedRoles(), visitor.rule().principalKeyed(), p.policy().cookies().vary());
    }
  }

  /** The build's thread watched for reads of the visitor past the request (a signed-in visitor's build only). */
  private BuildThread.Scope watchThread() {
    return BuildThread.enter(p.notes().visitor != null ? shared : null);
  }

  /**
   * With the lease: looks once more (between this request's lookup and its lock, another request
   * may have built the page and released its lock; read with the lock's add, in its round trip
   * where the store can, {@link Lease#readAfter}; none per hit),
   * builds if nobody did, and gives the lease back here whatever way the build ended (even an
   * Error), unless the build went async: then it gives it back when it ends. Writes to memcached,
   * sends nothing.
   */
  Outcome run() {
    Outcome outcome = null;
    try {
      outcome = lease == null ? build() : secondLook();
      return outcome;
    } finally {
      if (lease != null && !(outcome instanceof Outcome.Continues)) {
        lease.giveBack(p);
      }
    }
  }

  private Outcome secondLook() {
    p.stats().record(Event.LOCK);
    Found again;
    try {
      Map<String, byte[]> readAfter = lease.readAfter();
      // read as the lock was taken, just before this build started
      again = readAfter != null ? tools.lookup().found(p, tools.lookup().pageKey(p), readAfter, start, true)
          : tools.lookup().find(p, false);
    } catch (StoreException e) {
      again = found;
    }
    if (again != found && again.key().equals(found.key()) && builtSince(found.page(), again)) {
      return Outcome.serving(again.page(), CacheStatus.collapsed(tools.responder().ttlLeft(again.page())));
    }
    if (again.key().equals(found.key()) && again.token() > found.token()) {
      found = found.withToken(again.token()); // built under the newest token seen: a refresh between the looks
    }
    return build();
  }

  /**
   * True when the second lookup found a fresh page that someone else built after the first one
   * looked. Comparing build times rather than re-classifying matters for an early refresh: the
   * page it replaces is still fresh, and a second random draw would usually call off the rebuild.
   */
  private static boolean builtSince(StoredPage before, Found again) {
    return again.decision().state() == Freshness.State.FRESH && !again.page().isUncacheableMarker()
        && (before == null || again.page().builtAtMillis() > before.builtAtMillis());
  }

  /**
   * Runs the handler captured; {@link Outcome.Continues} when it went async (a handler the filter
   * cannot follow goes out uncached: hit-for-miss).
   */
  private Outcome build() {
    markRecentInvalidation();
    shared.captureAsync(this);
    personalValues = SignedInVisitors.detailsBeforeBuild(p.notes().visitor, p.req());
    CapturedResponse c;
    try {
      try (PageTrace.Scope step = p.trace().step(PageTrace.Step.BUILD); BuildThread.Scope watched = watchThread()) {
        p.chain().doFilter(shared, capture);
      }
      if (shared.asyncCaptured()) {
        return Outcome.CONTINUES;
      }
      c = capture.finish();
    } catch (IOException | ServletException | RuntimeException e) {
      return failed(e);
    }
    return finish(c);
  }

  /** The handler threw: the stale copy stands in when stale-if-error allows and nothing went out yet. */
  private Outcome failed(Exception e) {
    if (!capture.isPassThrough() && !p.res().isCommitted()
        && BuildDecision.staleStandsIn(stale, null, p.policy().honorCacheControl(), tools.clock().millis())) {
      log.warn("pagecache: build of a {} page failed ({}); serving the stale copy", p.handler(), e.toString());
      p.res().reset();
      return Outcome.serving(stale, CacheStatus.staleIfError(null));
    }
    return new Outcome.Failed(e);
  }

  /** What the whole capture ends in: a freshened page, a stored one, a refusal or the stale copy. */
  private Outcome finish(CapturedResponse captured) {
    p.stats().built(System.nanoTime() - startNanos);
    CapturedResponse c = DownstreamVary.of(captured, p.policy().classes()); // true for every cache in front
    String sessionUse = SignedInVisitors.afterBuild(p.notes().visitor, c,
        AnonymousSessions.afterBuild(p.req(), shared.sessionReads(), c, p.stats()), personalValues,
        Declared.personalDeclared(p.req()), p.stats());
    String parameterRead = TrackingParameterReads.afterBuild(tools.keys(), p.handler(),
        RequestParts.keyedOnReads(p.parts().keyParts()), shared.reads(), p.stats());
    PageRequest keyed = p;
    if (TrackingParameterReads.READ.equals(parameterRead) && conditions.isEmpty()) {
      // params=read: the page is stored under the key that holds what it read besides its record (see keyedWider)
      RequestParts wider = p.parts().readingAlso(p.queryString(), shared.reads().parameters());
      if (wider != null) {
        keyed = p.withParts(wider);
        parameterRead = null;
      }
    }
    if (parameterRead != null && !c.passedThrough()) {
      p.stats().bypass(parameterRead); // its key left out what it read: this page is not stored; the next is keyed on it
      return new Outcome.Replay(c, CacheStatus.refused(parameterRead), null);
    }
    if (shared.reads().readBody() && !c.passedThrough()) {
      // A body the lookup did not see (HTTP/2 DATA that came later): this visitor's page, and no
      // marker, so that no number of such requests turns the cache off for the URL.
      p.stats().bypass(RequestBody.REASON);
      return new Outcome.Replay(c, CacheStatus.refused(RequestBody.REASON), null);
    }
    if (!conditions.isEmpty() && c.status() == 304 && !c.passedThrough()) {
      try (PageTrace.Scope step = p.trace().step(PageTrace.Step.STORE)) {
        return tools.writer().freshened(p, found, c, start, containerSetCookie(), sessionUse, placement());
      }
    }
    BuildDecision d = BuildDecision.of(c, p.policy(), start, stale, containerSetCookie(),
        recordUnkeyedReads(c, shared.reads()), sessionUse);
    switch (d.kind()) {
      case PASSED_THROUGH -> {
        // Too large or async: it will be the same next time, so say so before anyone waits on the lock.
        Outcome.HandOn marker = d.rememberRefusal() ? tools.writer().rememberRefusal(p, found, d.reason(), start, placement()) : null;
        p.stats().bypass(d.reason());
        if (!p.notes().background) { // a background rebuild's answer is nobody's view
          tools.live().count(LiveCounts.declared(p.req()));
        }
        return new Outcome.Sent(marker);
      }
      case STALE_IF_ERROR -> {
        return Outcome.serving(stale, CacheStatus.staleIfError(c.status()));
      }
      case REFUSE -> {
        Outcome.HandOn marker = d.rememberRefusal() ? tools.writer().rememberRefusal(p, found, d.reason(), start, placement()) : null;
        p.stats().bypass(d.reason());
        return new Outcome.Replay(c, CacheStatus.refused(d.reason()), marker);
      }
      default -> {
        try (PageTrace.Scope step = p.trace().step(PageTrace.Step.STORE)) {
          Outcome stored = tools.writer().store(keyed, found, d, stale, start, placement());
          return keyed == p ? stored : keyedWider(stored);
        }
      }
    }
  }

  /**
   * A page whose build read parameters its request's key did not hold ({@code params=read}) is stored
   * under the key that holds them too: every request with that key agrees with this one on each
   * parameter the build read, so its build would have made this page (docs/safety.md). It is not
   * handed to this JVM's requests waiting under the narrower key: they agree with it on less.
   */
  private static Outcome keyedWider(Outcome stored) {
    return stored instanceof Outcome.Serve serve ? Outcome.serving(serve.page(), serve.status()) : stored;
  }

  // The async end: one of completed, resume, dispatching (not followed) or abandoned, once.

  @Override
  public void started() {
    asyncStarts.incrementAndGet();
  }

  @Override
  public void completed() {
    try {
      end();
    } catch (IOException | ServletException | RuntimeException e) {
      log.warn("pagecache: async build of a {} page failed to be answered ({})", p.handler(), e.toString());
    }
  }

  @Override
  public boolean dispatching() {
    if (tools.asyncDispatchesSeen().getAsBoolean()) {
      shared.pauseWatching(true); // until the dispatch reaches the filter
      p.req().setAttribute(ATTRIBUTE, this);
      return true;
    }
    if (ended.compareAndSet(false, true)) {
      Outcome.HandOn marker;
      try {
        marker = tools.writer().rememberRefusal(p, found, "async-dispatch", start, placement());
        p.stats().bypass("async-dispatch");
      } finally {
        giveBack();
      }
      try {
        tools.answer().send(p, new Outcome.Sent(marker)); // the container sends the response itself
      } catch (IOException | ServletException | RuntimeException e) {
        log.warn("pagecache: async build of a {} page failed to be answered ({})", p.handler(), e.toString());
      }
    }
    return false;
  }

  @Override
  public void abandoned() {
    if (ended.compareAndSet(false, true)) {
      p.stats().bypass("async-abandoned");
      giveBack();
    }
  }

  /**
   * Runs the ASYNC dispatch with its response captured into the same build, and ends the build when
   * the dispatch returns without starting another async cycle.
   */
  void resume(HttpServletRequest req, ServletResponse res, FilterChain chain) throws IOException, ServletException {
    // Handlers that started async with the wrappers they got are dispatched those wrappers back.
    ServletRequest request = wraps(req, shared) ? req : shared.continuing(req);
    ServletResponse response = wraps(res, capture) ? res : capture;
    shared.pauseWatching(false);
    int before = asyncStarts.get();
    try (BuildThread.Scope watched = watchThread()) {
      chain.doFilter(request, response);
    } catch (IOException | ServletException | RuntimeException | Error e) {
      abandoned();
      throw e;
    }
    if (asyncStarts.get() == before) {
      end();
    }
  }

  private void end() throws IOException, ServletException {
    if (!ended.compareAndSet(false, true)) {
      return;
    }
    Outcome outcome;
    try {
      outcome = finish(capture.finish());
    } finally {
      giveBack();
    }
    tools.answer().send(p, outcome);
  }

  /** Where this build writes: where its lock was taken (a build finishes where it started), else as routed now. */
  private Store placement() {
    return lease != null ? lease.placement() : tools.store();
  }

  private void giveBack() {
    if (lease != null) {
      lease.giveBack(p);
    }
  }

  private static boolean wraps(ServletRequest given, ServletRequest ours) {
    return given == ours || given instanceof ServletRequestWrapper w && w.isWrapperFor(ours);
  }

  private static boolean wraps(ServletResponse given, ServletResponse ours) {
    return given == ours || given instanceof ServletResponseWrapper w && w.isWrapperFor(ours);
  }

  /**
   * Records the request headers the handler read that are not part of the page's key, logging each
   * once per handler: the evidence for {@code vary=} or {@code harmless=}. True when there were any.
   */
  private boolean recordUnkeyedReads(CapturedResponse c, HeaderReads reads) {
    boolean any = false;
    List<String> responseVary = VaryRecord.names(c.headerValues("Vary"), List.of());
    for (String name : reads.names()) {
      if (keyed(responseVary, name)) {
        continue;
      }
      any = true;
      if (p.stats().unkeyedHeaderRead(name)) {
        log.warn("pagecache: handler '{}' read the request header '{}', which is not part of its key: add vary={}"
            + " to its policy if its pages depend on it, or harmless={} if they do not", p.handler(), name, name, name);
      }
    }
    return any;
  }

  /** Headers a page's key covers, that decide a bypass, or that never change a page. */
  private boolean keyed(List<String> responseVaryNames, String name) {
    CachePolicy policy = p.policy();
    return RequestParts.keyedHeader(name) || NEVER_CHANGE_A_PAGE.contains(name) || policy.harmless().contains(name)
        || policy.keyedHeaders().contains(name) || responseVaryNames.contains(name)
        || (name.equals("authorization") && !policy.allowAuthorized());
  }

  /** Request headers about the message or connection, not about which page to send. */
  private static final Set<String> NEVER_CHANGE_A_PAGE = Set.of("content-length", "content-type", "connection",
      "keep-alive", "te", "trailer", "transfer-encoding", "upgrade", "expect");

  /**
   * True when the container, not the handler, gave this response a cookie: a session created (or
   * its id changed) during the build has its cookie written straight to the real response, past
   * the capture, and the page may hold that session's data (a CSRF token, a user's name).
   */
  private boolean containerSetCookie() {
    HttpSession session = p.req().getSession(false);
    // The requested id is compared by the container (Jetty's cookie carries an extended id, not getId()).
    if (session != null && (session.isNew() || !p.req().isRequestedSessionIdValid())) {
      return true;
    }
    return p.res().containsHeader("Set-Cookie");
  }

  /** Tells the application that this rebuild follows a fresh invalidation (read from the primary). */
  private void markRecentInvalidation() {
    long lag = tools.replicaLag().toMillis();
    long newest = found.token();
    for (long v : found.tagVersions().values()) {
      newest = Math.max(newest, v);
    }
    if (newest > 0 && start - newest < lag) {
      p.req().setAttribute(PageCache.INVALIDATED_AGO_ATTRIBUTE, Math.max(0, start - newest));
    }
  }
}
