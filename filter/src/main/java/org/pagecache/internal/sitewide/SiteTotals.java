package org.pagecache.internal.sitewide;

import org.pagecache.stats.SiteStats;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.pagecache.internal.freshness.UpdateTokens;
import org.pagecache.internal.stats.StatsRecorder;
import org.pagecache.internal.stats.HandlerRecorder;
import org.pagecache.store.Namespace;
import org.pagecache.store.Store;
import org.pagecache.store.StoreException;

/**
 * The admin page's cluster view: every frontend adds its handler figures to shared memcached
 * counters, so an editor sees the same whole-site figures whichever server answers.
 *
 * <p>Nothing is added to the request path: every {@link #INTERVAL} a background thread reads this
 * JVM's running totals ({@link HandlerRecorder}), and sends what grew since the last send as one
 * {@code incr} per handler and figure into that minute's key (aggregated locally, as view counts
 * are). Reading sums the last {@link #WINDOW_MINUTES} minutes in one multi-get. Rebuilds also go to
 * a key named after the handler's current refresh token, so "pages rebuilt since the last refresh"
 * is the cluster's, and starts at 0 with every refresh, on every frontend. A send that fails is
 * retried with the next one; one that timed out after memcached applied it is counted twice (these
 * are figures for people, not for billing).
 */
public final class SiteTotals implements AutoCloseable {
  public static final long INTERVAL_SECONDS = SiteStats.INTERVAL_SECONDS;
  public static final Duration INTERVAL = Duration.ofSeconds(INTERVAL_SECONDS);
  public static final int WINDOW_MINUTES = SiteStats.WINDOW_MINUTES;
  /** A minute's keys outlive the window they are read in; memcached then drops them. */
  private static final int MINUTE_TTL_SECONDS = (WINDOW_MINUTES + 5) * 60;
  private static final int SINCE_REFRESH_TTL_SECONDS = 7 * 24 * 3600;

  private final Store store;
  private final Namespace namespace;
  private final StatsRecorder stats;
  private final UpdateTokens tokens;
  private final Clock clock;
  /** Per handler, each figure's total already sent (by {@link Figure#ordinal()}). */
  private final Map<String, long[]> sent = new ConcurrentHashMap<>();
  private final ScheduledExecutorService schedule;
  private volatile Cached cached;

  private record Cached(long atMillis, Map<String, Long> tokens, Map<String, SiteStats> figures) {}

