package org.pagecache.admin;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * This JVM's counters for one handler since start, and the trace of its last events. Recording is
 * a LongAdder increment, an atomic increment of the trace position and one racy byte store (a
 * reader may see a letter being overwritten): no lock, no allocation on the hit path.
 */
public final class HandlerStats {
  private static final int TRACE_SIZE = 128;

  public final LongAdder hits = new LongAdder();
  public final LongAdder stale = new LongAdder();
  public final LongAdder misses = new LongAdder();
  public final LongAdder rebuilds = new LongAdder();
  public final LongAdder lockWaits = new LongAdder();
  public final LongAdder bypasses = new LongAdder();
  public final LongAdder storeErrors = new LongAdder();
  /** Pages of this handler rebuilt since its last refresh from this JVM. */
  public final LongAdder rebuiltSinceRefresh = new LongAdder();

  /** Evidence is kept for this many names per handler; more are counted under {@link #OTHER}. */
  static final int MAX_NAMES = 64;
  /** Where names past {@link #MAX_NAMES} are counted (request data must not grow the JVM's memory). */
  public static final String OTHER = "(other)";

  private final Map<String, LongAdder> bypassReasons = new ConcurrentHashMap<>();
  private final Map<String, LongAdder[]> cookieBypasses = new ConcurrentHashMap<>();
  private final Map<String, LongAdder> unkeyedHeaders = new ConcurrentHashMap<>();

  private final String handler;
  private final byte[] trace = new byte[TRACE_SIZE];
  private final AtomicLong traceCount = new AtomicLong();
  private volatile long lastRefreshMillis;
  private volatile String lastRefreshBy = "";
  private volatile long lastToken;

  public HandlerStats(String handler) {
    this.handler = handler;
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

  /** Counts a bypass by its reason (the {@code detail} of its Cache-Status). */
  public void bypassed(String reason) {
    counter(bypassReasons, reason).increment();
  }

  /**
   * Counts a request that bypassed because of these cookies (names only, never values), and
   * whether the handler read any cookie while serving it.
   */
  public void cookieBypass(List<String> names, boolean handlerReadCookies) {
    for (String name : names) {
      LongAdder[] counts = bounded(cookieBypasses, name, () -> new LongAdder[] {new LongAdder(), new LongAdder()});
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
    boolean first = !unkeyedHeaders.containsKey(name) && unkeyedHeaders.size() < MAX_NAMES
        && unkeyedHeaders.putIfAbsent(name, new LongAdder()) == null;
    counter(unkeyedHeaders, name).increment();
    return first;
  }

  /** Bypasses by reason since start. */
  public Map<String, Long> bypassReasons() {
    return sums(bypassReasons);
  }

  /** Per cookie name: requests it made bypass, and how many of them the handler read a cookie in. */
  public Map<String, long[]> cookieBypasses() {
    Map<String, long[]> out = new TreeMap<>();
    cookieBypasses.forEach((name, c) -> out.put(name, new long[] {c[0].sum(), c[1].sum()}));
    return out;
  }

  /** Per header name: builds in which the handler read it though it is not part of the key. */
  public Map<String, Long> unkeyedHeaders() {
    return sums(unkeyedHeaders);
  }

  private static LongAdder counter(Map<String, LongAdder> map, String name) {
    return bounded(map, name, LongAdder::new);
  }

  private static <T> T bounded(Map<String, T> map, String name, Supplier<T> create) {
    T existing = map.get(name);
    if (existing != null) {
      return existing;
    }
    return map.computeIfAbsent(map.size() < MAX_NAMES ? name : OTHER, n -> create.get());
  }

  private static Map<String, Long> sums(Map<String, LongAdder> map) {
    Map<String, Long> out = new TreeMap<>();
    map.forEach((name, c) -> out.put(name, c.sum()));
    return out;
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

  /** Hits (fresh and stale) over all cache-decided requests, 0 when none. */
  public double hitRatio() {
    long served = hits.sum() + stale.sum();
    long all = served + misses.sum();
    return all == 0 ? 0 : (double) served / all;
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
}
