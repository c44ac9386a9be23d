package org.pagecache.store;

import com.google.code.yanf4j.core.impl.StandardSocketOption;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.LongAdder;
import net.rubyeye.xmemcached.GetsResponse;
import net.rubyeye.xmemcached.HashAlgorithm;
import net.rubyeye.xmemcached.MemcachedClient;
import net.rubyeye.xmemcached.XMemcachedClientBuilder;
import net.rubyeye.xmemcached.command.BinaryCommandFactory;
import net.rubyeye.xmemcached.command.TextCommandFactory;
import net.rubyeye.xmemcached.exception.MemcachedException;
import net.rubyeye.xmemcached.impl.ArrayMemcachedSessionLocator;
import net.rubyeye.xmemcached.impl.KetamaMemcachedSessionLocator;

/**
 * The production {@link Store}: a memcached cluster through xmemcached, values stored as raw bytes.
 *
 * <p>Choices that differ from xmemcached's defaults, and why:
 * <ul>
 *   <li>Ketama hashing, so losing one of N servers moves about 1/N of the keys, not all of them.
 *   <li>Short timeouts (connect 1 s, operation 200 ms): a cache that answers slowly is worse than
 *       none; callers fail open on {@link StoreException}.
 *   <li>Heal interval 1 s: a restarted server is reconnected within seconds (xmemcached waits
 *       {@code interval × attempts} between attempts, at most 60 s, so a long outage takes longer).
 *   <li>A 1 MiB socket send buffer: with the default 32 KiB, xmemcached needs tens of
 *       milliseconds per extra 32 KiB of value (a 900 KB set took about 500 ms on loopback;
 *       2 ms with this buffer, and still 2-4 ms when the kernel caps it at Debian's default
 *       {@code net.core.wmem_max}).
 * </ul>
 *
 * <p>{@link #MemcachedStore(Settings)} connects synchronously but returns within about
 * {@code connectTimeout} per server even when every server is down; calls then throw
 * {@link StoreException} until xmemcached reconnects in the background. Build the store at
 * start-up, not on a request.
 *
 * <pre>{@code
 * Store store = new MemcachedStore(MemcachedStore.Settings.defaults("10.0.0.1:11211,10.0.0.2:11211"));
 * }</pre>
 */
public final class MemcachedStore implements Store {
  private static final long HEAL_INTERVAL_MILLIS = 1000;
  private static final int SEND_BUFFER_BYTES = 1024 * 1024;

  private final ServerList servers;
  private final long opTimeoutMillis;
  private final MemcachedClient client;
  private final String description;
  private final LongAdder roundTrips = new LongAdder();
  /**
   * One server over one connection, text protocol: memcached answers its commands in the order they
   * were sent, and an {@code add ... noreply} answers nothing, not even its failure (memcached 1.6
   * suppresses errors too). The binary protocol's quiet add answers a failure ("key exists"): left
   * out, it is deprecated anyway.
   */
  private final boolean pipelines;
  /**
   * A delete may go noreply: text protocol (the binary protocol's quiet commands answer their
   * failures) and one connection per server, so the next command to that server (another request's
   * lock {@code add}) cannot overtake it on another connection.
   */
  private final boolean deletesNoReply;

  /**
   * How to reach memcached. {@code servers} is {@code host:port[:weight],...} (see
   * {@link ServerList}); {@code binary} picks the binary protocol (deprecated by memcached, text
   * is the default); {@code poolSize} is the number of connections per server. Mistakes are
   * reported as {@code memcached.servers}, {@code memcached.connect.timeout},
   * {@code memcached.op.timeout} or {@code memcached.pool.size}, the parameters' names.
   */
  public record Settings(ServerList servers, boolean binary, Duration connectTimeout, Duration opTimeout,
      int poolSize) {

    /** Validates everything at once, at start-up, naming the parameter that is wrong. */
    public Settings {
      Objects.requireNonNull(servers, "memcached.servers");
      requirePositive("memcached.connect.timeout", connectTimeout);
      requirePositive("memcached.op.timeout", opTimeout);
      if (poolSize < 1) {
        throw new IllegalArgumentException("memcached.pool.size: " + poolSize + " is not a pool size; use 1 or more");
      }
    }

    /** Text protocol, connect timeout 1 s, operation timeout 200 ms, one connection per server. */
    public static Settings defaults(String servers) {
      return new Settings(servers, false, Duration.ofSeconds(1), Duration.ofMillis(200), 1);
    }

    /** The same, with the servers as written ({@code host:port[:weight],...}), parsed (and resolved) here. */
    public Settings(String servers, boolean binary, Duration connectTimeout, Duration opTimeout, int poolSize) {
      this(ServerList.parse("memcached.servers", servers), binary, connectTimeout, opTimeout, poolSize);
    }

    private static void requirePositive(String name, Duration value) {
      if (value == null || value.isNegative() || value.isZero()) {
        throw new IllegalArgumentException(name + ": " + value + " is not a positive duration");
      }
    }
  }

