package org.pagecache;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.SessionCookieConfig;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.pagecache.internal.stats.Event;
import org.pagecache.internal.stats.HandlerStats;
import org.pagecache.internal.capture.CaptureRequest;
import org.pagecache.internal.capture.CacheStatus;
import org.pagecache.internal.capture.Captured;
import org.pagecache.internal.capture.CapturingResponse;
import org.pagecache.internal.capture.Freshening;
import org.pagecache.internal.capture.HeaderReads;
import org.pagecache.internal.capture.PageBuilder;
import org.pagecache.internal.capture.PageSender;
import org.pagecache.internal.capture.PageSender.Label;
import org.pagecache.internal.capture.ResponseStartWatch;
import org.pagecache.internal.capture.TagsHeaderHidden;
import org.pagecache.internal.counters.Placeholders;
import org.pagecache.internal.freshness.Freshness;
import org.pagecache.internal.freshness.Freshness.Decision;
import org.pagecache.internal.freshness.HitForMiss;
import org.pagecache.internal.freshness.InvalidationTargets;
import org.pagecache.internal.key.PageKeys;
import org.pagecache.internal.key.RequestParts;
import org.pagecache.internal.key.VaryRecord;
import org.pagecache.internal.near.NearCache;
import org.pagecache.internal.near.WaitingList;
import org.pagecache.internal.store.CachedPage;
import org.pagecache.internal.store.CachedPage.Header;
import org.pagecache.internal.store.CachedPage.TagVersion;
import org.pagecache.store.StoreException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One cacheable request, from lookup to response (see docs/freshness.md and docs/safety.md):
 * <pre>
 *   request checks (RequestParts)            cookie not ignored, session, Authorization -> BYPASS
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
 * How each response was served is a {@link CacheStatus}, rendered once. Every store failure falls
 * back to running the handler: the cache never causes a 5xx.
 */
final class PageFlow {
  private static final Logger log = LoggerFactory.getLogger(PageFlow.class);
  private static final long FIRST_POLL_MILLIS = 10;
  private static final long MAX_POLL_MILLIS = 100;
  private static final long THIRTY_DAYS_SECONDS = 30L * 24 * 3600;
  /** Request attribute: the near cache entry this request is served from. */
  private static final String NEAR_ENTRY = "org.pagecache.internal.near.entry";
  /** Request attribute: this request waited lock.wait in the JVM for another's build already. */
  private static final String WAITED_IN_JVM = "org.pagecache.internal.near.waited";
  /** Request attribute: the vary record the lookup found under the page's URL. */
  private static final String VARY_RECORD = "org.pagecache.internal.key.varyRecord";

  private final PageCache cache;
  private final String cacheHeader;
  private volatile String sessionCookie;

  PageFlow(PageCache cache) {
    this.cache = cache;
    this.cacheHeader = cache.config.header;
  }

  /** What the lookup found for a request. */
  private record Found(String key, CachedPage page, long token, Decision decision, Map<String, Long> tagVersions) {}

  /** The request for a page being handled, with what every step needs: handler, policy, stats, key parts. */
  private record PageRequest(HttpServletRequest req, HttpServletResponse res, FilterChain chain,
      String handler, CachePolicy policy, HandlerStats stats, RequestParts parts) {}

  void handle(HttpServletRequest req, HttpServletResponse res, FilterChain chain) throws IOException, ServletException {
    String method = req.getMethod();
    if (!"GET".equals(method) && !"HEAD".equals(method)) {
      unsafe(req, res, chain);
      return;
    }
    if (cache.visitors != null) {
      cache.counters.visit(cache.visitors.of(req)); // never throws; deduplicated per window in this JVM
    }
    String handler = cache.policies.handlerFor(req);
    CachePolicy policy = cache.policies.policy(handler);
    String skip = requestBypass(req, policy);
    RequestParts parts = skip != null ? NO_PARTS
        : RequestParts.of(req, policy.cookies(), cache.config.ignoredCookies, sessionCookie(req));
    PageRequest p = new PageRequest(req, res, chain, handler, policy, cache.stats.handler(handler), parts);
    if (skip != null || parts.bypass() != null) {
      bypass(p, skip != null ? skip : parts.bypass());
      return;
    }
    Found found;
    try {
      found = lookup(p, true);
    } catch (StoreException e) {
      p.stats.record(Event.ERROR);
      bypass(p, "store-unavailable");
      return;
    }
    CachedPage page = found.page;
    if (page != null && page.isUncacheableMarker() && cache.clock.millis() < page.freshUntilMillis()) {
      afterRefusal(p, found, false);
      return;
    }
    switch (found.decision.state()) {
      case FRESH -> serve(p, page, Event.HIT, CacheStatus.hit(ttlLeft(page)));
      case STALE -> {
        Lease lease = tryLock(p, found.key, Event.MISS);
        if (lease != null) {
          buildUnderLock(p, found, page, lease);
        } else if (found.decision.early()) {
          serve(p, page, Event.HIT, CacheStatus.hit(ttlLeft(page)));
        } else {
          serve(p, page, Event.STALE, CacheStatus.stale(ttlLeft(page), found.decision.reason()));
        }
      }
      case ABSENT -> absent(p, found);
    }
  }

