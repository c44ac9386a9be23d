package org.pagecache.internal.stats;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * This JVM's counters for one handler since start, and the trace of its last events. Recording is
 * a LongAdder increment, an atomic increment of the trace position and one racy byte store (a
 * reader may see a letter being overwritten): no lock, no allocation on the hit path.
 */
public final class HandlerRecorder {
  private static final int TRACE_SIZE = 128;

  private final LongAdder hits = new LongAdder();
  private final LongAdder stale = new LongAdder();
  private final LongAdder misses = new LongAdder();
  private final LongAdder rebuilds = new LongAdder();
  private final LongAdder lockWaits = new LongAdder();
  private final LongAdder bypasses = new LongAdder();
  private final LongAdder storeErrors = new LongAdder();
  /** Pages of this handler rebuilt since its last refresh from this JVM. */
  private final LongAdder rebuiltSinceRefresh = new LongAdder();

  private final String handler;
  private final byte[] trace = new byte[TRACE_SIZE];
  private final AtomicLong traceCount = new AtomicLong();
  private volatile long lastRefreshMillis;
  private volatile String lastRefreshBy = "";
  private volatile long lastToken;

  public HandlerRecorder(String handler) {
    this(handler, (s, reason) -> { });
  }

  HandlerRecorder(String handler, BiConsumer<HandlerRecorder, String> onNewBypassReason) {
    this.handler = handler;
    this.onNewBypassReason = onNewBypassReason;
  }

  public String handler() {
    return handler;
  }

  /** Records an event in the trace (and, for the counted ones, the counter). */
  public void record(Event event) {
    switch (event) {
      case HIT -> hits.increment();
      case STALE -> stale.increment();
      case MISS -> misses.increment();
      case WRITE -> rebuilds.increment();
      case BYPASS -> bypasses.increment();
      case ERROR -> storeErrors.increment();
      default -> { }
    }
    if (event == Event.WRITE && lastRefreshMillis > 0) {
      rebuiltSinceRefresh.increment();
    }
    long n = traceCount.getAndIncrement();
    trace[(int) (n % TRACE_SIZE)] = (byte) event.letter;
  }

  public void lockWaited() {
    lockWaits.increment();
    long n = traceCount.getAndIncrement();
    trace[(int) (n % TRACE_SIZE)] = (byte) 'L';
  }

  public void refreshed(long nowMillis, String by, long token) {
    lastRefreshMillis = nowMillis;
    lastRefreshBy = by == null ? "" : by;
    lastToken = token;
    rebuiltSinceRefresh.reset();
  }

  /** The last events, oldest first, e.g. {@code MLWUHHHHSLWUHHH}. */
  public String trace() {
    long n = traceCount.get();
    int len = (int) Math.min(n, TRACE_SIZE);
    StringBuilder sb = new StringBuilder(len);
    for (long i = n - len; i < n; i++) {
      byte b = trace[(int) (i % TRACE_SIZE)];
      if (b != 0) {
        sb.append((char) b);
      }
    }
    return sb.toString();
  }

  /** Fresh pages served from the cache. */
  public long hits() {
    return hits.sum();
  }

  /** Stale pages served while another request rebuilt them. */
  public long stale() {
    return stale.sum();
  }

  /** Requests the cache had no servable page for. */
  public long misses() {
    return misses.sum();
  }

  /** Pages written to memcached. */
  public long rebuilds() {
    return rebuilds.sum();
  }

  /** Requests that waited for another request's build. */
  public long lockWaits() {
    return lockWaits.sum();
  }

  /** GET/HEAD requests that bypassed the cache. */
  public long bypasses() {
    return bypasses.sum();
  }

  /** memcached calls that failed. */
  public long storeErrors() {
    return storeErrors.sum();
  }

  /** Pages of this handler rebuilt since its last refresh from this JVM. */
  public long rebuiltSinceRefresh() {
    return rebuiltSinceRefresh.sum();
  }

  public long lastRefreshMillis() {
    return lastRefreshMillis;
  }

  public String lastRefreshBy() {
    return lastRefreshBy;
  }

  public long lastToken() {
    return lastToken;
  }

  // ---- stale pages rebuilt off the visitors' requests (docs/freshness.md, rebuild.background) ----

  private final LongAdder backgroundRebuilds = new LongAdder();
  private final LongAdder backgroundSkipped = new LongAdder();
  private final LongAdder backgroundFailures = new LongAdder();
  private final LongAdder backgroundNotStored = new LongAdder();

  /** A stale page's rebuild handed to the background: its visitor got the stale copy at once. */
  public void rebuiltInBackground() {
    backgroundRebuilds.increment();
  }

  /** A stale page served without a rebuild: rebuild.background builds were all under way; a later request tries. */
  public void skippedBackgroundRebuild() {
    backgroundSkipped.increment();
  }