  /**
   * Connects to the servers of {@code settings}; servers that are down are logged and reconnected
   * in the background.
   *
   * @throws StoreException when the memcached client cannot start at all
   */
  public MemcachedStore(Settings settings) {
    this(settings, true);
  }

  /**
   * A store whose client never reconnects by itself: a lost server stays lost for this instance.
   * For callers that probe and reconnect themselves (a new instance) and want no log line per
   * failed attempt: xmemcached logs each failed reconnect at ERROR, with a stack trace.
   */
  public static MemcachedStore withoutReconnecting(Settings settings) {
    return new MemcachedStore(settings, false);
  }

  private MemcachedStore(Settings settings, boolean reconnect) {
    this.servers = settings.servers();
    this.opTimeoutMillis = settings.opTimeout().toMillis();
    this.description = describe(servers);
    this.deletesNoReply = !settings.binary() && settings.poolSize() == 1;
    this.pipelines = servers.size() == 1 && settings.poolSize() == 1 && !settings.binary();
    ConnectionLog log = new ConnectionLog(servers, reconnect);
    try {
      this.client = builder(settings, log, reconnect).build();
    } catch (IOException e) {
      throw new StoreException(description + ": cannot start the memcached client", e);
    }
    Collection<InetSocketAddress> available = client.getAvailableServers();
    servers.addresses().stream().filter(a -> !available.contains(a)).forEach(log::downAtStart);
  }

  private XMemcachedClientBuilder builder(Settings settings, ConnectionLog log, boolean reconnect) {
    XMemcachedClientBuilder builder = new XMemcachedClientBuilder(servers.addresses(), servers.weights());
    // Ketama hashes every key with MD5 on every call; with one server (each node of a cluster has its
    // own client) there is nothing to choose, so the plain locator saves that work.
    builder.setSessionLocator(servers.addresses().size() == 1
        ? new ArrayMemcachedSessionLocator(HashAlgorithm.NATIVE_HASH) : new KetamaMemcachedSessionLocator());
    // false: a dead server leaves the ring instead of failing the keys that hash to it.
    builder.setFailureMode(false);
    builder.setOpTimeout(opTimeoutMillis);
    builder.setConnectTimeout(settings.connectTimeout().toMillis());
    builder.setConnectionPoolSize(settings.poolSize());
    builder.setCommandFactory(settings.binary() ? new BinaryCommandFactory() : new TextCommandFactory());
    // Keys are checked (and built from hashes) by Keys; sanitizing would change them silently.
    builder.setSanitizeKeys(false);
    builder.setEnableHealSession(reconnect);
    builder.setHealSessionInterval(HEAL_INTERVAL_MILLIS);
    builder.setSocketOption(StandardSocketOption.SO_SNDBUF, SEND_BUFFER_BYTES);
    // The client-wide transcoder stays xmemcached's default: text-protocol incr on a missing key
    // stores its initial value through it as a String (plain decimal ASCII). Values pass
    // RawBytesTranscoder per call.
    builder.addStateListener(log);
    return builder;
  }

  @Override
  public byte[] get(String key) {
    Keys.check(key);
    return call("get", key, () -> client.get(key, opTimeoutMillis, RawBytesTranscoder.INSTANCE));
  }

