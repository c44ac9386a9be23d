package org.pagecache.testing;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.pagecache.store.Store;
import org.pagecache.store.StoreException;

/**
 * A store that answers like its delegate, or throws {@link StoreException} while it is "down": for
 * unit tests of what sits above the store (the circuit breaker, the counters' fallbacks). Tests of
 * memcached failing stop a real memcached instead.
 */
public final class FaultyStore implements Store {
  private final Store delegate;
  private final BooleanSupplier down;

  public FaultyStore(Store delegate, BooleanSupplier down) {
    this.delegate = delegate;
    this.down = down;
  }

  private void check() {
    if (down.getAsBoolean()) {
      throw new StoreException("test: store is down");
    }
  }

  @Override
  public byte[] get(String key) {
    check();
    return delegate.get(key);
  }

  @Override
  public Map<String, byte[]> getMulti(Collection<String> keys) {
    check();
    return delegate.getMulti(keys);
  }

  @Override
  public Versioned gets(String key) {
    check();
    return delegate.gets(key);
  }

  @Override
  public boolean set(String key, byte[] value, int ttlSeconds) {
    check();
    return delegate.set(key, value, ttlSeconds);
  }

  @Override
  public boolean add(String key, byte[] value, int ttlSeconds) {
    check();
    return delegate.add(key, value, ttlSeconds);
  }

  @Override
  public boolean cas(String key, byte[] value, long casUnique, int ttlSeconds) {
    check();
    return delegate.cas(key, value, casUnique, ttlSeconds);
  }

  @Override
  public boolean delete(String key) {
    check();
    return delegate.delete(key);
  }

  @Override
  public long incr(String key, long delta, long initial, int ttlSeconds) {
    check();
    return delegate.incr(key, delta, initial, ttlSeconds);
  }

  @Override
  public long decr(String key, long delta, long initial, int ttlSeconds) {
    check();
    return delegate.decr(key, delta, initial, ttlSeconds);
  }

  @Override
  public boolean touch(String key, int ttlSeconds) {
    check();
    return delegate.touch(key, ttlSeconds);
  }

  @Override
  public List<ServerStats> serverStats() {
    check();
    return delegate.serverStats();
  }

  @Override
  public long roundTrips() {
    return delegate.roundTrips();
  }

  @Override
  public String describe() {
    return "faulty " + delegate.describe();
  }

  @Override
  public void close() {}
}
