package org.pagecache;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.SessionCookieConfig;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.pagecache.internal.capture.CacheStatus;
import org.pagecache.internal.capture.RequestBody;
import org.pagecache.internal.key.ParameterRecord;
import org.pagecache.internal.key.RequestParts;
import org.pagecache.internal.stats.Event;
import org.pagecache.internal.stats.HandlerRecorder;
import org.pagecache.internal.stats.PageTrace;
import org.pagecache.internal.store.StoredPage;
import org.pagecache.internal.vary.VisitorClass;
import org.pagecache.store.StoreException;

/**
 * One cacheable request, from lookup to response (see docs/freshness.md and docs/safety.md), as one
 * route ({@link #route}) that ends in one answer ({@link #answer}):
 * <pre>
 *   not GET or HEAD: run it ({@link Writes}); a success evicts the pages it changed
 *   request checks (RequestParts)            cookie not ignored, Authorization, a body -> PASS
 *   session (AnonymousSessions)              signed-in user, sessions=off, a session attribute
 *                                            the handler's builds read -> PASS
 *   lookup ({@link Lookup}): near cache (trusted near.trust), or one round trip: get(page) (its
 *                                            identity copy for a client without gzip), getMulti(token, page)
 *                                            when the handler's token is not confirmed within near.trust
 *   {@link Route#decide} (pure): what the lookup found, the policy, the time ->
 *     SERVE_FRESH                            X-Cache: HIT
 *     PASS / BUILD_AFTER_REFUSAL             a refusal marker: hit-for-pass / hit-for-miss
 *     REBUILD -> lock won  -> a copy servable: the build handed to the background ({@link BackgroundRebuilds}),
 *                             the copy served as the losers get it (X-Cache: STALE, or HIT for an early refresh);
 *                             else build      X-Cache: MISS
 *                lost      -> ifLost: serve the hit, serve stale (X-Cache: STALE), wait, build
 *                failed    -> build without the lock, the copy its fallback (nobody may be rebuilding)
 *     WAIT    -> {@link Waiting}: with this JVM's requests for the one that builds or watches
 *                memcached -> a page, a refusal, the lock won (build), or build without the lock
 *   build ({@link Build}): run the handler captured -> BuildDecision -> store /
 *          refuse / stale copy ({@link PageWriter}) -> the lock given back -> an {@link Outcome}
 *   answer: hand the page on to this JVM's waiters, then serve / replay / pass ({@link Responder})
 * </pre>
 * The parts return values (a {@link Found}, a {@link Waiting.Waited}, an {@link Outcome}); only
 * {@link #answer} sends, for every request and for an async build when it ends. The request's
 * event (HIT, STALE, MISS) is recorded once, here, where its route settles it (before the lock is
 * traced, so a rebuild reads MLWU). How each response was served is a {@link CacheStatus},
 * rendered once. Every store failure falls back to running the handler: the cache never causes a 5xx.
 */
final class PageFlow {
  private final Engine engine;
  private final Lookup lookup;
  private final Responder responder;
  private final Build.Tools builds;
  private final Waiting waiting;
  private final Writes writes;
  private volatile String sessionCookie;
  /** Set once an ASYNC dispatch has passed the filter: from then on a dispatch continues its build. */
  private volatile boolean asyncDispatchesSeen;

  /**
   * @param evict   evicts the page at a URL ({@link PageCache#evict}): what a successful write does
   * @param refresh refreshes a handler, saying who asked ({@link PageCache#refreshHandler(String, String)}):
   *                what a successful write to a path of its {@code refreshed-by=} does
   */
  PageFlow(Engine engine, Consumer<String> evict, BiConsumer<String, String> refresh) {
    this.engine = engine;
    this.writes = new Writes(engine.policies, evict, refresh, engine.edits);
    this.lookup = new Lookup(engine.clock, engine.keys, engine.tokens, engine.tags, engine.store, engine.codec,
        engine.near, engine.confirmations, engine.copies, engine.waiting, engine.lockWait);
    this.responder = new Responder(engine.live, engine.near, engine.copies, engine.clock, engine.cacheHeader,
        engine.maxEntrySize);
    PageWriter writer = new PageWriter(new PageWriter.Tools(lookup, engine.clock, engine.keys, engine.codec,
        engine.tags, engine.near, engine.refusedTags, engine.lostWrites, engine.cacheHeader, engine.maxEntrySize,
        engine.uncacheableTtl));
    this.builds = new Build.Tools(lookup, engine.clock, engine.replicaLag, responder, writer, engine.live,
        engine.store, engine.keys, this::answer, () -> asyncDispatchesSeen);
    this.waiting = new Waiting(lookup, engine.waiting, engine.lockWait, engine.clusters, engine.lock, engine.store,
        engine.codec, engine.clock);
  }

