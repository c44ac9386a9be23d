package org.pagecache;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.pagecache.internal.cluster.ClusterSettings;
import org.pagecache.counters.CountSink;
import org.pagecache.counters.CountSource;
import org.pagecache.counters.CountersSettings;
import org.pagecache.internal.config.Durations;
import org.pagecache.internal.config.Specs;
import org.pagecache.internal.key.IgnoredCookies;
import org.pagecache.internal.key.IgnoredParameters;
import org.pagecache.internal.near.NearSize;
import org.pagecache.internal.nodes.ClusterStore;
import org.pagecache.internal.vary.DeviceRules;
import org.pagecache.store.Namespace;
import org.pagecache.store.ServerList;
import org.pagecache.store.Store;
import org.pagecache.store.Values;

/**
 * Every setting of the page cache, validated all at once: a bad value fails start-up with a message
 * naming the parameter, the value and what is accepted; several bad values are reported together.
 *
 * <p>Each parameter {@code name} is looked up, in this order: the system property
 * {@code pagecache.name}, the environment variable {@code PAGECACHE_NAME} (upper case, dots and
 * dashes as underscores: {@code memcached.servers} is {@code PAGECACHE_MEMCACHED_SERVERS}), the
 * filter's init-param {@code name}, then the default. So a WAR deployed unchanged can be configured
 * from the environment.
 *
 * <pre>
 *   PageCacheConfig config = PageCacheConfig.builder()
 *       .set("memcached.servers", "127.0.0.1:11211")
 *       .set("policies", "article: ttl=5m, paths=/article/*")
 *       .build();
 * </pre>
 */
public final class PageCacheConfig {
  /** Parameters with their defaults, in the order the table in docs/configuration.md shows them. */
  static final Map<String, String> DEFAULTS = defaults();

  private static Map<String, String> defaults() {
    Map<String, String> d = new LinkedHashMap<>();
    d.put("memcached.servers", "");
    d.put("memcached.protocol", "text");
    d.put("memcached.op.timeout", "200ms");
    d.put("memcached.connect.timeout", "1s");
    d.put("memcached.pool.size", "1");
    d.put("memcached.proxy", "auto");
    d.put("memcached.remote", "");
    d.put("memcached.remote.backlog", "10000");
    d.put("memcached.warm.from", "");
    d.put("memcached.warm.for", "30m");
    d.put("memcached.gutter", "");
    d.put("gutter.ttl", "10s");
    d.put("memcached.pools", "");
    d.put("namespace", "pc");
    d.put("ttl", "60s");
    d.put("grace", "10m");
    d.put("policies", "");
    d.put("cookies.ignore", "");
    d.put("params.ignore", "");
    d.put("params.keep", "");
    d.put("params.key", "all");
    d.put("device.tablet", "");
    d.put("device.mobile", "");
    d.put("device.bot", "");
    d.put("device.bots", "desktop");
    d.put("device.mobile.agent", "");
    d.put("device.tablet.agent", "");
    d.put("device.desktop.agent", "");
    d.put("tags.headers", "strip");
    d.put("max.entry.size", "1000000");
    d.put("header", "X-Cache");
    d.put("lock.ttl", "10s");
    d.put("lock.wait", "3s");
    d.put("rebuild.background", "32");
    d.put("fragments.timeout", "200ms");
    d.put("uncacheable.ttl", "30s");
    d.put("tag.cache", "1s");
    d.put("near.size", "auto");
    d.put("near.trust", "1s");
    d.put("identity.copies", "on");
    d.put("replica.lag", "5s");
    d.put("retry.interval", "1s");
    d.put("counters", "local-aggregation=1s");
    d.put("online", "off");
    d.put("admin.token", "");
    d.put("admin.role", "pagecache-admin");
    return Map.copyOf(d);
  }

