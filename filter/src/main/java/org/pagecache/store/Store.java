package org.pagecache.store;

import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * What the page cache needs from memcached, and nothing more. Values are raw bytes: pages are
 * encoded by the engine's {@code PageCodec}, counters and tokens are plain decimal ASCII (so memcached's
 * {@code incr} works on them).
 *
 * <p>Semantics are memcached's, for every implementation:
 * <ul>
 *   <li>{@code ttlSeconds}: 0 never expires; up to 30 days is relative; above 30 days it is an
 *       absolute Unix time in seconds (memcached's rule).
 *   <li>{@link #add} fails on an existing key; {@link #incr} on a missing key stores
 *       {@code initial} and returns it (it does not add {@code delta}); {@link #decr} stops at 0.
 *   <li>Keys: at most {@link Keys#MAX_KEY_BYTES} bytes, ASCII without spaces or control characters.
 *       A key that breaks the rules is an {@link IllegalArgumentException}: build keys with the
 *       key package, never from raw input.
 * </ul>
 *
 * <p>Every call is one round trip (a multi-get included) and is counted in {@link #roundTrips()},
 * except {@link #deleteNoReply}, which waits for no answer, and {@link #addThenGetMulti}, which is
 * one round trip where the store can send both commands before waiting, two otherwise.
 * A store that cannot answer (down, timed out) throws {@link StoreException}; callers fail open.
 */
public interface Store extends AutoCloseable {

  /** The value, or null when missing or expired. */
  byte[] get(String key);

  /** Values of the keys present, in one round trip. Missing keys are absent from the map. */
  Map<String, byte[]> getMulti(Collection<String> keys);

  /** Value plus its cas unique, or null when missing. */
  Versioned gets(String key);

  /** Stores the value whatever the key held; true when stored. */
  boolean set(String key, byte[] value, int ttlSeconds);

  /** Stores only if the key is absent; false when it exists. */
  boolean add(String key, byte[] value, int ttlSeconds);

  /** Stores only if the key still has {@code casUnique}; false otherwise (changed or missing). */
  boolean cas(String key, byte[] value, long casUnique, int ttlSeconds);

  /** True when the key existed. */
  boolean delete(String key);

  /**
   * Deletes the key without waiting for memcached's answer ({@code noreply}): no round trip, and no
   * way to know whether it happened. By default an ordinary {@link #delete}.
   */
  default void deleteNoReply(String key) {
    delete(key);
  }

  /**
   * {@link #add} of {@code addKey} and, when it was added, the values of {@code keys} as memcached
   * holds them after the add: null when the key existed (the add failed). A store that can sends
   * both commands at once on one connection (memcached answers a connection's commands in order),
   * one round trip instead of two; then the add is judged won when {@code addKey} holds
   * {@code value} afterwards, so {@code value} must be unique to the caller (a lock's owner).
   * By default the two calls one after the other.
   */
  default Map<String, byte[]> addThenGetMulti(String addKey, byte[] value, int ttlSeconds, Collection<String> keys) {
    return add(addKey, value, ttlSeconds) ? getMulti(keys) : null;
  }

  /**
   * Adds {@code delta}; on a missing key stores {@code initial} (with {@code ttlSeconds}) and
   * returns it, like xmemcached's incr with an initial value.
   */
  long incr(String key, long delta, long initial, int ttlSeconds);

  /** Subtracts {@code delta}, never below 0; on a missing key stores and returns {@code initial}. */
  long decr(String key, long delta, long initial, int ttlSeconds);

  /** Sets a new expiry; false when the key is missing. */
  boolean touch(String key, int ttlSeconds);

  /** One entry per server: up or down, its general {@code stats} and its {@code stats slabs}. */
  List<ServerStats> serverStats();

  /** Round trips made so far (each call above counts one). */
  long roundTrips();

  /** A short name for logs and the admin page, e.g. {@code memcached[127.0.0.1:11211]}. */
  String describe();

  @Override
  void close();

  /** A value with its memcached cas unique. */
  record Versioned(byte[] value, long casUnique) {}

  /** One memcached server as {@code stats} shows it. */
  record ServerStats(String address, boolean up, Map<String, String> stats, Map<String, String> slabs) {}
}