  /** @param trace the request's trace ({@link PageTrace#NONE} when nothing observes requests) */
  void handle(HttpServletRequest req, HttpServletResponse res, FilterChain chain, PageTrace trace)
      throws IOException, ServletException {
    handle(req, res, chain, trace, null);
  }

  /**
   * A background rebuild's request ({@link BackgroundRebuilds}): routed as a visitor's, but its build
   * runs under the lease it was handed instead of taking the lock; the lease is given back at its end
   * if no build took it.
   */
  void rebuild(HttpServletRequest req, HttpServletResponse res, FilterChain chain, BackgroundRebuilds.HandOff handOff)
      throws IOException, ServletException {
    handle(req, res, chain, PageTrace.NONE, handOff);
  }

  private void handle(HttpServletRequest req, HttpServletResponse res, FilterChain chain, PageTrace trace,
      BackgroundRebuilds.HandOff handOff) throws IOException, ServletException {
    String method = req.getMethod();
    if (!"GET".equals(method) && !"HEAD".equals(method)) {
      writes.run(req, res, chain);
      return;
    }
    if (engine.visitors != null && handOff == null) { // a background rebuild's request is nobody's visit
      engine.counters.visit(engine.visitors.of(req)); // never throws; deduplicated per window in this JVM
    }
    String handler = engine.policies.handlerFor(req);
    CachePolicy policy = engine.policies.policy(handler);
    HandlerRecorder stats = engine.recorder.handler(handler);
    String sessionCookie = sessionCookie(req);
    SignedInVisitors.Visitor visitor = SignedInVisitors.of(req, policy, engine.userContext, engine.personalValues);
    String skip = requestBypass(req, policy, visitor != null);
    if (skip == null && visitor != null) {
      skip = SignedInVisitors.requestBypass(visitor, stats);
    }
    if (skip == null) {
      skip = AnonymousSessions.requestBypass(req, policy, stats, visitor != null);
    }
    // Declared classes of visitors (vary=device, language, format): one page per class, built from the class's
    // representative request whoever asks first (docs/safety.md#classes-of-visitors).
    VisitorClass classes = skip != null || policy.classes().isEmpty() ? null
        : engine.classes.of(handler, policy.classes(), policy.languages(), policy.formats()).classify(req);
    HttpServletRequest presented = classes == null ? null : classes.present(req);
    if (skip == null && RequestBody.carried(req)) {
      skip = RequestBody.REASON; // a fat GET: its answer may be shaped by what no key holds
    }
    ParameterRecord params = engine.keys.parameters(handler, policy.keyOnReads());
    RequestParts parts = skip != null ? NO_PARTS
        : RequestParts.of(req, policy.cookies().mode() == CookieRule.Mode.IGNORE,
            policy.cookies().vary(), engine.ignoredCookies, sessionCookie, params);
    if (classes != null && skip == null && parts.bypass() == null) {
      parts = parts.with(classes.keyPart());
    }
    if (visitor != null && skip == null && parts.bypass() == null) {
      parts = parts.with(SignedInVisitors.keyPart(visitor)); // the group's pages, never the anonymous ones
    }
    PageRequest p = new PageRequest(req, res, chain, handler, policy, stats, parts, trace);
    if (skip == null && params.leavesOut(p.queryString(), engine.keys.ignoredParameters())) {
      stats.parameterLeftOut(); // a cache buster, a tracking or junk parameter: the key is the page's without it
    }
    p.notes().visitor = skip == null ? visitor : null; // served as their group's
    p.notes().presented = presented;
    p.notes().background = handOff != null;
    trace.handler(handler);
    try {
      Outcome outcome = skip != null ? new Outcome.Pass(skip)
          : parts.bypass() != null ? new Outcome.Pass(parts.bypass())
          : route(p, handOff);
      answer(p, outcome);
    } finally {
      p.notes().leaveWaitingList(); // after the answer: a leader's followers got its page, or find their own way
      if (handOff != null) {
        handOff.end(); // a lease no build took (rebuilt, purged or another key meanwhile) goes back now
      }
    }
  }