  final String servers;
  /** The servers parsed (and resolved) once, at start-up; null for the in-process store. */
  final ServerList serverList;
  final boolean binaryProtocol;
  final Duration opTimeout;
  final Duration connectTimeout;
  final int poolSize;
  /** memcached.proxy: whether the servers are memcached proxies (twemproxy, mcrouter). */
  final ClusterStore.ProxyMode proxy;
  /** The other clusters and the warm-up (issue 19): memcached.remote, .remote.backlog, .warm.from, .warm.for. */
  final ClusterSettings clusters;
  /** The gutter pool parsed at start-up; null when there is none. */
  final ServerList gutterList;
  final Duration gutterTtl;
  /** Named pools for the pages of some handlers; empty when none. */
  final Map<String, ServerList> pools;
  final Namespace namespace;
  final Duration ttl;
  final Duration grace;
  final Policies policies;
  final IgnoredCookies ignoredCookies;
  /** Query parameters out of keys: the built-in tracking list, params.ignore, params.keep. */
  final IgnoredParameters ignoredParameters;
  /** {@code vary=device}'s rules: the device.* settings (empty: the built-in patterns and agents). */
  final DeviceRules deviceRules;
  /** tags.headers=pass: Surrogate-Key, Cache-Tag and xkey go on to the client (a CDN in front). */
  final boolean passTagHeaders;
  /** identity.copies=on: a gzipped page's identity copy kept beside it for clients without gzip (issue 38). */
  final boolean identityCopies;
  final int maxEntrySize;
  final String header;
  final Duration lockTtl;
  final Duration lockWait;
  /** {@code rebuild.background}: stale pages rebuilt at once off the visitors' requests, per JVM; 0 turns it off. */
  final int backgroundRebuilds;
  /** The longest a fragment renderer may take before its part is left empty ({@code fragments.timeout}). */
  final Duration fragmentsTimeout;
  final Duration uncacheableTtl;
  final Duration tagCache;
  final long nearSize;
  /** How {@code near.size} was chosen ("10 % of a 3.0 GiB heap", "set by near.size"). */
  final String nearSizeWhy;
  final Duration nearTrust;
  final Duration replicaLag;
  final Duration retryInterval;
  final CountersSettings counters;
  final String online;
  final CountSource countSource;
  final CountSink countSink;
  final String adminToken;
  final String adminRole;
  final Clock clock;
  final Store store;
  private final Map<String, String> values;

  private static final Duration THIRTY_DAYS = Duration.ofDays(30);

  /** Headers with a meaning of their own: writing "HIT" into one would break responses. */
  private static final Set<String> HTTP_HEADERS = Set.of("accept-ranges", "age", "cache-control", "cache-status",
      "connection", "content-disposition", "content-encoding", "content-language", "content-length",
      "content-location", "content-range", "content-type", "date", "etag", "expires", "keep-alive",
      "last-modified", "location", "pragma", "retry-after", "server", "set-cookie", "strict-transport-security",
      "trailer", "transfer-encoding", "upgrade", "vary", "via", "www-authenticate");

  private PageCacheConfig(Map<String, String> v, Clock clock, Store store, CountSource source, CountSink sink) {
    this(v, clock, store, source, sink, null);
  }

