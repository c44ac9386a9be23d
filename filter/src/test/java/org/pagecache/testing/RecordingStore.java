package org.pagecache.testing;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.pagecache.store.Store;

/**
 * A store that passes every call to its delegate (a real memcached store in the tests) and
 * remembers the keys it was handed, before the delegate validates them: so a test can assert
 * which keys the code under test really used, e.g. that a hostile URL became a valid memcached key.
 *
 * <pre>{@code
 * RecordingStore store = new RecordingStore(new MemcachedStore(settings));
 * site.store(store).start();
 * store.clear();
 * site.get("/page/caf%C3%A9");
 * assertEquals(1, store.keys("set").size());
 * }</pre>
 */
public final class RecordingStore implements Store {
  /** One key handed to the store, with the operation's name (get, getMulti, set, add, ...). */
  public record Call(String op, String key) {}

  private final Store delegate;
  private final ConcurrentLinkedQueue<Call> calls = new ConcurrentLinkedQueue<>();

  public RecordingStore(Store delegate) {
    this.delegate = delegate;
  }

  /** Every key handed to the store since the last {@link #clear}, in order. */
  public List<Call> calls() {
    return List.copyOf(calls);
  }

  /** The keys of one operation since the last {@link #clear}, in order. */
  public List<String> keys(String op) {
    List<String> keys = new ArrayList<>();
    for (Call c : calls) {
      if (c.op.equals(op)) {
        keys.add(c.key);
      }
    }
    return keys;
  }

  public void clear() {
    calls.clear();
  }

  private void record(String op, String key) {
    calls.add(new Call(op, key));
  }

  @Override
  public byte[] get(String key) {
    record("get", key);
    return delegate.get(key);
  }

  @Override
  public Map<String, byte[]> getMulti(Collection<String> keys) {
    keys.forEach(k -> record("getMulti", k));
    return delegate.getMulti(keys);
  }

  @Override
  public Versioned gets(String key) {
    record("gets", key);
    return delegate.gets(key);
  }

  @Override
  public boolean set(String key, byte[] value, int ttlSeconds) {
    record("set", key);
    return delegate.set(key, value, ttlSeconds);
  }

  @Override
  public boolean add(String key, byte[] value, int ttlSeconds) {
    record("add", key);
    return delegate.add(key, value, ttlSeconds);
  }

  @Override
  public boolean cas(String key, byte[] value, long casUnique, int ttlSeconds) {
    record("cas", key);
    return delegate.cas(key, value, casUnique, ttlSeconds);
  }

  @Override
  public boolean delete(String key) {
    record("delete", key);
    return delegate.delete(key);
  }

  @Override
  public long incr(String key, long delta, long initial, int ttlSeconds) {
    record("incr", key);
    return delegate.incr(key, delta, initial, ttlSeconds);
  }

  @Override
  public long decr(String key, long delta, long initial, int ttlSeconds) {
    record("decr", key);
    return delegate.decr(key, delta, initial, ttlSeconds);
  }

  @Override
  public boolean touch(String key, int ttlSeconds) {
    record("touch", key);
    return delegate.touch(key, ttlSeconds);
  }

  @Override
  public List<ServerStats> serverStats() {
    return delegate.serverStats();
  }

  @Override
  public long roundTrips() {
    return delegate.roundTrips();
  }

  @Override
  public String describe() {
    return "recording " + delegate.describe();
  }

  @Override
  public void close() {
    delegate.close();
  }
}