  /**
   * The route of a request the cache may answer, in one place: its lookup, the decision ({@link
   * Route}, pure), and the part that carries it out; the request's event recorded once, where the
   * route settles it. The request that wins the lock of a page whose copy may still be served hands
   * the rebuild to the background ({@link BackgroundRebuilds}) and is served like those that lost it.
   *
   * @param handOff for a background rebuild's request, the lease its visitor won: its build takes it
   *                instead of the lock; null for a visitor's request
   */
  private Outcome route(PageRequest p, BackgroundRebuilds.HandOff handOff) {
    Found found;
    try (PageTrace.Scope step = p.trace().step(PageTrace.Step.LOOKUP)) {
      found = lookup.find(p, true);
    } catch (StoreException e) {
      p.stats().record(Event.ERROR);
      return new Outcome.Pass("store-unavailable");
    }
    StoredPage page = found.page();
    Route route = Route.decide(page, found.decision(), p.policy().honorCacheControl(), p.notes().waitedInJvm,
        engine.clock.millis());
    Route.Way way = route.way();
    Lease lease = null;
    boolean lockFailed = false;
    if (way == Route.Way.REBUILD) { // a background rebuild's request builds under the lease its visitor won
      try {
        lease = handOff == null ? Lease.take(engine.lock, p, found) : handOff.lease(found);
      } catch (StoreException e) {
        p.stats().record(Event.ERROR);
        lockFailed = true;
      }
      // The lock won with a copy to serve: the visitor gets it at once, the page is rebuilt in the background.
      // Memcached failing the lock (a node hanging before its breaker opens): nobody may be rebuilding a
      // stale page, so this request builds it without the lock, as for any store failure, the copy its
      // fallback; a page picked for early refresh is still fresh and served as the hit it is.
      way = lockFailed ? (route.ifLost() == Route.Way.SERVE_FRESH ? Route.Way.SERVE_FRESH : way)
          : lease == null ? route.ifLost()
          : route.copyServable() && engine.background.takeOver(p, found, lease) ? route.ifLost() : way;
    }
    Found target = found;
    StoredPage stale = null;
    switch (way) {
      case SERVE_FRESH -> {
        p.stats().record(Event.HIT);
        if (p.notes().visitor != null) {
          p.stats().signedInHit();
        }
        return Outcome.serving(page, CacheStatus.hit(responder.ttlLeft(page)));
      }
      case SERVE_STALE -> {
        p.stats().record(Event.STALE);
        return Outcome.serving(page, CacheStatus.stale(responder.ttlLeft(page), found.decision().reason()));
      }
      case PASS_AFTER_REFUSAL -> {
        return new Outcome.Pass(page.uncacheableReason());
      }
      case REBUILD -> { // the lock won: build, with the stale copy to fall back on
        if (handOff == null) {
          p.stats().record(Event.MISS); // a visitor's; a background rebuild is counted as one
        }
        stale = page;
      }
      case BUILD_AFTER_REFUSAL, BUILD_WITHOUT_LOCK -> p.stats().record(Event.MISS); // no lock: nobody queues
      default -> { // WAIT
        p.stats().record(Event.MISS); // the builder and those who wait for it alike
        Waiting.Waited waited = waiting.absent(p, found);
        if (waited instanceof Waiting.Waited.Page arrived) {
          return arrived.serve(); // counted as its miss
        }
        if (waited instanceof Waiting.Waited.Refused refused) {
          handOn(refused.handOn()); // at once: the others build too instead of waiting for this build
          StoredPage marker = refused.found().page();
          if (Route.afterRefusal(marker).way() == Route.Way.PASS_AFTER_REFUSAL) {
            return new Outcome.Pass(marker.uncacheableReason());
          }
          target = refused.found();
        } else {
          Waiting.Waited.Turn turn = (Waiting.Waited.Turn) waited;
          target = turn.found();
          lease = turn.lease();
        }
      }
    }
    return new Build(builds, p, target, stale, lease).run();
  }

