package org.pagecache;

import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.pagecache.internal.capture.CacheStatus;
import org.pagecache.internal.capture.CapturedResponse;
import org.pagecache.internal.capture.CapturingResponse;
import org.pagecache.internal.capture.Freshening;
import org.pagecache.internal.capture.HeaderReads;
import org.pagecache.internal.capture.StaleWindows;
import org.pagecache.internal.capture.WatchedRequest;
import org.pagecache.internal.freshness.Freshness;
import org.pagecache.internal.freshness.HitForMiss;
import org.pagecache.internal.freshness.RebuildLock;
import org.pagecache.internal.freshness.RebuildLock.Lease;
import org.pagecache.internal.key.RequestParts;
import org.pagecache.internal.key.VaryRecord;
import org.pagecache.internal.stats.Event;
import org.pagecache.internal.store.StoredPage;
import org.pagecache.store.Store;
import org.pagecache.store.StoreException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds a page: takes the page's rebuild lock (dog-pile: one rebuilder via memcached add), looks
 * once more, runs the handler with its response captured, does what {@link BuildDecision} says
 * ({@link PageWriter} stores), gives the lock back in the one place that does, then answers.
 */
final class Rebuild {
  private static final Logger log = LoggerFactory.getLogger(Rebuild.class);

  private final Engine engine;
  private final Lookup lookup;
  private final Responder responder;
  private final PageWriter writer;
  /** Set once an ASYNC dispatch has passed the filter: from then on a dispatch continues its build. */
  private volatile boolean asyncDispatchesSeen;

  Rebuild(Engine engine, Lookup lookup, Responder responder, PageWriter writer) {
    this.engine = engine;
    this.lookup = lookup;
    this.responder = responder;
    this.writer = writer;
  }

  /** The filter saw an ASYNC dispatch: it is mapped for them, and builds that dispatch can go on in theirs. */
  void asyncDispatchSeen() {
    asyncDispatchesSeen = true;
  }

  /**
   * The page's rebuild lock if this request won it, else null (lost, or memcached failed). A
   * winner's {@code first} event, when given, is traced before the lock, so a rebuild reads MLWU.
   */
  Lease tryLock(PageRequest p, Found found, Event first) {
    try {
      Lease lease = engine.lock.tryAcquire(found.key(), lockVersion(found), engine.lock.newOwner());
      if (lease != null) {
        if (first != null) {
          p.stats().record(first);
        }
        p.stats().record(Event.LOCK);
      }
      return lease;
    } catch (StoreException e) {
      p.stats().record(Event.ERROR);
      return null;
    }
  }

  /** The lock key a build of {@code found} takes: one per version, so a refresh never waits on an older build. */
  String lockKey(Found found) {
    return engine.lock.key(found.key(), lockVersion(found));
  }

  private static long lockVersion(Found found) {
    return RebuildLock.version(found.token(), found.tagVersions().values());
  }

  private void release(PageRequest p, Lease lease) {
    try {
      engine.lock.release(lease);
      p.stats().record(Event.UNLOCK);
    } catch (StoreException e) {
      p.stats().record(Event.ERROR); // the lock expires by itself: its lease is no longer renewed
    }
  }

  /**
   * A page whose last build was refused: build it again at once without waiting on its lock
   * (hit-for-miss), or, once refusals keep coming, pass it to the handler (see {@link HitForMiss}).
   */
  void afterRefusal(PageRequest p, Found found, boolean missRecorded) throws IOException, ServletException {
    if (HitForMiss.passes(found.page())) {
      responder.bypass(p, found.page().uncacheableReason());
    } else {
      if (!missRecorded) {
        p.stats().record(Event.MISS);
      }
      responder.answer(p, build(p, found, null)); // no lock: a refused page makes nobody queue
    }
  }

