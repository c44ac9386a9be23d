package org.pagecache.counters;

import java.time.Clock;
import java.util.Collection;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import org.pagecache.store.Namespace;
import org.pagecache.store.Store;

/**
 * Live view counters and an online-visitors counter kept in memcached, shared by all frontends:
 * the counts a page shows without writing to the database on every view.
 *
 * <pre>{@code
 * Counters counters = Counters.builder(store, namespace)
 *     .settings(CountersSettings.parse("window=5m, buckets=6, flush-interval=1m"))
 *     .source(objectKey -> articles.views(objectKey))        // where a counter starts
 *     .sink(increments -> articles.addViews(increments))     // where counted views end up
 *     .build();
 * long views = counters.viewed("article:42");   // counts one view, returns the new count
 * counters.visit(visitorId.of(request));         // once per request
 * long online = counters.online();
 * }</pre>
 *
 * <p>Never throws because of memcached: when it is down or slow, counting degrades silently —
 * {@code viewed}/{@code views} return the last count this JVM saw plus the views it counted
 * since (-1 if it saw none), {@code online} the last known value (-1 if none) — with one log line
 * when memcached goes away and one when it is back. Views keep reaching the {@link CountSink}
 * meanwhile, and reach memcached once it is back, exactly once whether it comes back empty or
 * with its old counts (see {@link ViewLedger}); see {@link #close()} for what a JVM loses when it
 * dies.
 *
 * <p>Thread-safe; one instance per application (the page-cache filter publishes it in the
 * ServletContext under {@code Counters.class.getName()}). It does not own the store.
 */
public final class Counters implements AutoCloseable {
  private final CountersSettings settings;
  private final ViewMode views;
  private final ViewFlusher flusher;
  private final ViewLedger ledger;
  private final OnlineCounter online;
  /** Null when online counting is off: there is no count to show, not a count of 0. */
  private final OnlineDisplay onlineDisplay;
  private final FailOpen failOpen;
  private final AtomicBoolean closed = new AtomicBoolean();

  private Counters(Builder b) {
    this.settings = b.settings;
    this.failOpen = new FailOpen(b.store, b.clock);
    this.ledger = new ViewLedger(b.sink != CountSink.NONE);
    this.flusher = new ViewFlusher(b.sink, settings.flushInterval(), b.clock, ledger);
    ViewCounter counter = new ViewCounter(b.store, b.namespace, b.source, settings.ttl(), b.clock,
        ledger, flusher);
    this.views = ViewMode.of(settings, counter, failOpen, ledger);
    this.online = new OnlineCounter(b.store, b.namespace, settings, b.clock);
    this.onlineDisplay = b.countOnline
        ? new OnlineDisplay(online, failOpen, b.clock, settings.onlineCacheFor()) : null;
  }

  /**
   * Starts building the counters of an application.
   *
   * @param store where the live counts are kept; it stays the caller's to close
   * @param namespace the prefix of the counters' keys
   * @throws NullPointerException when either is null
   */
  public static Builder builder(Store store, Namespace namespace) {
    return new Builder(store, namespace);
  }

  /**
   * Counts one view of {@code objectKey} (e.g. {@code article:42}); returns the new count, or
   * while memcached is away the last known one plus this JVM's views since, or -1.
   */
  public long viewed(String objectKey) {
    Objects.requireNonNull(objectKey, "objectKey");
    // Owed to memcached and to the sink at once, before either is tried.
    ledger.counted(objectKey, 1);
    return views.viewed(objectKey);
  }

  /** The current count without counting; while memcached is away as {@link #viewed} says. */
  public long views(String objectKey) {
    Objects.requireNonNull(objectKey, "objectKey");
    return views.views(objectKey);
  }

  /** Counts of several objects in one memcached round trip, in the order given. */
  public Map<String, Long> views(Collection<String> objectKeys) {
    objectKeys.forEach(k -> Objects.requireNonNull(k, "objectKey"));
    if (objectKeys.isEmpty()) {
      return Map.of();
    }
    return views.views(objectKeys);
  }

  /**
   * Notes a request of this visitor (an id such as the session id or a hash of address and User-Agent); counted once per window. Does
   * nothing when online counting is off.
   */
  public void visit(String visitorId) {
    Objects.requireNonNull(visitorId, "visitorId");
    if (onlineDisplay != null) {
      failOpen.run(() -> online.visit(visitorId));
    }
  }

  /**
   * Distinct visitors in the last window; the last known value or -1 when memcached is away,
   * and -1 when online counting is off.
   */
  public long online() {
    return onlineDisplay == null ? -1 : onlineDisplay.get();
  }

  /**
   * Sends aggregated views to memcached and pending views to the sink now, instead of at the
   * next interval; true when both took everything. For tests.
   */
  boolean flushNow() {
    boolean pushed = pushNow();
    return flushToSinkNow() && pushed;
  }

  /** Sends the views memcached has not been given yet; true when none is left. For tests. */
  boolean pushNow() {
    return views.pushNow();
  }

  /** Offers the views the sink has not taken; true when it took them all. For tests. */
  boolean flushToSinkNow() {
    return flusher.flushNow();
  }

  /** The settings these counters run with. */
  public CountersSettings settings() {
    return settings;
  }

  /**
   * Stops the background threads, sends locally aggregated views to memcached and flushes the
   * views not yet in the {@link CountSink}. What a JVM that dies without this call loses: from
   * the durable count, the views the sink has not taken (since the last successful flush: one
   * flush interval's worth while the sink works, everything since it began failing while it
   * fails); with local aggregation also, from the memcached count, the views not yet pushed (the
   * last interval's, more while memcached refuses pushes). Idempotent; the store stays open (it
   * is not ours).
   */
  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      views.close();
      flusher.close();
    }
  }

  /** Everything but the store and namespace is optional: defaults, a source of 0, no sink. */
  public static final class Builder {
    private final Store store;
    private final Namespace namespace;
    private CountersSettings settings = CountersSettings.DEFAULTS;
    private CountSource source = CountSource.ZERO;
    private CountSink sink = CountSink.NONE;
    private Clock clock = Clock.systemUTC();
    private boolean countOnline = true;

    private Builder(Store store, Namespace namespace) {
      this.store = Objects.requireNonNull(store, "store");
      this.namespace = Objects.requireNonNull(namespace, "namespace");
    }

    /** Window, buckets, TTL and intervals; default {@link CountersSettings#DEFAULTS}. */
    public Builder settings(CountersSettings settings) {
      this.settings = Objects.requireNonNull(settings, "settings");
      return this;
    }

    /** Where a counter missing from memcached starts; default {@link CountSource#ZERO}. */
    public Builder source(CountSource source) {
      this.source = Objects.requireNonNull(source, "source");
      return this;
    }

    /**
     * Where counted views go every {@code flushInterval}; default {@link CountSink#NONE}, which
     * drops them and runs no flush thread.
     */
    public Builder sink(CountSink sink) {
      this.sink = Objects.requireNonNull(sink, "sink");
      return this;
    }

    /**
     * False when nobody calls {@link #visit} (the filter's {@code online=off}): {@link #online()}
     * then answers -1 (shown as nothing) instead of a count of 0 that only looks real.
     */
    public Builder countOnline(boolean countOnline) {
      this.countOnline = countOnline;
      return this;
    }

    /** The clock of the online window and the counters' timings; tests move it. */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /**
     * The counters, with the background threads they need started (the flush to a sink, local
     * aggregation): {@link Counters#close()} them when the application stops.
     */
    public Counters build() {
      return new Counters(this);
    }
  }
}