  /**
   * Runs any other method than GET and HEAD uncached; when it succeeds, the pages it changed are
   * evicted before its answer starts (see {@link InvalidationTargets}), unless the handler's policy
   * says {@code invalidate=off}.
   */
  private void unsafe(HttpServletRequest req, HttpServletResponse res, FilterChain chain)
      throws IOException, ServletException {
    CachePolicy policy = cache.policies.policy(cache.policies.handlerFor(req));
    if (!policy.invalidateOnWrite()) {
      chain.doFilter(req, new TagsHeaderHidden(res));
      return;
    }
    ResponseStartWatch watched = new ResponseStartWatch(res, (status, location, contentLocation) -> {
      try {
        String query = req.getQueryString();
        URI target = URI.create(req.getRequestURL() + (query == null ? "" : "?" + query));
        for (URI url : InvalidationTargets.of(req.getMethod(), status, target, location, contentLocation)) {
          cache.evict(url.toString());
        }
      } catch (StoreException | IllegalArgumentException e) {
        // memcached unreachable (its pages expire by themselves) or a URL the cache cannot key
      }
    });
    chain.doFilter(req, watched);
    watched.finish();
  }

  private static final RequestParts NO_PARTS = new RequestParts(null, List.of(), List.of());

  /**
   * A page whose last build was refused: build it again at once without waiting on its lock
   * (hit-for-miss), or, once refusals keep coming, pass it to the handler (see {@link HitForMiss}).
   */
  private void afterRefusal(PageRequest p, Found found, boolean missRecorded) throws IOException, ServletException {
    if (HitForMiss.passes(found.page)) {
      bypass(p, found.page.uncacheableReason());
    } else {
      if (!missRecorded) {
        p.stats.record(Event.MISS);
      }
      answer(p, build(p, found, null)); // no lock: a refused page makes nobody queue
    }
  }

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

  private static String requestBypass(HttpServletRequest req, CachePolicy policy) {
    if (!policy.enabled()) {
      return "disabled";
    }
    if (!policy.allowAuthorized() && req.getHeader("Authorization") != null) {
      return "authorization";
    }
    if (!policy.allowSessions() && req.getRequestedSessionId() != null) {
      return "session";
    }
    return null;
  }

  // ---- lookup ----

  /**
   * The page for this request: from this JVM's near cache, from another request of this JVM that
   * is building it ({@code mayWait}), or from memcached. The holder of a rebuild lock never waits
   * in the JVM: the requests waiting there wait for it.
   */
  private Found lookup(PageRequest p, boolean mayWait) {
    String key = pageKey(p);
    Found known = nearOrWaited(p, key, mayWait); // this JVM's memory, or another request of it building the page
    if (known != null) {
      return known;
    }
    long askedAt = cache.clock.millis();
    String tokenKey = cache.tokens.key(p.handler);
    Map<String, byte[]> got = cache.store.getMulti(List.of(tokenKey, key));
    long token = cache.tokens.effective(p.handler, got.get(tokenKey));
    CachedPage page = cache.codec.decode(key, got.get(key));
    if (page != null && page.isVaryRecord()) {
      // The URL's responses vary: its record names the headers, the variant lives under its own key
      // (RFC 9111 4.1's secondary key); a second round trip only for pages that vary.
      p.req.setAttribute(VARY_RECORD, page);
      key = variantKey(p, page);
      page = cache.codec.decode(key, cache.store.get(key));
    }
    if (page != null && !varyMatches(page, p.req)) {
      page = null;
    }
    Map<String, Long> versions = Map.of();
    if (page != null && !page.tags().isEmpty()) {
      versions = cache.tags.current(page.tags().stream().map(TagVersion::tag).toList());
    }
    Decision decision = Freshness.classify(page, cache.clock.millis(), token, versions,
        p.policy.earlyRefresh(), 1.0 - ThreadLocalRandom.current().nextDouble());
    if (decision.state() == Freshness.State.FRESH) {
      cache.near.remember(key, p.handler, page, askedAt);
    }
    return new Found(key, page, token, decision, versions);
  }

  /** The page's primary key: its URL, the headers its policy varies on, and the request's own key parts. */
  private String pageKey(PageRequest p) {
    return cache.keys.forRequest(p.req, p.handler, p.policy.vary(), p.parts.keyParts());
  }