  /**
   * With the lock won: looks once more (between this request's lookup and its lock, another request
   * may have built the page and released its lock; one round trip per rebuild, none per hit),
   * builds if nobody did, gives the lock back in the one place that does, whatever way the build
   * ended (even an Error), then answers.
   */
  void buildUnderLock(PageRequest p, Found found, StoredPage stale, Lease lease) throws IOException, ServletException {
    Built built = null;
    try {
      Found again;
      try {
        again = lookup.find(p, false);
      } catch (StoreException e) {
        again = found;
      }
      if (again != found && again.key().equals(found.key()) && builtSince(found.page(), again)) {
        built = Built.serving(again.page(), CacheStatus.collapsed(responder.ttlLeft(again.page())));
      } else {
        // Build under the newest token seen, so a refresh between the two lookups is not built stale.
        Found target = again.key().equals(found.key()) && again.token() > found.token()
            ? found.withToken(again.token())
            : found;
        built = build(p, target, stale, lease);
      }
    } finally {
      if (built != Built.CONTINUES) {
        release(p, lease); // an async build gives it back itself, when it ends (AsyncBuild)
      }
    }
    responder.answer(p, built);
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
   * Runs the handler with its response captured, then does what {@link BuildDecision} says: store
   * the page, refuse it, or fall back to the stale copy. Writes to memcached; sends nothing.
   */
  Built build(PageRequest p, Found found, StoredPage stale) {
    return build(p, found, stale, null);
  }

  /** As {@link #build(PageRequest, Found, StoredPage)}, under {@code lease}: an async build ends with it. */
  private Built build(PageRequest p, Found found, StoredPage stale, Lease lease) {
    long start = engine.clock.millis();
    long startNanos = System.nanoTime(); // build time for metrics: a monotonic clock, not the TTL clock
    CapturingResponse capture = responder.newCapture(p);
    capture.onPassThrough(responder.label(CacheStatus.bypass("streamed"))::apply);
    markRecentInvalidation(p, found, start);
    // A stored page with the application's validators is asked for conditionally (RFC 9111 4.3.1).
    Map<String, String> conditions = Freshening.conditions(found.page());
    WatchedRequest shared = conditions.isEmpty() ? WatchedRequest.forSharing(p.req(), capture)
        : WatchedRequest.forRevalidation(p.req(), capture, conditions);
    shared.hideParameters(engine.keys.ignoredParameters().hiddenFrom(p.parts().keyedParameters()));
    SignedInVisitors.watch(p.req(), shared);
    // A handler that goes async is still captured: the build ends when it completes, or when the
    // ASYNC dispatch it asks for ends; one the filter cannot see goes out uncached (hit-for-miss).
    shared.captureAsync(new AsyncBuild(p, capture, shared, responder, () -> asyncDispatchesSeen,
        c -> decide(p, found, stale, c, shared, conditions, start, lease),
        () -> {
          writer.rememberRefusal(p, found, "async-dispatch", start, placement(lease));
          p.stats().bypass("async-dispatch");
        },
        () -> {
          if (lease != null) {
            release(p, lease);
          }
        }));
    CapturedResponse c;
    try {
      p.chain().doFilter(shared, capture);
      if (shared.asyncCaptured()) {
        return Built.CONTINUES; // answered, and its lock given back, when the async build ends
      }
      c = capture.finish();
      p.stats().built(System.nanoTime() - startNanos);
    } catch (IOException | ServletException | RuntimeException e) {
      if (stale != null && !capture.isPassThrough() && !p.res().isCommitted()
          && StaleWindows.onError(stale, null, p.policy().honorCacheControl(), engine.clock.millis())) {
        log.warn("pagecache: build of a {} page failed ({}); serving the stale copy", p.handler(), e.toString());
        p.res().reset();
        return Built.serving(stale, CacheStatus.staleIfError(null));
      }
      return new Built(null, null, null, e);
    }
    return decide(p, found, stale, c, shared, conditions, start, lease);
  }

  /** Where a build writes: where its lock was taken (a build finishes where it started), else as routed now. */
  private Store placement(Lease lease) {
    return lease != null ? lease.placement() : engine.store;
  }

  /** What a finished build ends in: a freshened page, a stored one, a refusal or the stale copy. */
  private Built decide(PageRequest p, Found found, StoredPage stale, CapturedResponse c, WatchedRequest shared,
      Map<String, String> conditions, long start, Lease lease) {
    String sessionUse = AnonymousSessions.afterBuild(p.req(), shared.sessionReads(), c, p.stats());
    String parameterRead = TrackingParameterReads.afterBuild(engine.keys.ignoredParameters(), p.handler(),
        shared.reads(), p.stats());
    if (parameterRead != null && !c.passedThrough()) {
      p.stats().bypass(parameterRead); // its key left out what it read: this page is not stored; the next is keyed on it
      return Built.replaying(c, CacheStatus.refused(parameterRead));
    }
    if (!conditions.isEmpty() && c.status() == 304 && !c.passedThrough()) {
      return writer.freshened(p, found, c, start, containerSetCookie(p), sessionUse, placement(lease));
    }
    BuildDecision d = BuildDecision.of(c, p.policy(), start, stale != null, containerSetCookie(p),
        recordUnkeyedReads(p, c, shared.reads()), sessionUse);
    switch (d.kind()) {
      case PASSED_THROUGH -> {
        // Too large or async: it will be the same next time, so say so before anyone waits on the lock.
        if (d.rememberRefusal()) {
          writer.rememberRefusal(p, found, d.reason(), start, placement(lease));
        }
        p.stats().bypass(d.reason());
        engine.live.count(LiveCounts.declared(p.req()));
        return Built.SENT;
      }
      case STALE_IF_ERROR -> {
        if (StaleWindows.onError(stale, c.status(), p.policy().honorCacheControl(), engine.clock.millis())) {
          return Built.serving(stale, CacheStatus.staleIfError(c.status()));
        }
        // Honor mode: past its stale-if-error, or a status a stale copy does not stand in for.
        p.stats().bypass("error");
        return Built.replaying(c, CacheStatus.refused("error"));
      }
      case REFUSE -> {
        if (d.rememberRefusal()) {
          writer.rememberRefusal(p, found, d.reason(), start, placement(lease));
        }
        p.stats().bypass(d.reason());
        return Built.replaying(c, CacheStatus.refused(d.reason()));
      }
      default -> {
        return writer.store(p, found, d, stale, start, placement(lease));
      }
    }
  }

  /**
   * Records the request headers the handler read that are not part of the page's key, logging each
   * once per handler: the evidence for {@code vary=} or {@code harmless=}. True when there were any.
   */
  private boolean recordUnkeyedReads(PageRequest p, CapturedResponse c, HeaderReads reads) {
    boolean any = false;
    List<String> responseVary = VaryRecord.names(c.headerValues("Vary"), List.of());
    for (String name : reads.names()) {
      if (keyed(p, responseVary, name)) {
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
  private boolean keyed(PageRequest p, List<String> responseVaryNames, String name) {
    return RequestParts.keyedHeader(name) || NEVER_CHANGE_A_PAGE.contains(name) || p.policy().harmless().contains(name)
        || p.policy().vary().contains(name) || responseVaryNames.contains(name)
        || (name.equals("authorization") && !p.policy().allowAuthorized());
  }

  /** Request headers about the message or connection, not about which page to send. */
  private static final Set<String> NEVER_CHANGE_A_PAGE = Set.of("content-length", "content-type", "connection",
      "keep-alive", "te", "trailer", "transfer-encoding", "upgrade", "expect");

  /**
   * True when the container, not the handler, gave this response a cookie: a session created (or
   * its id changed) during the build has its cookie written straight to the real response, past
   * the capture, and the page may hold that session's data (a CSRF token, a user's name).
   */
  private static boolean containerSetCookie(PageRequest p) {
    HttpSession session = p.req().getSession(false);
    // The requested id is compared by the container (Jetty's cookie carries an extended id, not getId()).
    if (session != null && (session.isNew() || !p.req().isRequestedSessionIdValid())) {
      return true;
    }
    return p.res().containsHeader("Set-Cookie");
  }

  /** Tells the application that this rebuild follows a fresh invalidation (read from the primary). */
  private void markRecentInvalidation(PageRequest p, Found found, long now) {
    long lag = engine.replicaLag.toMillis();
    long newest = found.token();
    for (long v : found.tagVersions().values()) {
      newest = Math.max(newest, v);
    }
    if (newest > 0 && now - newest < lag) {
      p.req().setAttribute(PageCache.INVALIDATED_AGO_ATTRIBUTE, Math.max(0, now - newest));
    }
  }
}