  /** All or nothing: when any server holding one of the keys fails, the whole call throws. */
  @Override
  public Map<String, byte[]> getMulti(Collection<String> keys) {
    keys.forEach(Keys::check);
    if (keys.isEmpty()) {
      roundTrips.increment();
      return new HashMap<>();
    }
    Map<String, byte[]> found = call("getMulti", keys,
        () -> client.get(keys, opTimeoutMillis, RawBytesTranscoder.INSTANCE));
    return found == null ? new HashMap<>() : found;
  }

  @Override
  public Versioned gets(String key) {
    Keys.check(key);
    GetsResponse<byte[]> response =
        call("gets", key, () -> client.gets(key, opTimeoutMillis, RawBytesTranscoder.INSTANCE));
    return response == null ? null : new Versioned(response.getValue(), response.getCas());
  }

  @Override
  public boolean set(String key, byte[] value, int ttlSeconds) {
    checkWrite(key, value, ttlSeconds);
    return call("set", key,
        () -> client.set(key, ttlSeconds, value, RawBytesTranscoder.INSTANCE, opTimeoutMillis));
  }

  @Override
  public boolean add(String key, byte[] value, int ttlSeconds) {
    checkWrite(key, value, ttlSeconds);
    return call("add", key,
        () -> client.add(key, ttlSeconds, value, RawBytesTranscoder.INSTANCE, opTimeoutMillis));
  }

  @Override
  public boolean cas(String key, byte[] value, long casUnique, int ttlSeconds) {
    checkWrite(key, value, ttlSeconds);
    return call("cas", key, () -> client.cas(key, ttlSeconds, value, RawBytesTranscoder.INSTANCE,
        opTimeoutMillis, casUnique));
  }

  @Override
  public boolean delete(String key) {
    Keys.check(key);
    return call("delete", key, () -> client.delete(key, opTimeoutMillis));
  }

  /**
   * Text protocol and one connection per server only: the binary protocol's quiet delete answers
   * "not found", and with several connections a lock given back noreply could still be there when
   * the next request's {@code add} arrives on another one (it would lose a free lock); a delete there.
   */
  @Override
  public void deleteNoReply(String key) {
    if (!deletesNoReply) {
      delete(key);
      return;
    }
    Keys.check(key);
    try {
      client.deleteWithNoReply(key);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw failure("delete (noreply)", key, e);
    } catch (MemcachedException | RuntimeException e) {
      throw failure("delete (noreply)", key, e);
    }
  }

  /**
   * Over one connection, one round trip: the add sent {@code noreply}, then a multi-get of its key
   * and {@code keys}, answered after the add; the add was won when its key holds {@code value}
   * (unique to the caller). Should the key be gone already (evicted, or expired at once), the
   * plain add decides. With several servers or connections, or the binary protocol, the add, then the reads.
   */
  @Override
  public Map<String, byte[]> addThenGetMulti(String addKey, byte[] value, int ttlSeconds, Collection<String> keys) {
    if (!pipelines) {
      return Store.super.addThenGetMulti(addKey, value, ttlSeconds, keys);
    }
    checkWrite(addKey, value, ttlSeconds);
    keys.forEach(Keys::check);
    List<String> asked = new ArrayList<>(keys.size() + 1);
    asked.add(addKey);
    asked.addAll(keys);
    Map<String, byte[]> found = call("add+getMulti", asked, () -> {
      client.addWithNoReply(addKey, ttlSeconds, value, RawBytesTranscoder.INSTANCE);
      return client.get(asked, opTimeoutMillis, RawBytesTranscoder.INSTANCE);
    });
    Map<String, byte[]> values = found == null ? new HashMap<>() : new HashMap<>(found);
    byte[] holder = values.remove(addKey);
    if (holder == null) {
      return Store.super.addThenGetMulti(addKey, value, ttlSeconds, keys);
    }
    return Arrays.equals(holder, value) ? values : null;
  }

  /** xmemcached stores {@code initial} as decimal ASCII on a missing key (text: via add). */
  @Override
  public long incr(String key, long delta, long initial, int ttlSeconds) {
    Values.checkCounter(Keys.check(key), delta, initial);
    Values.checkTtl(key, ttlSeconds);
    return call("incr", key, () -> client.incr(key, delta, initial, opTimeoutMillis, ttlSeconds));
  }