  /** A background rebuild that did not store a new page (the handler failed, or its request did not get through). */
  public void backgroundRebuildFailed() {
    backgroundFailures.increment();
  }

  public long backgroundRebuilds() {
    return backgroundRebuilds.sum();
  }

  public long backgroundSkipped() {
    return backgroundSkipped.sum();
  }

  public long backgroundFailures() {
    return backgroundFailures.sum();
  }

  /** A background rebuild that built the page but memcached did not take it (a node failing). */
  public void backgroundRebuildNotStored() {
    backgroundNotStored.increment();
  }

  public long backgroundNotStored() {
    return backgroundNotStored.sum();
  }

  // ---- signed-in visitors and fragments (docs/fragments.md) ----

  private final LongAdder signedInRequests = new LongAdder();
  private final LongAdder signedInHits = new LongAdder();
  private final LongAdder fragments = new LongAdder();
  private final LongAdder fragmentNanos = new LongAdder();
  private final LongAdder fragmentFailures = new LongAdder();
  /** Per group (a digest, never a name): why a build of that group was not shared. Bounded. */
  private final Map<String, String> signedInNotShared = new ConcurrentHashMap<>();

  /** A GET or HEAD of a signed-in visitor under a policy that serves them from the cache. */
  public void signedInRequest() {
    signedInRequests.increment();
  }

  /** A signed-in visitor's request answered with a fresh page from the cache. */
  public void signedInHit() {
    signedInHits.increment();
  }

  public long signedInRequests() {
    return signedInRequests.sum();
  }

  public long signedInHits() {
    return signedInHits.sum();
  }

  /** One fragment filled in for a visitor; {@code failed} when it gave its fallback (threw, too slow, unknown). */
  public void fragmentRendered(long nanos, boolean failed) {
    fragments.increment();
    fragmentNanos.add(nanos);
    if (failed) {
      fragmentFailures.increment();
    }
  }

  public long fragments() {
    return fragments.sum();
  }

  public long fragmentNanos() {
    return fragmentNanos.sum();
  }

  public long fragmentFailures() {
    return fragmentFailures.sum();
  }

  /**
   * Why a build of this handler for a signed-in visitor of {@code group} was not shared (a name such as
   * {@code principal}); from then on this JVM sends that group's visitors of the handler past the
   * cache. Null while none was.
   */
  public String signedInNotShared(String group) {
    return signedInNotShared.isEmpty() ? null : signedInNotShared.get(group);
  }

  /** Remembers a group's build not shared (at most {@link #MAX_NAMES} groups; the others keep trying). */
  public void signedInNotShared(String group, String cause) {
    if (signedInNotShared.size() < MAX_NAMES) {
      signedInNotShared.put(group, cause);
    }
  }

  // ---- evidence: what pages depend on (safe by default, docs/safety.md) ----

  /**
   * Evidence is kept for this many names per handler. Names come from requests, so the maps are
   * bounded by Caffeine, which keeps the most frequent: junk names an attacker sends once cannot
   * push out the cookie that bypasses thousands of requests.
   */
  static final int MAX_NAMES = 64;

  private final Cache<String, LongAdder[]> cookieBypasses = evidence();
  private final Cache<String, LongAdder> unkeyedHeaders = evidence();
  private final Cache<String, LongAdder> sessionBypasses = evidence();
  private final Cache<String, LongAdder> keyedParameters = evidence();
  /** Names the handler's code chose (not the request), so a bounded set is enough. */
  private final Set<String> sessionAttributesRead = ConcurrentHashMap.newKeySet();

  private static <V> Cache<String, V> evidence() {
    return Caffeine.newBuilder().maximumSize(MAX_NAMES).executor(Runnable::run).build();
  }

  /**
   * Counts a request that bypassed because of these cookies (names only, never values), and
   * whether the handler read any cookie while serving it.
   */
  public void cookieBypass(List<String> names, boolean handlerReadCookies) {
    for (String name : names) {
      LongAdder[] counts = cookieBypasses.get(name, n -> new LongAdder[] {new LongAdder(), new LongAdder()});
      counts[0].increment();
      if (handlerReadCookies) {
        counts[1].increment();
      }
    }
  }

  /**
   * Counts a build in which the handler read a request header that is not part of the page's key.
   *
   * @return true the first time this handler is seen reading it (log it once)
   */
  public boolean unkeyedHeaderRead(String name) {
    boolean first = unkeyedHeaders.asMap().putIfAbsent(name, new LongAdder()) == null;
    unkeyedHeaders.get(name, n -> new LongAdder()).increment();
    return first;
  }

  /**
   * Remembers the session attributes a build asked for (names only): a later request whose session
   * holds one of them bypasses, as its page would not be the shared one (docs/safety.md, "Sessions").
   */
  public void sessionAttributesRead(List<String> names) {
    for (String name : names) {
      if (sessionAttributesRead.size() >= MAX_NAMES) {
        return;
      }
      sessionAttributesRead.add(name);
    }
  }

