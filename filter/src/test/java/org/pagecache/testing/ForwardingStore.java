package org.pagecache.testing;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.pagecache.store.Store;

/**
 * A store that passes every call to its delegate through one method, {@link #forward}: the test
 * wrappers (one that records keys, one that fails while "down", one that counts calls per request)
 * override that method instead of each writing the ten key operations again.
 */
public abstract class ForwardingStore implements Store {
  protected final Store delegate;

  protected ForwardingStore(Store delegate) {
    this.delegate = delegate;
  }

  /**
   * Runs one key operation on the delegate. By default it just runs it.
   *
   * @param op   the operation's name: get, getMulti, gets, set, add, cas, delete, incr, decr, touch,
   *             deleteNoReply, addThenGetMulti (its keys: the added one first)
   * @param keys the keys handed to it, before the delegate validates them
   * @param call the call to the delegate
   */
  protected <T> T forward(String op, Collection<String> keys, Supplier<T> call) {
    return call.get();
  }

  @Override
  public byte[] get(String key) {
    return forward("get", List.of(key), () -> delegate.get(key));
  }

  @Override
  public Map<String, byte[]> getMulti(Collection<String> keys) {
    return forward("getMulti", keys, () -> delegate.getMulti(keys));
  }

  @Override
  public Versioned gets(String key) {
    return forward("gets", List.of(key), () -> delegate.gets(key));
  }

  @Override
  public boolean set(String key, byte[] value, int ttlSeconds) {
    return forward("set", List.of(key), () -> delegate.set(key, value, ttlSeconds));
  }

  @Override
  public boolean add(String key, byte[] value, int ttlSeconds) {
    return forward("add", List.of(key), () -> delegate.add(key, value, ttlSeconds));
  }

  @Override
  public boolean cas(String key, byte[] value, long casUnique, int ttlSeconds) {
    return forward("cas", List.of(key), () -> delegate.cas(key, value, casUnique, ttlSeconds));
  }

  @Override
  public boolean delete(String key) {
    return forward("delete", List.of(key), () -> delegate.delete(key));
  }

  @Override
  public void deleteNoReply(String key) {
    forward("deleteNoReply", List.of(key), () -> {
      delegate.deleteNoReply(key);
      return null;
    });
  }

  @Override
  public Map<String, byte[]> addThenGetMulti(String addKey, byte[] value, int ttlSeconds, Collection<String> keys) {
    List<String> all = new java.util.ArrayList<>(keys.size() + 1);
    all.add(addKey);
    all.addAll(keys);
    return forward("addThenGetMulti", all, () -> delegate.addThenGetMulti(addKey, value, ttlSeconds, keys));
  }

  @Override
  public long incr(String key, long delta, long initial, int ttlSeconds) {
    return forward("incr", List.of(key), () -> delegate.incr(key, delta, initial, ttlSeconds));
  }

  @Override
  public long decr(String key, long delta, long initial, int ttlSeconds) {
    return forward("decr", List.of(key), () -> delegate.decr(key, delta, initial, ttlSeconds));
  }

  @Override
  public boolean touch(String key, int ttlSeconds) {
    return forward("touch", List.of(key), () -> delegate.touch(key, ttlSeconds));
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
    return delegate.describe();
  }

  @Override
  public void close() {
    delegate.close();
  }
}