  public SiteTotals(Store store, Namespace namespace, StatsRecorder stats, UpdateTokens tokens, Clock clock) {
    this.store = store;
    this.namespace = namespace;
    this.stats = stats;
    this.tokens = tokens;
    this.clock = clock;
    this.schedule = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "pagecache-cluster-stats");
      t.setDaemon(true);
      return t;
    });
    long millis = INTERVAL.toMillis();
    schedule.scheduleWithFixedDelay(this::sendQuietly, millis, millis, TimeUnit.MILLISECONDS);
  }

  /**
   * Sends what every handler's figures grew by since the last send; true when all of it went.
   * (The schedule calls it; tests and {@link #close()} too.)
   */
  public synchronized boolean sendNow() {
    long minute = clock.millis() / 60_000;
    for (HandlerRecorder h : stats.all()) {
      long[] done = sent.computeIfAbsent(h.handler(), k -> new long[Figure.values().length]);
      for (Figure f : Figure.values()) {
        long grew = f.total(h) - done[f.ordinal()];
        if (grew <= 0) {
          continue;
        }
        try {
          store.incr(namespace.clusterMinute(h.handler(), f.key, minute), grew, grew, MINUTE_TTL_SECONDS);
          long token = tokens.remembered(h.handler());
          if (f == Figure.REBUILDS && token > 0) {
            store.incr(namespace.clusterRebuiltSince(h.handler(), token), grew, grew, SINCE_REFRESH_TTL_SECONDS);
          }
        } catch (StoreException e) {
          return false; // kept: the next send carries it (the guarded store logs the outage)
        }
        done[f.ordinal()] += grew;
        cached = null; // what this server reads next includes what it has just sent
      }
    }
    return true;
  }

  private void sendQuietly() {
    try {
      sendNow();
    } catch (RuntimeException e) {
      // a scheduled task that throws is never run again; the next interval retries
    }
  }

  /**
   * The cluster's figures of these handlers, reading their refresh tokens from memcached first
   * (for callers that have not read them, such as the Actuator endpoint).
   *
   * @throws StoreException when memcached cannot be read
   */
  public Map<String, SiteStats> read(Collection<String> handlers) {
    return read(handlers, UpdateTokens.stored(store, namespace, handlers));
  }

  /**
   * The cluster's figures of these handlers, given the refresh token in memcached of each (0 or
   * absent: never refreshed): one multi-get, reused for {@link #INTERVAL} while the handlers and
   * tokens are the same, as the admin page's script asks every two seconds.
   *
   * @throws StoreException when memcached cannot be read
   */
  public Map<String, SiteStats> read(Collection<String> handlers, Map<String, Long> refreshTokens) {
    long now = clock.millis();
    Cached c = cached;
    if (c != null && now - c.atMillis() < INTERVAL.toMillis() && c.tokens().equals(refreshTokens)
        && c.figures().keySet().containsAll(handlers)) {
      Map<String, SiteStats> subset = new LinkedHashMap<>();
      handlers.forEach(h -> subset.put(h, c.figures().get(h)));
      return subset;
    }
    Map<String, SiteStats> figures = readNow(handlers, refreshTokens, now / 60_000);
    cached = new Cached(now, Map.copyOf(refreshTokens), Map.copyOf(figures));
    return figures;
  }

  private Map<String, SiteStats> readNow(Collection<String> handlers, Map<String, Long> refreshTokens, long minute) {
    List<String> keys = new ArrayList<>();
    for (String h : handlers) {
      for (Figure f : Figure.values()) {
        for (long m = minute - WINDOW_MINUTES + 1; m <= minute; m++) {
          keys.add(namespace.clusterMinute(h, f.key, m));
        }
      }
      long token = refreshTokens.getOrDefault(h, 0L);
      if (token > 0) {
        keys.add(namespace.clusterRebuiltSince(h, token));
      }
    }
    Map<String, byte[]> found = keys.isEmpty() ? Map.of() : store.getMulti(keys);
    Map<String, SiteStats> figures = new LinkedHashMap<>();
    for (String h : handlers) {
      Map<Figure, Long> sums = new HashMap<>();
      for (Figure f : Figure.values()) {
        long sum = 0;
        for (long m = minute - WINDOW_MINUTES + 1; m <= minute; m++) {
          sum += number(found.get(namespace.clusterMinute(h, f.key, m)));
        }
        sums.put(f, sum);
      }
      long token = refreshTokens.getOrDefault(h, 0L);
      long sinceRefresh = token > 0 ? number(found.get(namespace.clusterRebuiltSince(h, token))) : -1;
      figures.put(h, new SiteStats(sums.get(Figure.HITS), sums.get(Figure.MISSES), sums.get(Figure.REBUILDS),
          sums.get(Figure.BYPASSES), sinceRefresh));
    }
    return figures;
  }

  /** memcached pads incremented values with spaces; a missing or foreign value counts 0. */
  private static long number(byte[] value) {
    if (value == null) {
      return 0;
    }
    try {
      return Long.parseLong(new String(value, java.nio.charset.StandardCharsets.US_ASCII).trim());
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  /** Stops the schedule and sends what is left, once. */
  @Override
  public void close() {
    schedule.shutdown();
    try {
      schedule.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    try {
      sendNow();
    } catch (RuntimeException e) {
      // closing: nothing more to do
    }
  }
}