  /**
   * The one answer: hands the page the route wrote or found to this JVM's requests waiting for it,
   * then sends. Called for every request, and by an async build when it ends ({@link Build}).
   */
  void answer(PageRequest p, Outcome outcome) throws IOException, ServletException {
    if (outcome instanceof Outcome.Serve serve) {
      handOn(serve.handOn());
      p.trace().status(serve.status().xCache());
      responder.serve(p, serve.page(), serve.status());
    } else if (outcome instanceof Outcome.Replay replay) {
      handOn(replay.handOn());
      p.trace().status(replay.status().xCache());
      responder.replay(p, replay.response(), replay.status());
    } else if (outcome instanceof Outcome.Sent sent) {
      handOn(sent.handOn()); // it went to the client as it was written
      p.trace().status(CacheStatus.bypass("streamed").xCache());
    } else if (outcome instanceof Outcome.Pass pass) {
      p.trace().status(CacheStatus.bypass(pass.reason()).xCache());
      responder.bypass(p, pass.reason());
    } else if (outcome instanceof Outcome.Failed failed) {
      rethrow(failed.failure());
    } // Continues: the async build answers when it ends
  }

  private void handOn(Outcome.HandOn handOn) {
    if (handOn != null) {
      engine.waiting.arrived(handOn.key(), handOn.page());
    }
  }

  private static void rethrow(Exception failure) throws IOException, ServletException {
    if (failure instanceof IOException e) {
      throw e;
    } else if (failure instanceof ServletException e) {
      throw e;
    } else if (failure instanceof RuntimeException e) {
      throw e;
    }
    throw new ServletException(failure);
  }

  /**
   * An ASYNC dispatch: continues the build its request started (the container hands it back through
   * a request attribute) instead of being a new request; any other goes straight to the handler, as
   * it did the first time.
   */
  void asyncDispatch(HttpServletRequest req, HttpServletResponse res, FilterChain chain)
      throws IOException, ServletException {
    asyncDispatchesSeen = true; // the filter is mapped for them: builds can go on in theirs
    if (req.getAttribute(Build.ATTRIBUTE) instanceof Build build) {
      req.removeAttribute(Build.ATTRIBUTE);
      build.resume(req, res, chain);
    } else {
      chain.doFilter(req, res);
    }
  }

  private static final RequestParts NO_PARTS = new RequestParts(null, List.of(), List.of());

  /**
   * The container's session cookie: it follows the policy's {@code sessions=}, not its
   * {@code cookies=}. Read once (it is fixed when the application starts); a context without
   * sessions has no config, and then the servlet default name stands.
   */
  private String sessionCookie(HttpServletRequest req) {
    String name = sessionCookie;
    if (name == null) {
      SessionCookieConfig config = req.getServletContext().getSessionCookieConfig();
      name = config == null || config.getName() == null ? "JSESSIONID" : config.getName();
      sessionCookie = name;
    }
    return name;
  }

  /** @param signedIn a signed-in visitor the policy serves: their Authorization is what signed them in */
  private static String requestBypass(HttpServletRequest req, CachePolicy policy, boolean signedIn) {
    if (!policy.enabled()) {
      return "disabled";
    }
    if (!signedIn && !policy.allowAuthorized() && req.getHeader("Authorization") != null) {
      return "authorization";
    }
    // Signed in without a session (an SSO proxy's header, a client certificate, a token checked on each
    // request): the page is theirs. With a session id the session rule decides (AnonymousSessions).
    if (!signedIn && !policy.allowAuthorized() && req.getRequestedSessionId() == null
        && (req.getUserPrincipal() != null || req.getRemoteUser() != null)) {
      return SignedInVisitors.BYPASS;
    }
    return null;
  }
}