  /** @param parsedServers the server list of a configuration this one copies (parsed and resolved once), or null */
  private PageCacheConfig(Map<String, String> v, Clock clock, Store store, CountSource source, CountSink sink,
      ServerList parsedServers) {
    List<String> errors = new ArrayList<>();
    this.values = v;
    this.clock = clock;
    this.store = store;
    servers = v.get("memcached.servers").trim();
    serverList = servers.isEmpty() ? null : parsedServers != null ? parsedServers
        : check(errors, () -> ServerList.parse("memcached.servers", servers), null);
    binaryProtocol = check(errors, () -> protocol(v.get("memcached.protocol")), false);
    opTimeout = check(errors, () -> positive("memcached.op.timeout", v), Duration.ofMillis(200));
    connectTimeout = check(errors, () -> positive("memcached.connect.timeout", v), Duration.ofSeconds(1));
    poolSize = check(errors, () -> ParameterValues.positiveInt("memcached.pool.size", v.get("memcached.pool.size"), 64), 1);
    proxy = check(errors, () -> proxyMode(v.get("memcached.proxy"), binaryProtocol), ClusterStore.ProxyMode.AUTO);
    clusters = check(errors, () -> ClusterSettings.parse(v.get("memcached.remote"), v.get("memcached.remote.backlog"),
        v.get("memcached.warm.from"), v.get("memcached.warm.for"), serverList), ClusterSettings.NONE);
    String gutter = v.get("memcached.gutter").trim();
    gutterList = gutter.isEmpty() ? null : check(errors, () -> ServerList.parse("memcached.gutter", gutter), null);
    gutterTtl = check(errors, () -> expiry("gutter.ttl", v), Duration.ofSeconds(10));
    gutterProblem(serverList, gutterList, gutter).ifPresent(errors::add);
    namespace = check(errors, () -> new Namespace(v.get("namespace").trim()), new Namespace("pc"));
    ttl = check(errors, () -> positive("ttl", v), Duration.ofSeconds(60));
    grace = check(errors, () -> Durations.parse("grace", v.get("grace")), Duration.ofMinutes(10));
    boolean keyOnReads = check(errors, () -> CachePolicy.paramsMode("params.key", v.get("params.key")), false);
    policies = check(errors, () -> Policies.parse(v.get("policies"),
        CachePolicy.defaults("", ttl, grace).keyedOnReads(keyOnReads)),
        Policies.parse("", CachePolicy.defaults("", ttl, grace)));
    pools = check(errors, () -> MemcachedPools.parse(v.get("memcached.pools")), Map.of());
    String poolProblem = MemcachedPools.problem(pools, serverList, gutterList, policies);
    if (poolProblem != null) {
      errors.add(poolProblem);
    }
    ignoredCookies = check(errors, () -> IgnoredCookies.parse("cookies.ignore", v.get("cookies.ignore")),
        IgnoredCookies.builtIn());
    ignoredParameters = check(errors, () -> IgnoredParameters.parse("params.ignore", v.get("params.ignore"),
        "params.keep", v.get("params.keep")), IgnoredParameters.builtIn());
    deviceRules = check(errors, () -> DeviceRules.parse(v.get("device.tablet"), v.get("device.mobile"),
        v.get("device.bot"), v.get("device.bots"), v.get("device.mobile.agent"), v.get("device.tablet.agent"),
        v.get("device.desktop.agent")), DeviceRules.DEFAULTS);
    passTagHeaders = check(errors, () -> tagHeaders(v.get("tags.headers")), false);
    identityCopies = check(errors, () -> identityCopies(v.get("identity.copies")), true);
    maxEntrySize = check(errors, () -> entrySize(v.get("max.entry.size")), 1_000_000);
    header = check(errors, () -> headerName(v.get("header")), "X-Cache");
    lockTtl = check(errors, () -> expiry("lock.ttl", v), Duration.ofSeconds(10));
    lockWait = check(errors, () -> Durations.parse("lock.wait", v.get("lock.wait")), Duration.ofSeconds(3));
    backgroundRebuilds = check(errors,
        () -> ParameterValues.wholeNumber("rebuild.background", v.get("rebuild.background"), 0, 256), 32);
    fragmentsTimeout = check(errors, () -> positive("fragments.timeout", v), Duration.ofMillis(200));
    uncacheableTtl = check(errors, () -> expiry("uncacheable.ttl", v), Duration.ofSeconds(30));
    tagCache = check(errors, () -> Durations.parse("tag.cache", v.get("tag.cache")), Duration.ofSeconds(1));
    NearSize near = check(errors, () -> nearSize(v.get("near.size"), Runtime.getRuntime().maxMemory()),
        NearSize.set(NearSize.FLOOR));
    nearSize = near.bytes();
    nearSizeWhy = near.why();
    nearTrust = check(errors, () -> nearTrust(v.get("near.trust")), Duration.ofSeconds(1));
    replicaLag = check(errors, () -> Durations.parse("replica.lag", v.get("replica.lag")), Duration.ofSeconds(5));
    retryInterval = check(errors, () -> positive("retry.interval", v), Duration.ofSeconds(1));
    counters = check(errors, () -> CountersSettings.parse(countersSpec(v.get("counters"))), CountersSettings.DEFAULTS);
    online = check(errors, () -> online(v.get("online")), "off");
    countSource = source;
    countSink = sink;
    adminToken = v.get("admin.token").trim();
    adminRole = v.get("admin.role").trim();
    if (lockTtl.compareTo(lockWait) < 0) {
      errors.add("lock.wait: '" + v.get("lock.wait") + "' must not be longer than lock.ttl ('" + v.get("lock.ttl") + "')");
    }
    if (!errors.isEmpty()) {
      throw new IllegalArgumentException("PageCache configuration is invalid:\n  " + String.join("\n  ", errors));
    }
  }

  /**
   * Reads every parameter from system properties, the environment and the given init-params.
   *
   * @param initParams the value of an init-param by name, null when it is not set
   * @throws IllegalArgumentException listing every invalid parameter with its value and what is accepted
   */
  public static PageCacheConfig from(Function<String, String> initParams) {
    return from(initParams, System::getProperty, System::getenv, Clock.systemUTC(), null);
  }

