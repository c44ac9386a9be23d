package org.pagecache;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.SessionCookieConfig;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;
import java.util.function.Consumer;
import org.pagecache.internal.capture.CacheStatus;
import org.pagecache.internal.capture.StaleWindows;
import org.pagecache.internal.freshness.RebuildLock;
import org.pagecache.internal.key.RequestParts;
import org.pagecache.internal.stats.Event;
import org.pagecache.internal.stats.HandlerRecorder;
import org.pagecache.internal.store.StoredPage;
import org.pagecache.store.StoreException;

/**
 * One cacheable request, from lookup to response (see docs/freshness.md and docs/safety.md):
 * <pre>
 *   not GET or HEAD: run it ({@link Writes}); a success evicts the pages it changed
 *   request checks (RequestParts)            cookie not ignored, Authorization -> BYPASS
 *   session (AnonymousSessions)              signed-in user, sessions=off, a session attribute
 *                                            the handler's builds read -> BYPASS
 *   lookup: near cache (trusted near.trust)  or getMulti(token, page): one round trip
 *   refusal marker -> build without the lock (hit-for-miss), or BYPASS (hit-for-pass)
 *   FRESH  -> serve                          X-Cache: HIT
 *   STALE  -> add(lock) won  -> build        X-Cache: MISS
 *                       lost -> serve stale  X-Cache: STALE
 *   ABSENT -> wait with this JVM's requests for the one that builds or watches memcached;
 *             that one: add(lock) won -> build, lost -> poll memcached up to lock.wait
 *   build: run the handler captured -> BuildDecision -> store / refuse / stale copy
 *          -> give the lock back (one place: buildUnderLock) -> answer
 * </pre>
 * This class does the request checks and sends the request the way its lookup says; each step
 * is a part of its own that reads top to bottom: {@link Lookup}, {@link Waiting} (ABSENT),
 * {@link Rebuild} (lock and build; {@link PageWriter} stores), {@link Responder} (serve, replay,
 * bypass). They all work with the {@link Engine}.
 *
 * <p>How each response was served is a {@link CacheStatus}, rendered once. Every store failure falls
 * back to running the handler: the cache never causes a 5xx.
 */
final class PageFlow {
  private final Engine engine;
  private final Lookup lookup;
  private final Responder responder;
  private final Rebuild rebuild;
  private final Waiting waiting;
  private final Writes writes;
  private volatile String sessionCookie;

  /** @param evict evicts the page at a URL ({@link PageCache#evict}): what a successful write does */
  PageFlow(Engine engine, Consumer<String> evict) {
    this.engine = engine;
    this.writes = new Writes(engine, evict);
    this.lookup = new Lookup(engine);
    this.responder = new Responder(engine);
    this.rebuild = new Rebuild(engine, lookup, responder, new PageWriter(engine, lookup));
    this.waiting = new Waiting(engine, lookup, responder, rebuild);
  }

  void handle(HttpServletRequest req, HttpServletResponse res, FilterChain chain) throws IOException, ServletException {
    String method = req.getMethod();
    if (!"GET".equals(method) && !"HEAD".equals(method)) {
      writes.run(req, res, chain);
      return;
    }
    if (engine.visitors != null) {
      engine.counters.visit(engine.visitors.of(req)); // never throws; deduplicated per window in this JVM
    }
    String handler = engine.policies.handlerFor(req);
    CachePolicy policy = engine.policies.policy(handler);
    HandlerRecorder stats = engine.recorder.handler(handler);
    SignedInVisitors.Visitor visitor = SignedInVisitors.of(req, policy, engine.userContext);
    String skip = requestBypass(req, policy, visitor != null);
    if (skip == null && visitor != null) {
      skip = SignedInVisitors.requestBypass(req, visitor, stats);
    }
    if (skip == null) {
      skip = AnonymousSessions.requestBypass(req, policy, stats);
    }
    RequestParts parts = skip != null ? NO_PARTS
        : RequestParts.of(req, policy.cookies().mode() == CookieRule.Mode.IGNORE,
            policy.cookies().vary(), engine.ignoredCookies, sessionCookie(req),
            engine.keys.ignoredParameters().keyedBy(handler));
    if (visitor != null && skip == null && parts.bypass() == null) {
      parts = parts.with(SignedInVisitors.keyPart(visitor)); // the group's pages, never the anonymous ones
    }
    PageRequest p = new PageRequest(req, res, chain, handler, policy, stats, parts);
    if (skip != null || parts.bypass() != null) {
      responder.bypass(p, skip != null ? skip : parts.bypass());
      return;
    }
    Found found;
    try {
      found = lookup.find(p, true);
    } catch (StoreException e) {
      p.stats().record(Event.ERROR);
      responder.bypass(p, "store-unavailable");
      return;
    }
    StoredPage page = found.page();
    if (page != null && page.isUncacheableMarker() && engine.clock.millis() < page.freshUntilMillis()) {
      rebuild.afterRefusal(p, found, false);
      return;
    }
    switch (found.decision().state()) {
      case FRESH -> responder.serve(p, page, Event.HIT, CacheStatus.hit(responder.ttlLeft(page)));
      case STALE -> {
        RebuildLock.Lease lease = rebuild.tryLock(p, found, Event.MISS);
        if (lease != null) {
          rebuild.buildUnderLock(p, found, page, lease);
        } else if (found.decision().early()) {
          responder.serve(p, page, Event.HIT, CacheStatus.hit(responder.ttlLeft(page)));
        } else if (StaleWindows.whileRevalidating(page, policy.honorCacheControl(), engine.clock.millis())) {
          responder.serve(p, page, Event.STALE, CacheStatus.stale(responder.ttlLeft(page), found.decision().reason()));
        } else {
          waiting.absent(p, found); // past its stale-while-revalidate: wait for the rebuild, as for a missing page
        }
      }
      case ABSENT -> waiting.absent(p, found);
    }
  }

  /**
   * An ASYNC dispatch: continues the build its request started (found through a request attribute)
   * instead of being a new request; any other goes straight to the handler, as it did the first time.
   */
  void asyncDispatch(HttpServletRequest req, HttpServletResponse res, FilterChain chain)
      throws IOException, ServletException {
    rebuild.asyncDispatchSeen();
    if (req.getAttribute(AsyncBuild.ATTRIBUTE) instanceof AsyncBuild build) {
      req.removeAttribute(AsyncBuild.ATTRIBUTE);
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
    return null;
  }
}
