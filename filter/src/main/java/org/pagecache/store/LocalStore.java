package org.pagecache.store;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * An in-process store with memcached's semantics, for a single JVM (development, one-node sites,
 * tests of pure logic). Nothing is shared between JVMs, so refreshes and locks only reach this
 * JVM. Memory is bounded by {@code maxBytes}: when full, the entries closest to expiry go first
 * (a cheap stand-in for memcached's LRU; good enough for a development store).
 */
public final class LocalStore implements Store {
  private static final long THIRTY_DAYS_SECONDS = 60L * 60 * 24 * 30;

  private final ConcurrentHashMap<String, Item> items = new ConcurrentHashMap<>();
  private final AtomicLong casCounter = new AtomicLong();
  private final LongAdder roundTrips = new LongAdder();
  private final Clock clock;
  private final long maxBytes;
  private final AtomicLong bytes = new AtomicLong();
  private final LongAdder evictions = new LongAdder();
  private final LongAdder gets = new LongAdder();
  private final LongAdder hits = new LongAdder();

  private record Item(byte[] value, long expiresAtMillis, long cas) {
    boolean expired(long now) {
      return expiresAtMillis != 0 && now >= expiresAtMillis;
    }
  }

  /** A store of at most 64 MiB of values, on the system UTC clock. */
  public LocalStore() {
    this(Clock.systemUTC(), 64L * 1024 * 1024);
  }

  /**
   * A store on {@code clock} (tests move it to expire entries) that holds at most
   * {@code maxBytes} bytes of values; beyond that the entries closest to expiry are evicted.
   */
  public LocalStore(Clock clock, long maxBytes) {
    this.clock = clock;
    this.maxBytes = maxBytes;
  }

  @Override
  public byte[] get(String key) {
    roundTrips.increment();
    Item item = live(Keys.check(key));
    // A copy, as memcached gives every caller its own bytes: decoding in place must not corrupt the cache.
    return item == null ? null : item.value.clone();
  }

  @Override
  public Map<String, byte[]> getMulti(Collection<String> keys) {
    roundTrips.increment();
    Map<String, byte[]> found = new HashMap<>();
    for (String key : keys) {
      Item item = live(Keys.check(key));
      if (item != null) {
        found.put(key, item.value.clone());
      }
    }
    return found;
  }

  @Override
  public Versioned gets(String key) {
    roundTrips.increment();
    Item item = live(Keys.check(key));
    return item == null ? null : new Versioned(item.value.clone(), item.cas);
  }

  @Override
  public boolean set(String key, byte[] value, int ttlSeconds) {
    roundTrips.increment();
    checkWrite(key, value, ttlSeconds);
    put(key, value, ttlSeconds);
    return true;
  }

  @Override
  public boolean add(String key, byte[] value, int ttlSeconds) {
    roundTrips.increment();
    checkWrite(key, value, ttlSeconds);
    long now = clock.millis();
    Item fresh = item(value, ttlSeconds, now);
    boolean[] added = {false};
    items.compute(key, (k, old) -> {
      if (old != null && !old.expired(now)) {
        return old;
      }
      added[0] = true;
      account(old, fresh);
      return fresh;
    });
    evictIfFull();
    return added[0];
  }

  @Override
  public boolean cas(String key, byte[] value, long casUnique, int ttlSeconds) {
    roundTrips.increment();
    checkWrite(key, value, ttlSeconds);
    long now = clock.millis();
    Item fresh = item(value, ttlSeconds, now);
    boolean[] swapped = {false};
    items.computeIfPresent(key, (k, old) -> {
      if (old.expired(now) || old.cas != casUnique) {
        return old;
      }
      swapped[0] = true;
      account(old, fresh);
      return fresh;
    });
    return swapped[0];
  }

  /** As memcached on one connection: the get goes with the add, one round trip. */
  @Override
  public Map<String, byte[]> addThenGetMulti(String addKey, byte[] value, int ttlSeconds, Collection<String> keys) {
    if (!add(addKey, value, ttlSeconds)) {
      return null;
    }
    Map<String, byte[]> values = getMulti(keys);
    roundTrips.decrement(); // sent with the add: no round trip of its own
    return values;
  }

  /** As memcached's noreply: nobody waits for it, so it is no round trip. */
  @Override
  public void deleteNoReply(String key) {
    delete(key);
    roundTrips.decrement();
  }

  @Override
  public boolean delete(String key) {
    roundTrips.increment();
    Item old = items.remove(Keys.check(key));
    account(old, null);
    return old != null && !old.expired(clock.millis());
  }

  @Override
  public long incr(String key, long delta, long initial, int ttlSeconds) {
    Values.checkCounter(key, delta, initial);
    return arithmetic(key, delta, initial, ttlSeconds);
  }

  @Override
  public long decr(String key, long delta, long initial, int ttlSeconds) {
    Values.checkCounter(key, delta, initial);
    return arithmetic(key, -delta, initial, ttlSeconds);
  }

  private long arithmetic(String key, long delta, long initial, int ttlSeconds) {
    roundTrips.increment();
    Values.checkTtl(Keys.check(key), ttlSeconds);
    long now = clock.millis();
    long[] result = new long[1];
    items.compute(key, (k, old) -> {
      Item next;
      if (old == null || old.expired(now)) {
        result[0] = initial;
        next = item(ascii(initial), ttlSeconds, now);
      } else {
        long current = parseCounter(key, old.value);
        // memcached: incr wraps at 2^64 (unsigned), decr stops at 0.
        long value = delta >= 0 ? current + delta : Math.max(0, current + delta);
        result[0] = value;
        next = new Item(ascii(value), old.expiresAtMillis, casCounter.incrementAndGet());
      }
      account(old, next);
      return next;
    });
    return result[0];
  }

  @Override
  public boolean touch(String key, int ttlSeconds) {
    roundTrips.increment();
    Values.checkTtl(Keys.check(key), ttlSeconds);
    long now = clock.millis();
    boolean[] touched = {false};
    items.computeIfPresent(key, (k, old) -> {
      if (old.expired(now)) {
        return old;
      }
      touched[0] = true;
      return new Item(old.value, expiresAt(ttlSeconds, now), old.cas);
    });
    return touched[0];
  }

  @Override
  public List<ServerStats> serverStats() {
    roundTrips.increment();
    Map<String, String> stats = new HashMap<>();
    stats.put("version", "in-process");
    stats.put("curr_items", Long.toString(items.size()));
    stats.put("bytes", Long.toString(bytes.get()));
    stats.put("limit_maxbytes", Long.toString(maxBytes));
    stats.put("evictions", Long.toString(evictions.sum()));
    stats.put("get_hits", Long.toString(hits.sum()));
    stats.put("get_misses", Long.toString(gets.sum() - hits.sum()));
    stats.put("cmd_flush", "0");
    return List.of(new ServerStats("in-process", true, stats, Map.of()));
  }

  @Override
  public long roundTrips() {
    return roundTrips.sum();
  }

  @Override
  public String describe() {
    return "in-process";
  }

  @Override
  public void close() {
    items.clear();
    bytes.set(0);
  }

  /** The same argument rules as memcached (through xmemcached) enforces. */
  private static void checkWrite(String key, byte[] value, int ttlSeconds) {
    Values.check(Keys.check(key), value);
    Values.checkTtl(key, ttlSeconds);
  }

  private Item live(String key) {
    gets.increment();
    Item item = items.get(key);
    if (item == null) {
      return null;
    }
    if (item.expired(clock.millis())) {
      if (items.remove(key, item)) {
        account(item, null);
      }
      return null;
    }
    hits.increment();
    return item;
  }

  private void put(String key, byte[] value, int ttlSeconds) {
    Item fresh = item(value, ttlSeconds, clock.millis());
    Item old = items.put(key, fresh);
    account(old, fresh);
    evictIfFull();
  }

  private Item item(byte[] value, int ttlSeconds, long now) {
    return new Item(value.clone(), expiresAt(ttlSeconds, now), casCounter.incrementAndGet());
  }

  /** memcached's rule: 0 never, up to 30 days relative, beyond that an absolute Unix time. */
  static long expiresAt(int ttlSeconds, long nowMillis) {
    if (ttlSeconds == 0) {
      return 0;
    }
    if (ttlSeconds < 0) {
      return nowMillis; // already expired
    }
    if (ttlSeconds > THIRTY_DAYS_SECONDS) {
      long absolute = ttlSeconds * 1000L;
      return absolute <= nowMillis ? nowMillis : absolute;
    }
    return nowMillis + ttlSeconds * 1000L;
  }

  private void account(Item old, Item fresh) {
    long delta = (fresh == null ? 0 : fresh.value.length) - (old == null ? 0 : old.value.length);
    bytes.addAndGet(delta);
  }

  private void evictIfFull() {
    while (bytes.get() > maxBytes && !items.isEmpty()) {
      String victim = null;
      long soonest = Long.MAX_VALUE;
      for (Map.Entry<String, Item> e : items.entrySet()) {
        long expiry = e.getValue().expiresAtMillis == 0 ? Long.MAX_VALUE - 1 : e.getValue().expiresAtMillis;
        if (expiry < soonest) {
          soonest = expiry;
          victim = e.getKey();
        }
      }
      if (victim == null) {
        return;
      }
      Item removed = items.remove(victim);
      if (removed != null) {
        account(removed, null);
        evictions.increment();
      }
    }
  }

  private static byte[] ascii(long value) {
    return Long.toString(value).getBytes(StandardCharsets.US_ASCII);
  }

  private static long parseCounter(String key, byte[] value) {
    String text = new String(value, StandardCharsets.US_ASCII).trim();
    try {
      return Long.parseLong(text);
    } catch (NumberFormatException e) {
      // memcached answers CLIENT_ERROR, which MemcachedStore reports as a StoreException.
      throw new StoreException("cannot increment or decrement non-numeric value of key " + key);
    }
  }
}