  static PageCacheConfig from(Function<String, String> initParams, Function<String, String> sysProps,
      Function<String, String> env, Clock clock, Store store) {
    return from(initParams, sysProps, env, clock, store, null, null);
  }

  static PageCacheConfig from(Function<String, String> initParams, Function<String, String> sysProps,
      Function<String, String> env, Clock clock, Store store, CountSource source, CountSink sink) {
    Map<String, String> v = new LinkedHashMap<>();
    for (Map.Entry<String, String> d : DEFAULTS.entrySet()) {
      String name = d.getKey();
      String value = sysProps.apply("pagecache." + name);
      if (value == null) {
        value = env.apply(envName(name));
      }
      if (value == null) {
        value = initParams.apply(name);
      }
      v.put(name, value == null ? d.getValue() : value);
    }
    return new PageCacheConfig(v, clock, store, source, sink);
  }

  /** This configuration with the application's counter source and sink (from the ServletContext). */
  PageCacheConfig withCounting(CountSource source, CountSink sink) {
    if ((source == null || countSource != null) && (sink == null || countSink != null)) {
      return this; // nothing to add
    }
    return new PageCacheConfig(values, clock, store, countSource != null ? countSource : source,
        countSink != null ? countSink : sink, serverList); // the servers are not looked up again
  }

  /** {@code memcached.servers} → {@code PAGECACHE_MEMCACHED_SERVERS}. */
  public static String envName(String param) {
    return "PAGECACHE_" + param.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
  }

  /** Starts a programmatic configuration; every parameter not set keeps its default. */
  public static Builder builder() {
    return new Builder();
  }

  /** The effective value of a parameter (for the admin page; the admin token is never shown). */
  public String value(String name) {
    return name.equals("admin.token") ? (adminToken.isEmpty() ? "" : "(set)") : values.get(name);
  }

  /**
   * How long a request waits for another request's build of the same page when nothing is
   * cached, before building it itself ({@code lock.wait}, default 3s).
   */
  public Duration lockWait() {
    return lockWait;
  }

  /**
   * The bearer token of the admin API ({@code admin.token}); empty when not set, and then no
   * request gets in with a token.
   */
  public String adminToken() {
    return adminToken;
  }

  /**
   * The container role allowed into the admin servlet ({@code admin.role}, default
   * {@code pagecache-admin}); empty turns role-based access off.
   */
  public String adminRole() {
    return adminRole;
  }

  /** The prefix of every key this application writes to memcached ({@code namespace}, default {@code pc}). */
  public Namespace namespace() {
    return namespace;
  }

  /** The clock of TTLs, tokens and counters: the system UTC clock unless {@link Builder#clock} set another. */
  public Clock clock() {
    return clock;
  }

  /**
   * Every parameter with its effective value, for display: the admin token shows as
   * {@code (set)} or empty. A copy; changing it changes nothing.
   */
  public Map<String, String> values() {
    Map<String, String> shown = new LinkedHashMap<>(values);
    shown.put("admin.token", value("admin.token"));
    return shown;
  }

  /** Programmatic configuration with the same names, validation and precedence as web.xml. */
  public static final class Builder {
    private final Map<String, String> params = new LinkedHashMap<>();
    private Clock clock = Clock.systemUTC();
    private Store store;
    private boolean environment = true;
    private CountSource source;
    private CountSink sink;

    /**
     * Sets a parameter by its web.xml name, e.g. {@code set("ttl", "5m")}. A system property or
     * environment variable of the same parameter still wins unless {@link #ignoreEnvironment()};
     * the value itself is checked by {@link #build()}.
     *
     * @throws IllegalArgumentException when {@code name} is not a PageCache parameter (the
     *     message lists them)
     */
    public Builder set(String name, String value) {
      if (!DEFAULTS.containsKey(name)) {
        throw new IllegalArgumentException("'" + name + "' is not a PageCache parameter; parameters: "
            + String.join(", ", DEFAULTS.keySet()));
      }
      params.put(name, value);
      return this;
    }

    /** The clock for TTLs, tokens and windows; tests move it instead of waiting. */
    public Builder clock(Clock clock) {
      this.clock = clock;
      return this;
    }

    /** Uses this store instead of building one from memcached.servers (tests, custom stores). */
    public Builder store(Store store) {
      this.store = store;
      return this;
    }

    /** Where a view counter missing from memcached starts, e.g. the views column of the database. */
    public Builder countSource(CountSource source) {
      this.source = source;
      return this;
    }