  /**
   * The key of this request's variant of a page whose responses vary on the record's headers
   * besides the policy's. The record's time is part of it: evicting the URL (its record) leaves
   * every variant unreachable, and a record made anew after that does not find them again.
   */
  private String variantKey(PageRequest p, CachedPage record) {
    List<String[]> parts = new ArrayList<>(p.parts.keyParts());
    parts.add(VaryRecord.keyPart(record.builtAtMillis()));
    return cache.keys.forRequest(p.req, p.handler, VaryRecord.keyHeaders(p.policy.vary(), record.varyNames()), parts);
  }

  /** The URL's vary record for a response varying on {@code names}: the one the lookup found when it names the same headers. */
  private CachedPage varyRecord(PageRequest p, List<String> names, long now) {
    Object seen = p.req.getAttribute(VARY_RECORD);
    if (seen instanceof CachedPage record && Set.copyOf(record.varyNames()).equals(Set.copyOf(names))) {
      return record;
    }
    return CachedPage.varyRecord(names, now);
  }

  private static boolean varyMatches(CachedPage page, HttpServletRequest req) {
    for (Header h : page.vary()) {
      if (!h.value().equals(PageKeys.headerValue(req, h.name()))) {
        return false;
      }
    }
    return true;
  }

  /** The rebuild lock of one page, held by this request and given back in {@link #buildUnderLock}. */
  private record Lease(String pageKey, String owner) {}

  /**
   * The page's rebuild lock if this request won it, else null (lost, or memcached failed). A
   * winner's {@code first} event, when given, is traced before the lock, so a rebuild reads MLWU.
   */
  private Lease tryLock(PageRequest p, String key, Event first) {
    String owner = cache.lock.newOwner();
    try {
      if (cache.lock.tryAcquire(key, owner)) {
        if (first != null) {
          p.stats.record(first);
        }
        p.stats.record(Event.LOCK);
        return new Lease(key, owner);
      }
      return null;
    } catch (StoreException e) {
      p.stats.record(Event.ERROR);
      return null;
    }
  }

  private void release(PageRequest p, Lease lease) {
    try {
      cache.lock.release(lease.pageKey(), lease.owner());
      p.stats.record(Event.UNLOCK);
    } catch (StoreException e) {
      p.stats.record(Event.ERROR); // the lock expires by itself after lock.ttl
    }
  }

  // ---- serving ----

  /**
   * Serves a stored page, counting its views and filling its counters in: live even on a hit.
   * {@code event} is null when the request's event was traced already (a miss, at its lookup).
   */
  private void serve(PageRequest p, CachedPage page, Event event, CacheStatus status) throws IOException {
    if (event != null) {
      p.stats.record(event);
    }
    Map<String, Long> counts = isHead(p) || page.viewKeys().isEmpty() ? Map.of() : cache.live.count(page.viewKeys());
    byte[] rendered = page.placeholders() ? cache.live.render(page.body(), counts, status.xCache()) : null;
    PageSender.send(p.req, p.res, page, cache.clock.millis(), label(status),
        rendered, cache.near.identityBody((NearCache.Entry) p.req.getAttribute(NEAR_ENTRY), page),
        cache.config.maxEntrySize * 8);
  }

  /** Sends a response that was captured but not stored, with its counters live too. */
  private void replay(PageRequest p, Captured c, CacheStatus status) throws IOException {
    List<String> declared = LiveCounts.declared(p.req);
    Map<String, Long> counts = isHead(p) || declared.isEmpty() ? Map.of() : cache.live.count(declared);
    Captured out = Placeholders.contains(c.body()) ? c.withBody(cache.live.render(c.body(), counts, status.xCache())) : c;
    PageSender.replay(p.req, p.res, out, label(status));
  }

  /** The status rendered once, for the X-Cache header (under its configured name) and Cache-Status. */
  private Label label(CacheStatus status) {
    return new Label(cacheHeader, status.xCache(), status.render());
  }

  /**
   * Runs the handler without the cache. A GET is still captured (never stored) so its counter
   * placeholders are filled in and its declared views counted, durably even while memcached is
   * down; bodies past max.entry.size and async responses stream straight through as usual. HEAD
   * goes straight through: the container's HEAD handling computes the length itself.
   */
  private void bypass(PageRequest p, String reason) throws IOException, ServletException {
    p.stats.bypass(reason);
    CacheStatus status = CacheStatus.bypass(reason);
    Label label = label(status);
    if (isHead(p)) {
      label.apply(p.res);
      CaptureRequest watched = CaptureRequest.watching(p.req);
      p.chain.doFilter(watched, new TagsHeaderHidden(p.res));
      recordCookieBypass(p, watched);
      return;
    }
    CapturingResponse capture = newCapture(p);
    capture.onPassThrough(label::apply);
    CaptureRequest watched = CaptureRequest.asSent(p.req, capture);
    p.chain.doFilter(watched, capture);
    recordCookieBypass(p, watched);
    Captured c = capture.finish();
    if (c.passedThrough()) {
      cache.live.count(LiveCounts.declared(p.req));
      return;
    }
    replay(p, c, status);
  }

