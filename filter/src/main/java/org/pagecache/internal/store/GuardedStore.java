package org.pagecache.internal.store;

import java.time.Clock;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;
import org.pagecache.internal.nodes.ClusterStore;
import org.pagecache.store.Store;
import org.pagecache.store.StoreException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A circuit breaker in front of a store, so that a memcached outage costs each request at most
 * nothing (circuit open: fail at once) or one op timeout (the single probe), never a timeout per
 * call. xmemcached alone would keep waiting the op timeout on every call and close a connection
 * only after 1000 consecutive timeouts.
 *
 * <p>The circuit opens after {@value #OPENS_AFTER} failures in a row with no success between them:
 * one failed call is not an outage. That matters with several servers: when one of three dies,
 * the calls that reach it before xmemcached drops it from the Ketama ring fail, while calls to the
 * other two succeed and keep the circuit closed, so only the dead node's pages go to their
 * handlers. Once open, the store is "down" for {@code retryMillis}; then exactly one call probes it
 * while the others keep failing fast. One log line when memcached goes away, one when it is back.
 *
 * <p>In front of a {@link ClusterStore}, which has a breaker per node, this one only counts
 * failures: one node's outage must not take the others out with it.
 */
public final class GuardedStore implements Store {
  private static final Logger log = LoggerFactory.getLogger(GuardedStore.class);

  /** Failures in a row that open the circuit. */
  static final int OPENS_AFTER = 3;

  private final Store store;
  private final Clock clock;
  private final long retryMillis;
  private final AtomicInteger failuresInARow = new AtomicInteger();
  private final AtomicLong downUntil = new AtomicLong(0);
  /** Flipped by compare-and-set, so each outage and each recovery is logged once, whatever the concurrency. */
  private final AtomicBoolean down = new AtomicBoolean();
  private final LongAdder failures;
  private final LongAdder outages = new LongAdder();
  /** Non-null when the store guards each node itself. */
  private final ClusterStore cluster;

  public GuardedStore(Store store, Clock clock, long retryMillis) {
    this.store = store;
    this.cluster = store instanceof ClusterStore c ? c : null;
    this.clock = clock;
    this.retryMillis = retryMillis;
    this.failures = new LongAdder();
  }

  /** A build's view of the cluster behind {@code parent}, its failures counted with the parent's. */
  private GuardedStore(ClusterStore placed, GuardedStore parent) {
    this.store = placed;
    this.cluster = placed;
    this.clock = parent.clock;
    this.retryMillis = parent.retryMillis;
    this.failures = parent.failures;
  }

  /**
   * The store a build uses for these keys (its lock's, its page's): in front of a cluster, a view
   * that keeps them where they are served now (see {@link ClusterStore#placedFor}); otherwise this.
   */
  public Store placedFor(String... keys) {
    if (cluster == null) {
      return this;
    }
    ClusterStore placed = cluster.placedFor(keys);
    return placed == cluster ? this : new GuardedStore(placed, this);
  }

  private <T> T call(Supplier<T> op) {
    if (cluster != null) {
      try {
        return op.get();
      } catch (StoreException e) {
        failures.increment();
        throw e;
      }
    }
    if (down.get()) {
      long until = downUntil.get();
      long now = clock.millis();
      // While down, only the one caller that moves the deadline forward gets to probe.
      if (now < until || !downUntil.compareAndSet(until, now + retryMillis)) {
        failures.increment();
        throw new StoreException(store.describe() + " is unavailable");
      }
    }
    try {
      T result = op.get();
      if (failuresInARow.get() != 0) { // read first: no write, so no contention, on the usual path
        failuresInARow.set(0);
      }
      if (down.get() && down.compareAndSet(true, false)) {
        log.info("pagecache: {} is reachable again; caching resumes", store.describe());
      }
      return result;
    } catch (StoreException e) {
      failures.increment();
      if (down.get()) {
        downUntil.set(clock.millis() + retryMillis); // the probe failed: fail fast for another interval
      } else if (failuresInARow.incrementAndGet() >= OPENS_AFTER) {
        downUntil.set(clock.millis() + retryMillis);
        if (down.compareAndSet(false, true)) { // many threads fail at once; one of them says so
          outages.increment();
          log.warn("pagecache: {} is unavailable ({}); serving from handlers until it is back", store.describe(), e.getMessage());
        }
      }
      throw e;
    }
  }

  /** True while the store is considered down. */
  public boolean isDown() {
    return cluster != null ? cluster.allDown() : down.get();
  }

  /** How many outages were logged (one line each). */
  long outagesLogged() {
    return outages.sum();
  }

  /** Calls that failed or were refused while down. */
  public long failures() {
    return failures.sum();
  }

  @Override
  public byte[] get(String key) {
    return call(() -> store.get(key));
  }

  @Override
  public Map<String, byte[]> getMulti(Collection<String> keys) {
    return call(() -> store.getMulti(keys));
  }

  @Override
  public Versioned gets(String key) {
    return call(() -> store.gets(key));
  }

  @Override
  public boolean set(String key, byte[] value, int ttlSeconds) {
    return call(() -> store.set(key, value, ttlSeconds));
  }

  @Override
  public boolean add(String key, byte[] value, int ttlSeconds) {
    return call(() -> store.add(key, value, ttlSeconds));
  }

  @Override
  public boolean cas(String key, byte[] value, long casUnique, int ttlSeconds) {
    return call(() -> store.cas(key, value, casUnique, ttlSeconds));
  }

  @Override
  public boolean delete(String key) {
    return call(() -> store.delete(key));
  }

  @Override
  public void deleteNoReply(String key) {
    call(() -> {
      store.deleteNoReply(key);
      return null;
    });
  }

  @Override
  public Map<String, byte[]> addThenGetMulti(String addKey, byte[] value, int ttlSeconds, Collection<String> keys) {
    return call(() -> store.addThenGetMulti(addKey, value, ttlSeconds, keys));
  }

  @Override
  public long incr(String key, long delta, long initial, int ttlSeconds) {
    return call(() -> store.incr(key, delta, initial, ttlSeconds));
  }

  @Override
  public long decr(String key, long delta, long initial, int ttlSeconds) {
    return call(() -> store.decr(key, delta, initial, ttlSeconds));
  }

  @Override
  public boolean touch(String key, int ttlSeconds) {
    return call(() -> store.touch(key, ttlSeconds));
  }

  /** Always asks the servers: the admin page must show the truth, not the breaker's state. */
  @Override
  public List<ServerStats> serverStats() {
    return store.serverStats();
  }

  @Override
  public long roundTrips() {
    return store.roundTrips();
  }

  @Override
  public String describe() {
    return store.describe();
  }

  /** The cluster behind this breaker, or null when the store is a single breaker's. */
  public ClusterStore cluster() {
    return cluster;
  }

  @Override
  public void close() {
    store.close();
  }
}