  @Override
  public long decr(String key, long delta, long initial, int ttlSeconds) {
    Values.checkCounter(Keys.check(key), delta, initial);
    Values.checkTtl(key, ttlSeconds);
    return call("decr", key, () -> client.decr(key, delta, initial, opTimeoutMillis, ttlSeconds));
  }

  @Override
  public boolean touch(String key, int ttlSeconds) {
    Values.checkTtl(Keys.check(key), ttlSeconds);
    return call("touch", key, () -> client.touch(key, ttlSeconds, opTimeoutMillis));
  }

  /**
   * Never throws: a server that is disconnected, or does not answer {@code stats} within the op
   * timeout, is reported down. Slabs come from one query to all servers at once, which xmemcached
   * answers all or nothing, so they are empty everywhere when any server fails to answer it.
   */
  @Override
  public List<ServerStats> serverStats() {
    roundTrips.increment();
    Set<InetSocketAddress> available = new HashSet<>(client.getAvailableServers());
    Map<InetSocketAddress, Map<String, String>> slabs = available.isEmpty() ? Map.of() : slabs();
    List<ServerStats> result = new ArrayList<>(servers.size());
    for (int i = 0; i < servers.size(); i++) {
      InetSocketAddress address = servers.addresses().get(i);
      Map<String, String> stats = available.contains(address) ? stats(address) : null;
      result.add(stats == null
          ? new ServerStats(servers.hostPort(i), false, Map.of(), Map.of())
          : new ServerStats(servers.hostPort(i), true, stats, slabs.getOrDefault(address, Map.of())));
    }
    return result;
  }

  private Map<String, String> stats(InetSocketAddress address) {
    try {
      return client.stats(address, opTimeoutMillis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    } catch (TimeoutException | MemcachedException | RuntimeException e) {
      return null;
    }
  }

  private Map<InetSocketAddress, Map<String, String>> slabs() {
    try {
      return client.getStatsByItem("slabs", opTimeoutMillis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Map.of();
    } catch (TimeoutException | MemcachedException | RuntimeException e) {
      return Map.of();
    }
  }

  @Override
  public long roundTrips() {
    return roundTrips.sum();
  }

  @Override
  public String describe() {
    return description;
  }

  /**
   * Shuts the client down. xmemcached sends {@code quit} to every connection and waits up to 5 s
   * for them to close, so this can take 5 s when a server hangs (or, seen in tests, when the store
   * is closed microseconds after it was built).
   */
  @Override
  public void close() {
    try {
      client.shutdown();
    } catch (IOException e) {
      // Shutting down: the connections are being dropped either way.
    }
  }

  private static void checkWrite(String key, byte[] value, int ttlSeconds) {
    Values.check(Keys.check(key), value);
    Values.checkTtl(key, ttlSeconds);
  }

  /** One memcached call: counted, and every way it can fail turned into a StoreException. */
  private <T> T call(String operation, Object subject, Call<T> call) {
    roundTrips.increment();
    try {
      return call.run();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw failure(operation, subject, e);
    } catch (TimeoutException | MemcachedException | RuntimeException e) {
      throw failure(operation, subject, e);
    }
  }

  /** Formatted only on failure, to keep the hit path free of string building. */
  private StoreException failure(String operation, Object subject, Exception e) {
    String what = subject instanceof Collection<?> keys ? "of " + keys.size() + " keys" : "'" + subject + "'";
    String why = e instanceof TimeoutException ? "timed out after " + opTimeoutMillis + " ms"
        : e instanceof InterruptedException ? "interrupted"
        : e.getClass().getSimpleName() + ": " + e.getMessage();
    return new StoreException(description + " " + operation + " " + what + " failed: " + why, e);
  }

  private static String describe(ServerList servers) {
    List<String> names = new ArrayList<>();
    for (int i = 0; i < servers.size(); i++) {
      names.add(servers.hostPort(i));
    }
    return "memcached[" + String.join(",", names) + "]";
  }

  @FunctionalInterface
  private interface Call<T> {
    T run() throws TimeoutException, InterruptedException, MemcachedException;
  }
}