  /** The session attributes this handler's builds asked for, found or not. */
  public Set<String> sessionAttributesRead() {
    return sessionAttributesRead;
  }

  /**
   * Counts a request with a session that went past the cache, or a build not shared, and why:
   * {@code user}, {@code sessions=off}, {@code attribute:cart}, {@code csrf-token},
   * {@code value-of:NAME}... (names only, never values).
   */
  public void sessionBypass(String cause) {
    sessionBypasses.get(cause, n -> new LongAdder()).increment();
  }

  /** Per cause: session requests that bypassed and builds that were not shared because of it. */
  public Map<String, Long> sessionBypasses() {
    sessionBypasses.cleanUp();
    return sums(sessionBypasses.asMap());
  }

  /** Per cookie name: requests it made bypass, and how many of them the handler read a cookie in. */
  public Map<String, long[]> cookieBypasses() {
    cookieBypasses.cleanUp();
    Map<String, long[]> out = new TreeMap<>();
    cookieBypasses.asMap().forEach((name, c) -> out.put(name, new long[] {c[0].sum(), c[1].sum()}));
    return out;
  }

  /** Bypasses by reason since start, as a sorted snapshot (for the admin page and api/stats). */
  public Map<String, Long> bypassesByReason() {
    return sums(bypassReasons);
  }

  /**
   * Counts a build in which the handler read an ignored query parameter (a tracking parameter)
   * that its key left out: the parameter is part of the handler's keys from then on.
   */
  public void parameterKeyed(String name) {
    keyedParameters.get(name, n -> new LongAdder()).increment();
  }

  private final LongAdder parametersLeftOut = new LongAdder();
  private volatile String keyedOn = "";

  /** Counts a request that carried a query parameter its page's key left out (a cache buster, a tracking parameter). */
  public void parameterLeftOut() {
    parametersLeftOut.increment();
  }

  public long parametersLeftOut() {
    return parametersLeftOut.sum();
  }

  /** What of the query the handler's keys hold, as of its last build in this JVM ({@code ParameterRecord#describe}). */
  public void keyedOn(String description) {
    keyedOn = description;
  }

  /** Empty until a {@code params=read} build of the handler ended in this JVM. */
  public String keyedOn() {
    return keyedOn;
  }

  /** Per ignored query parameter the handler's builds read (now part of its keys): the builds that read it unkeyed. */
  public Map<String, Long> keyedParameters() {
    keyedParameters.cleanUp();
    return sums(keyedParameters.asMap());
  }

  /** Per header name: builds in which the handler read it though it is not part of the key. */
  public Map<String, Long> unkeyedHeaders() {
    unkeyedHeaders.cleanUp();
    return sums(unkeyedHeaders.asMap());
  }

  private static Map<String, Long> sums(Map<String, LongAdder> map) {
    Map<String, Long> out = new TreeMap<>();
    map.forEach((name, c) -> out.put(name, c.sum()));
    return out;
  }

  // ---- for metrics (read by org.pagecache.metrics, never by the request path) ----

  /** Distinct bypass reasons kept per handler; more are counted as "other" (reasons come from stored markers too). */
  static final int MAX_BYPASS_REASONS = 32;
  private final Map<String, LongAdder> bypassReasons = new ConcurrentHashMap<>();
  private final LongAdder builds = new LongAdder();
  private final LongAdder buildNanos = new LongAdder();
  private final BiConsumer<HandlerRecorder, String> onNewBypassReason;

  /** A bypass, with its reason as Cache-Status shows it ({@code session}, {@code set-cookie}, {@code too-large}...). */
  public void bypass(String reason) {
    record(Event.BYPASS);
    LongAdder n = bypassReasons.get(reason);
    if (n == null) {
      String name = bypassReasons.size() < MAX_BYPASS_REASONS ? reason : "other";
      LongAdder created = new LongAdder();
      n = bypassReasons.putIfAbsent(name, created);
      if (n == null) {
        n = created;
        onNewBypassReason.accept(this, name);
      }
    }
    n.increment();
  }

  /** Bypasses by reason since start (a live view: new reasons appear as they happen). */
  public Map<String, LongAdder> bypassReasons() {
    return Collections.unmodifiableMap(bypassReasons);
  }

  /** One run of the handler to build a page (stored or not), and how long it took. */
  public void built(long nanos) {
    builds.increment();
    buildNanos.add(nanos);
  }

  /** Handler runs that built a page, stored or not. */
  public long builds() {
    return builds.sum();
  }

  /** Total time of those runs, in nanoseconds. */
  public long buildNanos() {
    return buildNanos.sum();
  }
}