    /** Where counted views are flushed periodically, e.g. an UPDATE of the views column. */
    public Builder countSink(CountSink sink) {
      this.sink = sink;
      return this;
    }

    /** Ignores system properties and environment variables (tests that must not see the machine's). */
    public Builder ignoreEnvironment() {
      this.environment = false;
      return this;
    }

    /**
     * The configuration, validated as a whole.
     *
     * @throws IllegalArgumentException listing every invalid parameter with its value and what
     *     is accepted
     */
    public PageCacheConfig build() {
      Function<String, String> none = name -> null;
      return from(params::get, environment ? System::getProperty : none,
          environment ? System::getenv : none, clock, store, source, sink);
    }
  }

  private interface Parse<T> {
    T get();
  }

  private static <T> T check(List<String> errors, Parse<T> parse, T fallback) {
    try {
      return parse.get();
    } catch (IllegalArgumentException e) {
      errors.add(e.getMessage());
      return fallback;
    }
  }

  /** A gutter needs a cluster to stand in for, and must not be part of it. */
  private static java.util.Optional<String> gutterProblem(ServerList cluster, ServerList gutter, String written) {
    if (gutter == null) {
      return java.util.Optional.empty();
    }
    if (cluster == null) {
      return java.util.Optional.of("memcached.gutter: '" + written + "' needs memcached.servers: a gutter stands in"
          + " for failed nodes of a cluster; set memcached.servers too, or leave memcached.gutter empty");
    }
    for (int i = 0; i < gutter.size(); i++) {
      for (int j = 0; j < cluster.size(); j++) {
        if (gutter.addresses().get(i).equals(cluster.addresses().get(j))) {
          return java.util.Optional.of("memcached.gutter: '" + gutter.hostPort(i) + "' is also in memcached.servers;"
              + " gutter nodes must be other memcached servers, kept empty for failures");
        }
      }
    }
    return java.util.Optional.empty();
  }

  private static Duration positive(String name, Map<String, String> v) {
    Duration d = Durations.parse(name, v.get(name));
    if (d.isZero()) {
      throw new IllegalArgumentException(name + ": '" + v.get(name) + "' must be more than 0");
    }
    return d;
  }

  /**
   * A memcached expiry of its own: above 30 days memcached reads the number as an absolute Unix
   * time (a lock would be expired at once), so longer values are refused.
   */
  private static Duration expiry(String name, Map<String, String> v) {
    Duration d = positive(name, v);
    if (d.compareTo(THIRTY_DAYS) > 0) {
      throw new IllegalArgumentException(name + ": '" + v.get(name) + "' must be at most 30d (memcached's longest relative expiry)");
    }
    return d;
  }

  /**
   * Views are aggregated in the JVM for 1s unless the spec says otherwise: a hot page with a view
   * counter then costs memcached one {@code incr} per second per JVM, not one per hit (the count
   * shown lags other JVMs' views by at most that second; none is lost or counted twice).
   */
  private static String countersSpec(String spec) {
    if (Specs.keyValues(spec).stream().anyMatch(item -> item.name().matches("local-aggregation|localAggregation"))) {
      return spec;
    }
    return spec.isBlank() ? "local-aggregation=1s" : "local-aggregation=1s, " + spec;
  }

  /**
   * {@code near.size}: auto (a share of the heap, {@link NearSize#forHeap}), a percentage of the
   * heap, or bytes (k, m or g); 0 turns the near cache off.
   */
  static NearSize nearSize(String value, long maxHeap) {
    String v = value.trim().toLowerCase(Locale.ROOT);
    if (v.equals("auto")) {
      return NearSize.forHeap(maxHeap);
    }
    if (v.endsWith("%")) {
      String n = v.substring(0, v.length() - 1).trim();
      if (n.matches("\\d{1,2}") && Integer.parseInt(n) >= 1 && Integer.parseInt(n) <= NearSize.MAX_PERCENT) {
        return NearSize.share(Integer.parseInt(n), maxHeap);
      }
      throw new IllegalArgumentException("near.size: '" + value + "' is not a share of the heap; use a whole"
          + " percentage from 1% to " + NearSize.MAX_PERCENT + "%, e.g. 10%");
    }
    if (v.matches("\\d{1,4}\\s*g")) {
      return NearSize.set(Long.parseLong(v.substring(0, v.length() - 1).trim()) << 30);
    }
    try {
      return NearSize.set(ParameterValues.size("near.size", value));
    } catch (IllegalArgumentException e) {
      if (e.getMessage().endsWith("too large")) {
        throw e;
      }
      throw new IllegalArgumentException("near.size: '" + value + "' is not a size; use auto (a share of the heap),"
          + " a percentage of the heap (e.g. 10%), bytes with an optional k, m or g (e.g. 64m, 1g), or 0 to turn it off");
    }
  }