  /** The evidence an operator opens the cache up with: which cookies bypassed, and whether the handler read one. */
  private static void recordCookieBypass(PageRequest p, CaptureRequest watched) {
    if (!p.parts.cookies().isEmpty()) {
      p.stats.cookieBypass(p.parts.cookies(), watched.reads().readCookies());
    }
  }

  private CapturingResponse newCapture(PageRequest p) {
    return new CapturingResponse(p.res, cache.config.maxEntrySize, p.req.getServletContext().getResponseCharacterEncoding());
  }

  private static boolean isHead(PageRequest p) {
    return "HEAD".equals(p.req.getMethod());
  }

  private long ttlLeft(CachedPage page) {
    return (page.freshUntilMillis() - cache.clock.millis()) / 1000;
  }

  // ---- waiting for another request's build ----

  private void waitForBuilder(PageRequest p, Found found) throws IOException, ServletException {
    p.stats.lockWaited();
    String lockKey = cache.lock.key(found.key);
    long deadline = System.nanoTime() + cache.config.lockWait.toNanos();
    long pause = FIRST_POLL_MILLIS;
    try {
      while (System.nanoTime() < deadline) {
        sleep(Math.min(pause, Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()))));
        pause = Math.min(pause * 2, MAX_POLL_MILLIS);
        Map<String, byte[]> got = cache.store.getMulti(List.of(found.key, lockKey));
        CachedPage page = cache.codec.decode(found.key, got.get(found.key));
        if (page != null && page.isVaryRecord()) {
          variantAfterWait(p);
          return;
        }
        if (page != null && !builtAfter(page, found.page)) {
          page = null; // still what the lookup found (a page that may not be served stale)
        }
        if (page != null && page.isUncacheableMarker()) {
          cache.waiting.arrived(found.key, page);
          afterRefusal(p, new Found(found.key, page, found.token, found.decision, found.tagVersions), true);
          return;
        }
        if (page != null && varyMatches(page, p.req)) {
          cache.waiting.arrived(found.key, page);
          serve(p, page, null, CacheStatus.collapsed(ttlLeft(page))); // counted as its miss
          return;
        }
        if (!got.containsKey(lockKey)) {
          // The builder gave up without storing: one waiter takes over, the others keep waiting.
          Lease lease = tryLock(p, found.key, null);
          if (lease != null) {
            buildUnderLock(p, found, null, lease);
            return;
          }
        }
      }
    } catch (StoreException e) {
      p.stats.record(Event.ERROR);
    }
    answer(p, build(p, found, null)); // waited lock.wait for nothing: never keep a reader waiting longer
  }

  /**
   * The builder found that the URL's responses vary and stored its own variant: this request's
   * variant is served if someone built it, else built by this request (under its own lock when free).
   */
  private void variantAfterWait(PageRequest p) throws IOException, ServletException {
    Found variant = lookup(p, false);
    if (variant.page != null && !variant.page.isUncacheableMarker() && variant.decision.state() == Freshness.State.FRESH) {
      serve(p, variant.page, null, CacheStatus.collapsed(ttlLeft(variant.page)));
      return;
    }
    Lease lease = tryLock(p, variant.key, null);
    if (lease != null) {
      buildUnderLock(p, variant, null, lease);
    } else {
      answer(p, build(p, variant, null));
    }
  }

  private static boolean builtAfter(CachedPage page, CachedPage before) {
    return before == null || page.builtAtMillis() > before.builtAtMillis();
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  // ---- building ----

  /**
   * What a build ends in, answered after the lock is given back: a page to serve (built, built by
   * another request meanwhile, or the stale copy), a response to replay to this client only, a
   * response that already went to the client as it was written, or a failure to rethrow.
   */
  private record Built(CachedPage page, Captured replay, CacheStatus status, Exception failure) {
    static Built serving(CachedPage page, CacheStatus status) {
      return new Built(page, null, status, null);
    }

    static Built replaying(Captured c, CacheStatus status) {
      return new Built(null, c, status, null);
    }

    static final Built SENT = new Built(null, null, null, null);
  }

  /**
   * With the lock won: looks once more (between this request's lookup and its lock, another request
   * may have built the page and released its lock; one round trip per rebuild, none per hit),
   * builds if nobody did, gives the lock back in the one place that does, whatever way the build
   * ended (even an Error), then answers.
   */
  private void buildUnderLock(PageRequest p, Found found, CachedPage stale, Lease lease) throws IOException, ServletException {
    Built built;
    try {
      Found again;
      try {
        again = lookup(p, false);
      } catch (StoreException e) {
        again = found;
      }
      if (again != found && again.key.equals(found.key) && builtSince(found.page, again)) {
        built = Built.serving(again.page, CacheStatus.collapsed(ttlLeft(again.page)));
      } else {
        // Build under the newest token seen, so a refresh between the two lookups is not built stale.
        Found target = again.key.equals(found.key) && again.token > found.token
            ? new Found(found.key, found.page, again.token, found.decision, found.tagVersions)
            : found;
        built = build(p, target, stale);
      }
    } finally {
      release(p, lease);
    }
    answer(p, built);
  }

  /**
   * True when the second lookup found a fresh page that someone else built after the first one
   * looked. Comparing build times rather than re-classifying matters for an early refresh: the
   * page it replaces is still fresh, and a second random draw would usually call off the rebuild.
   */
  private static boolean builtSince(CachedPage before, Found again) {
    return again.decision.state() == Freshness.State.FRESH && !again.page.isUncacheableMarker()
        && (before == null || again.page.builtAtMillis() > before.builtAtMillis());
  }

  private void answer(PageRequest p, Built b) throws IOException, ServletException {
    if (b.failure() instanceof IOException e) {
      throw e;
    } else if (b.failure() instanceof ServletException e) {
      throw e;
    } else if (b.failure() instanceof RuntimeException e) {
      throw e;
    } else if (b.failure() != null) {
      throw new ServletException(b.failure());
    } else if (b.page() != null) {
      serve(p, b.page(), null, b.status());
    } else if (b.replay() != null) {
      replay(p, b.replay(), b.status());
    } // else the response went to the client as it was written (Built.SENT)
  }

  /**
   * Runs the handler with its response captured, then does what {@link BuildDecision} says: store
   * the page, refuse it, or fall back to the stale copy. Writes to memcached; sends nothing.
   */
  private Built build(PageRequest p, Found found, CachedPage stale) {
    long start = cache.clock.millis();
    long startNanos = System.nanoTime(); // build time for metrics: a monotonic clock, not the TTL clock
    CapturingResponse capture = newCapture(p);
    capture.onPassThrough(label(CacheStatus.bypass("streamed"))::apply);
    markRecentInvalidation(p, found, start);
    // A stored page with the application's validators is asked for conditionally (RFC 9111 4.3.1).
    Map<String, String> conditions = Freshening.conditions(found.page);
    CaptureRequest shared = conditions.isEmpty() ? CaptureRequest.forSharing(p.req, capture)
        : CaptureRequest.forRevalidation(p.req, capture, conditions);
    // A handler that completes its response asynchronously is still captured: the build ends when it completes.
    shared.captureAsync(() -> {
      try {
        Captured async = capture.finish();
        p.stats.built(System.nanoTime() - startNanos);
        answer(p, decide(p, found, stale, async, shared, conditions, start));
      } catch (IOException | ServletException | RuntimeException e) {
        log.warn("pagecache: async build of a {} page failed to be answered ({})", p.handler, e.toString());
      }
    });
    // One that dispatches goes out uncached, and will next time too: nobody should wait on its lock.
    shared.onAsyncDispatch(() -> {
      rememberRefusal(p, found, "async", start);
      p.stats.bypass("async");
    });
    Captured c;
    try {
      p.chain.doFilter(shared, capture);
      if (shared.asyncCaptured()) {
        return Built.SENT; // answered when the handler completes its async context
      }
      c = capture.finish();
      p.stats.built(System.nanoTime() - startNanos);
    } catch (IOException | ServletException | RuntimeException e) {
      if (stale != null && !capture.isPassThrough() && !p.res.isCommitted()) {
        log.warn("pagecache: build of a {} page failed ({}); serving the stale copy", p.handler, e.toString());
        p.res.reset();
        return Built.serving(stale, CacheStatus.staleIfError(null));
      }
      return new Built(null, null, null, e);
    }
    return decide(p, found, stale, c, shared, conditions, start);
  }

  /** What a finished build ends in: a freshened page, a stored one, a refusal or the stale copy. */
  private Built decide(PageRequest p, Found found, CachedPage stale, Captured c, CaptureRequest shared,
      Map<String, String> conditions, long start) {
    if (!conditions.isEmpty() && c.status() == 304 && !c.passedThrough()) {
      return freshened(p, found, c, start);
    }
    BuildDecision d = BuildDecision.of(c, p.policy, start, stale != null, containerSetCookie(p),
        recordUnkeyedReads(p, c, shared.reads()));
    switch (d.kind()) {
      case PASSED_THROUGH -> {
        // Too large or async: it will be the same next time, so say so before anyone waits on the lock.
        if (d.rememberRefusal()) {
          rememberRefusal(p, found, d.reason(), start);
        }
        p.stats.bypass(d.reason());
        cache.live.count(LiveCounts.declared(p.req));
        return Built.SENT;
      }
      case STALE_IF_ERROR -> {
        return Built.serving(stale, CacheStatus.staleIfError(c.status()));
      }
      case REFUSE -> {
        if (d.rememberRefusal()) {
          rememberRefusal(p, found, d.reason(), start);
        }
        p.stats.bypass(d.reason());
        return Built.replaying(c, CacheStatus.refused(d.reason()));
      }
      default -> {
        return store(p, found, d, stale, start);
      }
    }
  }

  /**
   * Records the request headers the handler read that are not part of the page's key, logging each
   * once per handler: the evidence for {@code vary=} or {@code harmless=}. True when there were any.
   */
  private boolean recordUnkeyedReads(PageRequest p, Captured c, HeaderReads reads) {
    boolean any = false;
    List<String> responseVary = VaryRecord.names(c.headerValues("Vary"), List.of());
    for (String name : reads.names()) {
      if (keyed(p, responseVary, name)) {
        continue;
      }
      any = true;
      if (p.stats.unkeyedHeaderRead(name)) {
        log.warn("pagecache: handler '{}' read the request header '{}', which is not part of its key: add vary={}"
            + " to its policy if its pages depend on it, or harmless={} if they do not", p.handler, name, name, name);
      }
    }
    return any;
  }

  /** Headers a page's key covers, that decide a bypass, or that never change a page. */
  private boolean keyed(PageRequest p, List<String> responseVaryNames, String name) {
    return RequestParts.keyedHeader(name) || NEVER_CHANGE_A_PAGE.contains(name) || p.policy.harmless().contains(name)
        || p.policy.vary().contains(name) || responseVaryNames.contains(name)
        || (name.equals("authorization") && !p.policy.allowAuthorized());
  }

  /** Request headers about the message or connection, not about which page to send. */
  private static final Set<String> NEVER_CHANGE_A_PAGE = Set.of("content-length", "content-type", "connection",
      "keep-alive", "te", "trailer", "transfer-encoding", "upgrade", "expect");

  private Built store(PageRequest p, Found found, BuildDecision d, CachedPage stale, long start) {
    Captured c = d.response();
    Duration fresh = d.fresh();
    long now = cache.clock.millis();
    List<Header> vary = responseVary(p, c);
    // A page that varies is stored under its variant key, and its URL's key gets the record naming the headers.
    CachedPage record = vary.isEmpty() ? null : varyRecord(p, vary.stream().map(Header::name).toList(), now);
    String key = record == null ? pageKey(p) : variantKey(p, record);
    List<TagVersion> tags;
    try {
      tags = tagVersions(p, c, start);
    } catch (StoreException e) {
      tags = null;
    }
    boolean mustRevalidate = d.forbidsStale();
    CachedPage page = PageBuilder.build(c, new PageBuilder.Context(now, fresh.toMillis(), now - start,
        found.token, tags == null ? List.of() : tags, LiveCounts.declared(p.req), Placeholders.contains(c.body()),
        vary, cacheHeader, mustRevalidate, d.ageSeconds()));
    byte[] bytes = cache.codec.encode(page);
    if (tags == null) {
      p.stats.record(Event.ERROR);
      return Built.serving(page, CacheStatus.miss(stale != null, false));
    }
    if (bytes.length > cache.config.maxEntrySize) {
      rememberRefusal(p, found, "too-large", start);
      p.stats.bypass("too-large");
      return Built.replaying(c, CacheStatus.refused("too-large"));
    }
    int ttl = storeTtlSeconds(keptFor(page, fresh, p.policy));
    boolean stored = record == null || storeQuietly(p, pageKey(p), cache.codec.encode(record), ttl);
    stored = stored && storeQuietly(p, key, bytes, ttl);
    if (stored) {
      p.stats.record(Event.WRITE);
      cache.near.remember(key, p.handler, page, now);
    }
    cache.waiting.arrived(found.key, page);
    return Built.serving(page, CacheStatus.miss(stale != null, stored));
  }

  /**
   * The handler answered the revalidation with 304: the stored page, its headers updated with the
   * 304's and its freshness judged anew from them, is stored again and served (RFC 9111 4.3.4);
   * the body is not built again. If the updated headers now forbid storing, it is served this once.
   */
  private Built freshened(PageRequest p, Found found, Captured notModified, long start) {
    CachedPage old = found.page;
    long now = cache.clock.millis();
    List<Header> merged = Freshening.merged(old.headers(), notModified.headers());
    Captured asStored = new Captured(old.status(), merged, List.of(), new byte[0], null, false, false, false);
    BuildDecision d = BuildDecision.of(asStored, p.policy, start, false, containerSetCookie(p), false);
    if (d.kind() != BuildDecision.Kind.STORE) {
      p.stats.bypass(d.reason());
      return Built.serving(old, CacheStatus.refused(d.reason()));
    }
    List<TagVersion> tags = old.tags();
    if (!tags.isEmpty()) {
      try {
        Map<String, Long> recorded = cache.tags.forBuild(tags.stream().map(TagVersion::tag).toList(), start);
        tags = tags.stream().map(t -> new TagVersion(t.tag(), recorded.getOrDefault(t.tag(), 0L))).toList();
      } catch (StoreException e) {
        p.stats.record(Event.ERROR);
        return Built.serving(old, CacheStatus.miss(true, false));
      }
    }
    List<Header> headers = new ArrayList<>(merged);
    headers.removeIf(h -> h.name().equalsIgnoreCase("Age"));
    if (d.ageSeconds() > 0) {
      headers.add(new Header("Age", Long.toString(d.ageSeconds())));
    }
    CachedPage page = new CachedPage(old.status(), headers, old.body(), old.gzipped(), old.etag(), now,
        now + d.fresh().toMillis(), now - start, found.token, tags, old.viewKeys(), old.placeholders(), old.vary(),
        null, d.forbidsStale(), 0);
    int ttl = storeTtlSeconds(keptFor(page, d.fresh(), p.policy));
    boolean stored = storeQuietly(p, found.key, cache.codec.encode(page), ttl);
    if (stored) {
      p.stats.record(Event.WRITE);
      cache.near.remember(found.key, p.handler, page, now);
    }
    cache.waiting.arrived(found.key, page);
    return Built.serving(page, CacheStatus.miss(true, stored));
  }

  /**
   * True when the container, not the handler, gave this response a cookie: a session created (or
   * its id changed) during the build has its cookie written straight to the real response, past
   * the capture, and the page may hold that session's data (a CSRF token, a user's name).
   */
  private static boolean containerSetCookie(PageRequest p) {
    HttpSession session = p.req.getSession(false);
    if (session != null && (session.isNew() || !session.getId().equals(p.req.getRequestedSessionId()))) {
      return true;
    }
    return p.res.containsHeader("Set-Cookie");
  }

  /**
   * A small marker entry: the last build of this page was refused, so nobody waits on its lock;
   * it counts the refusals in a row, which decides between miss and pass (see {@link HitForMiss}).
   */
  private void rememberRefusal(PageRequest p, Found found, String reason, long now) {
    CachedPage marker = CachedPage.uncacheable(reason, HitForMiss.refusalsAfter(found.page, now), now,
        now + cache.config.uncacheableTtl.toMillis());
    storeQuietly(p, found.key, cache.codec.encode(marker), (int) Math.max(1, cache.config.uncacheableTtl.toSeconds()));
    cache.waiting.arrived(found.key, marker);
  }

  private boolean storeQuietly(PageRequest p, String key, byte[] bytes, int ttlSeconds) {
    try {
      cache.store.set(key, bytes, ttlSeconds);
      return true;
    } catch (StoreException e) {
      p.stats.record(Event.ERROR);
      return false;
    }
  }

  /**
   * How long memcached keeps a page: its fresh time and the grace. A page that may not be served
   * stale is of no use past its fresh time, unless it has the application's validators: then it is
   * kept to be revalidated (never served stale: {@code Freshness} calls it ABSENT).
   */
  private static Duration keptFor(CachedPage page, Duration fresh, CachePolicy policy) {
    return page.mustRevalidate() && Freshening.conditions(page).isEmpty() ? fresh : fresh.plus(policy.grace());
  }

  private static int storeTtlSeconds(Duration d) {
    long s = Math.max(1, (d.toMillis() + 999) / 1000);
    return (int) Math.min(s, THIRTY_DAYS_SECONDS); // above 30 days memcached reads an absolute time
  }

  /** Headers the response says it varies on, beyond the policy's and Accept-Encoding, with this request's values. */
  private List<Header> responseVary(PageRequest p, Captured c) {
    List<Header> vary = new ArrayList<>();
    for (String name : VaryRecord.names(c.headerValues("Vary"), p.policy.vary())) {
      vary.add(new Header(name, PageKeys.headerValue(p.req, name)));
    }
    return vary;
  }

  /** The page's tags (declared and from X-Cache-Tags) with the versions to record (see TagVersions.forBuild). */
  private List<TagVersion> tagVersions(PageRequest p, Captured c, long start) {
    LinkedHashSet<String> names = new LinkedHashSet<>();
    Object declared = p.req.getAttribute(PageCache.TAGS_ATTRIBUTE);
    if (declared instanceof List<?> list) {
      synchronized (list) {
        list.forEach(t -> names.add(String.valueOf(t)));
      }
    }
    names.addAll(PageBuilder.headerTags(c));
    names.removeIf(t -> !PageCache.validTag(t));
    if (names.isEmpty()) {
      return List.of();
    }
    List<String> bounded = new ArrayList<>(names).subList(0, Math.min(names.size(), PageCache.MAX_TAGS));
    Map<String, Long> recorded = cache.tags.forBuild(bounded, start);
    List<TagVersion> tags = new ArrayList<>();
    for (String tag : bounded) {
      tags.add(new TagVersion(tag, recorded.getOrDefault(tag, 0L)));
    }
    return tags;
  }

  /** Tells the application that this rebuild follows a fresh invalidation (read from the primary). */
  private void markRecentInvalidation(PageRequest p, Found found, long now) {
    long lag = cache.config.replicaLag.toMillis();
    long newest = found.token;
    for (long v : found.tagVersions.values()) {
      newest = Math.max(newest, v);
    }
    if (newest > 0 && now - newest < lag) {
      p.req.setAttribute(PageCache.INVALIDATED_AGO_ATTRIBUTE, Math.max(0, now - newest));
    }
  }

  // ---- the near cache and the in-JVM waiting list (issue 14) ----

  /**
   * A FRESH page this JVM holds (trusted for near.trust since memcached last confirmed it, and
   * judged against the token and tag versions this JVM knows), or the page another request of this
   * JVM was building while this one waited for it; null to ask memcached.
   */
  private Found nearOrWaited(PageRequest p, String key, boolean mayWait) {
    NearCache.Entry entry = cache.near.trusted(key);
    if (entry != null) {
      Found f = judged(p, key, entry.page());
      if (f != null && f.decision.state() == Freshness.State.FRESH) {
        cache.near.counted(true);
        p.req.setAttribute(NEAR_ENTRY, entry);
        return f;
      }
      cache.near.drop(key); // refreshed, invalidated or expired: memcached decides, and is remembered again
    }
    cache.near.counted(false);
    if (!mayWait) {
      return null;
    }
    WaitingList.Wait w = cache.waiting.awaitOthers(key, cache.config.lockWait, p.stats::lockWaited);
    if (w.timedOut()) {
      p.req.setAttribute(WAITED_IN_JVM, Boolean.TRUE);
      return null;
    }
    if (w.page() == null) {
      return null;
    }
    if (w.page().isUncacheableMarker()) {
      // the token this JVM knows: a hit-for-miss build of it must not be stale at once
      return new Found(key, w.page(), cache.tokens.remembered(p.handler), Freshness.classify(null, 0, 0, Map.of(), 0, 1),
          Map.of());
    }
    Found f = judged(p, key, w.page());
    return f != null && f.decision.state() == Freshness.State.FRESH ? f : null;
  }

  /** A page held in this JVM, classified with this JVM's knowledge; null when it is not this request's variant. */
  private Found judged(PageRequest p, String key, CachedPage page) {
    if (!varyMatches(page, p.req)) {
      return null;
    }
    long token = cache.tokens.remembered(p.handler);
    Map<String, Long> versions = page.tags().isEmpty() ? Map.of()
        : cache.tags.current(page.tags().stream().map(TagVersion::tag).toList());
    Decision decision = Freshness.classify(page, cache.clock.millis(), token, versions,
        p.policy.earlyRefresh(), 1.0 - ThreadLocalRandom.current().nextDouble());
    return new Found(key, page, token, decision, versions);
  }

  /**
   * ABSENT: the first request of this JVM takes the lock and builds, or watches memcached while
   * another JVM builds; the other requests of this JVM wait for it in the JVM (bounded by
   * lock.wait), not each on memcached.
   */
  private void absent(PageRequest p, Found found) throws IOException, ServletException {
    p.stats.record(Event.MISS); // the builder and those who wait for it alike
    if (p.req.getAttribute(WAITED_IN_JVM) != null) {
      answer(p, build(p, found, null)); // waited lock.wait already: never keep a reader waiting longer
      return;
    }
    try (WaitingList.Ticket ticket = cache.waiting.join(found.key)) {
      if (!ticket.leads()) {
        p.stats.lockWaited();
        WaitingList.Wait w = ticket.await(cache.config.lockWait);
        if (w.timedOut()) {
          answer(p, build(p, found, null));
          return;
        }
        if (w.page() != null && serveArrived(p, found, w.page())) {
          return;
        }
        // The leader ended without a page for this request (a failed build, memcached trouble):
        // find the way as every request did before the waiting list.
      }
      Lease lease = tryLock(p, found.key, null);
      if (lease != null) {
        buildUnderLock(p, found, null, lease);
      } else {
        waitForBuilder(p, found);
      }
    }
  }

  /** Serves a page another request of this JVM built or found; false when it is not this request's variant. */
  private boolean serveArrived(PageRequest p, Found found, CachedPage page) throws IOException, ServletException {
    if (page.isUncacheableMarker()) {
      afterRefusal(p, new Found(found.key, page, found.token, found.decision, found.tagVersions), true);
      return true;
    }
    if (!varyMatches(page, p.req)) {
      return false;
    }
    serve(p, page, null, CacheStatus.collapsed(ttlLeft(page))); // counted as its miss
    return true;
  }
}