  private static Duration nearTrust(String value) {
    Duration d = Durations.parse("near.trust", value);
    if (d.compareTo(Duration.ofMinutes(1)) > 0) {
      throw new IllegalArgumentException("near.trust: '" + value
          + "' must be at most 1m: it is how long another server's refresh may go unseen here");
    }
    return d;
  }

  private static String online(String value) {
    String v = value.trim();
    if (v.equals("off") || v.equals("on") || v.matches("cookie:[A-Za-z0-9!#$%&'*+.^_`|~-]{1,64}")) {
      return v;
    }
    throw new IllegalArgumentException("online: '" + value
        + "' is not off, on, or cookie:NAME (count visitors by a cookie the application already sets)");
  }

  /** Proxies speak memcached's text protocol only (twemproxy and mcrouter have no binary protocol). */
  private static ClusterStore.ProxyMode proxyMode(String value, boolean binary) {
    ClusterStore.ProxyMode mode = switch (value.trim().toLowerCase(Locale.ROOT)) {
      case "auto" -> ClusterStore.ProxyMode.AUTO;
      case "on" -> ClusterStore.ProxyMode.ON;
      case "off" -> ClusterStore.ProxyMode.OFF;
      default -> throw new IllegalArgumentException("memcached.proxy: '" + value + "' is not auto, on or off"
          + " (on: every server is a memcached proxy such as twemproxy or mcrouter)");
    };
    if (mode == ClusterStore.ProxyMode.ON && binary) {
      throw new IllegalArgumentException("memcached.proxy: 'on' needs memcached.protocol=text: memcached proxies"
          + " (twemproxy, mcrouter) speak the text protocol only");
    }
    return mode;
  }

  private static boolean protocol(String value) {
    return switch (value.trim().toLowerCase(Locale.ROOT)) {
      case "text" -> false;
      case "binary" -> true;
      default -> throw new IllegalArgumentException("memcached.protocol: '" + value + "' is not a protocol; use text or binary");
    };
  }

  private static int entrySize(String value) {
    int size = ParameterValues.size("max.entry.size", value);
    if (size < 1024 || size > Values.MAX_VALUE_BYTES) {
      throw new IllegalArgumentException("max.entry.size: '" + value + "' must be from 1k to "
          + Values.MAX_VALUE_BYTES + " bytes (memcached's item limit is 1 MiB including the key)");
    }
    return size;
  }

  private static boolean identityCopies(String value) {
    return switch (value.trim().toLowerCase(Locale.ROOT)) {
      case "on" -> true;
      case "off" -> false;
      default -> throw new IllegalArgumentException("identity.copies: '" + value + "' must be on (clients without gzip"
          + " read a page's identity copy kept beside it in memcached) or off (they get the stored gzip body inflated)");
    };
  }

  private static boolean tagHeaders(String value) {
    return switch (value.trim().toLowerCase(Locale.ROOT)) {
      case "strip" -> false;
      case "pass" -> true;
      default -> throw new IllegalArgumentException("tags.headers: '" + value + "' must be strip (Surrogate-Key, Cache-Tag"
          + " and xkey never reach the client) or pass (they go on to a CDN in front)");
    };
  }

  private static String headerName(String value) {
    String v = value.trim();
    if (v.isEmpty() || v.equalsIgnoreCase("none") || v.equalsIgnoreCase("off")) {
      return null;
    }
    if (!v.matches("[A-Za-z0-9-]{1,64}")) {
      throw new IllegalArgumentException("header: '" + value + "' is not a header name; use e.g. X-Cache, or none to turn it off");
    }
    if (HTTP_HEADERS.contains(v.toLowerCase(Locale.ROOT))) {
      throw new IllegalArgumentException("header: '" + value + "' is a standard HTTP header that the filter or"
          + " the container sets; use a name of its own, e.g. X-Cache, or none to turn it off");
    }
    return v;
  }

  /**
   * Every parameter name with its default (unordered): for integrations that read
   * the parameters from their own configuration (the Spring Boot starter's {@code pagecache.*}).
   */
  public static Map<String, String> parameters() {
    return DEFAULTS;
  }
}
