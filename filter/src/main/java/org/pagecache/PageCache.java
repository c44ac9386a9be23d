package org.pagecache;

import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletRegistration;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.http.HttpServletRequest;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Function;
import org.pagecache.internal.cluster.ClusterState;
import org.pagecache.internal.cluster.Delivery;
import org.pagecache.internal.sitewide.SiteFigures;
import org.pagecache.internal.sitewide.SiteTotals;
import org.pagecache.counters.Counters;
import org.pagecache.internal.nodes.ClusterStore;
import org.pagecache.internal.freshness.Evictions;
import org.pagecache.internal.near.NearCache;
import org.pagecache.internal.fragments.Fragments;
import org.pagecache.internal.fragments.KeptFragment;
import org.pagecache.internal.fragments.Placeholders;
import org.pagecache.internal.text.PathParameters;
import org.pagecache.store.LocalStore;
import org.pagecache.store.MemcachedStore;
import org.pagecache.store.Store;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The page cache of one web application: what the filter uses, and what application code calls to
 * refresh a handler, invalidate a tag or evict a page (e.g. from a CMS webhook). One instance per
 * ServletContext, found with {@link #from(ServletContext)}.
 *
 * <pre>
 *   PageCache cache = PageCache.from(servletContext);
 *   cache.refreshHandler("article");          // every article page rebuilds on its next request
 *   cache.invalidateTag("article:42");        // every page showing article 42, whatever its handler
 *
 *   // while building a page:
 *   PageCache.tag(request, "article:42", "section:sport");
 *   PageCache.countView(request, "article:42");
 * </pre>
 */
public final class PageCache implements AutoCloseable {
  /** The ServletContext attribute under which the filter publishes its instance. */
  public static final String CONTEXT_ATTRIBUTE = PageCache.class.getName();
  /**
   * Request attribute (a Long, milliseconds) set on a rebuild that follows a refresh or tag
   * invalidation younger than {@code replica.lag}: read from the primary database, not a replica
   * that may not have the editor's change yet.
   */
  public static final String INVALIDATED_AGO_ATTRIBUTE = "org.pagecache.invalidatedAgoMillis";
  /**
   * Request attribute (a String) naming the request's handler, set by a filter ahead of the
   * PageCacheFilter when one servlet serves many handlers (the Spring Boot starter sets the
   * controller method's handler). A policy's {@code paths} still win over it; without it the
   * servlet's name is the handler. The name must be valid (1 to 64 of A-Z a-z 0-9 _ . -) and bounded
   * in number: it keys pages, tokens and metrics.
   */
  public static final String HANDLER_ATTRIBUTE = "org.pagecache.handler";
  /**
   * Request attribute (any value) a handler sets on a successful write (POST, PUT, DELETE...) that
   * changes no page, before its response starts: the cache then does not evict the write's URL and
   * {@code Location} (docs/freshness.md, "Writes invalidate"), nor send that eviction to the other
   * clusters. The admin servlet sets it on its own actions; an analytics beacon may too.
   */
  public static final String CHANGES_NO_PAGE_ATTRIBUTE = "org.pagecache.changesNoPage";
  static final String TAGS_ATTRIBUTE = "org.pagecache.tags";
  static final String VIEWS_ATTRIBUTE = "org.pagecache.views";
  static final int MAX_TAGS = 64;
  static final int MAX_TAG_LENGTH = 200;

  private static final Logger log = LoggerFactory.getLogger(PageCache.class);

  final PageCacheConfig config;
  /** The parts the request path works with. */
  final Engine engine;
  private volatile ServletContext servletContext;
  private volatile Function<String, String> handlerByPath = path -> null;

  PageCache(PageCacheConfig config) {
    this.config = config;
    this.engine = new Engine(config, config.store != null ? config.store : newStore(config));
  }

  /** Starts a page cache (connects to memcached, or makes the in-process store). */
  public static PageCache start(PageCacheConfig config) {
    return new PageCache(config);
  }

  private static Store newStore(PageCacheConfig config) {
    if (config.servers.isEmpty()) {
      log.warn("pagecache: memcached.servers is empty: using the in-process store. It is single-JVM only:"
          + " refreshes, locks and counters do not reach other servers. Set PAGECACHE_MEMCACHED_SERVERS=host:port,...");
      return new LocalStore(config.clock, 64L * 1024 * 1024);
    }
    // One client per node behind this class's own ring: each node judged on its own (docs/failures.md).
    Store s = ClusterStore.connect(new ClusterStore.Settings(config.serverList, config.gutterList, config.gutterTtl,
        config.pools, config.policies.pools(), config.policies.defaultPool(), config.binaryProtocol, config.connectTimeout, config.opTimeout, config.poolSize, config.namespace,
        config.clock, config.retryInterval, config.proxy));
    log.info("pagecache: using {}", s.describe());
    return s;
  }

  /** The instance the PageCacheFilter of this web application published; null if none. */
  public static PageCache from(ServletContext context) {
    return (PageCache) context.getAttribute(CONTEXT_ATTRIBUTE);
  }

  void attach(ServletContext context) {
    this.servletContext = context;
  }

  /**
   * What a refresh did. {@code known} is false for a handler this cache has never seen nor configured.
   *
   * @param handler the handler refreshed
   * @param token its new update token: the time of the refresh in epoch milliseconds, raised past
   *     the previous token when clocks disagree
   * @param known false for a handler this cache has never seen nor configured (perhaps misspelt)
   * @param clusters which memcached clusters have the new token, and which will (memcached.remote)
   */
  public record Refresh(String handler, long token, boolean known, ClusterDelivery clusters) {
    /** A refresh of this cluster only. */
    public Refresh(String handler, long token, boolean known) {
      this(handler, token, known, ClusterDelivery.ONLY_LOCAL);
    }
  }

  /**
   * What a tag invalidation did.
   *
   * @param tag the tag invalidated
   * @param version its new version: the time of the invalidation in epoch milliseconds, raised
   *     past the previous version when clocks disagree
   * @param clusters which memcached clusters have the new version, and which will (memcached.remote)
   * @param hard true for a hard purge ({@link #purgeTags}): the tag's pages are never served again, not even stale
   */
  public record TagInvalidation(String tag, long version, ClusterDelivery clusters, boolean hard) {
    /** An invalidation in this cluster only. */
    public TagInvalidation(String tag, long version) {
      this(tag, version, ClusterDelivery.ONLY_LOCAL, false);
    }

    /** A soft invalidation. */
    public TagInvalidation(String tag, long version, ClusterDelivery clusters) {
      this(tag, version, clusters, false);
    }
  }

  /**
   * What an eviction did: the handler the URL belongs to and whether a page was stored.
   *
   * @param url the URL as given
   * @param handler the handler the URL belongs to ({@code default} when none matches)
   * @param existed true when a page was stored under the URL and is now removed (in this cluster)
   * @param clusters which memcached clusters have removed it, and which will (memcached.remote)
   */
  public record Eviction(String url, String handler, boolean existed, ClusterDelivery clusters) {
    /** An eviction in this cluster only. */
    public Eviction(String url, String handler, boolean existed) {
      this(url, handler, existed, ClusterDelivery.ONLY_LOCAL);
    }
  }

  /**
   * Which memcached clusters a refresh, tag invalidation or eviction reached ({@code memcached.remote}).
   * This cluster is {@value #LOCAL} and is always among the delivered: when it cannot be written,
   * the call throws instead.
   *
   * @param delivered clusters that have it now
   * @param pending clusters that did not answer: this JVM retries until they do (held in memory only,
   *     see docs/failures.md)
   * @param lost clusters whose backlog was full ({@code memcached.remote.backlog}): they will not get
   *     it, and serve the pages it concerns until those expire
   */
  public record ClusterDelivery(List<String> delivered, List<String> pending, List<String> lost) {
    /** The name this cluster goes by in a delivery. */
    public static final String LOCAL = Delivery.LOCAL;

    /** With one cluster: delivered here, nothing else to do. */
    public static final ClusterDelivery ONLY_LOCAL = new ClusterDelivery(List.of(LOCAL), List.of(), List.of());

    /** Copies the lists. */
    public ClusterDelivery {
      delivered = List.copyOf(delivered);
      pending = List.copyOf(pending);
      lost = List.copyOf(lost);
    }

    static ClusterDelivery of(Delivery d) {
      return new ClusterDelivery(d.delivered(), d.pending(), d.lost());
    }

    /** True when every cluster has it. */
    public boolean complete() {
      return pending.isEmpty() && lost.isEmpty();
    }
  }

  /**
   * The other memcached clusters ({@code memcached.remote}) and the warm-up of this one, at one
   * moment, as the admin page, {@code api/stats} and the metrics show them.
   *
   * @param remotes each other cluster's delivery state, in the order configured
   * @param warmUp the warm-up's progress; null when {@code memcached.warm.from} is not set
   */
  public record ClusterStatus(List<Remote> remotes, WarmUpProgress warmUp) {
    /** Copies the list. */
    public ClusterStatus {
      remotes = List.copyOf(remotes);
    }

    static ClusterStatus of(ClusterState s) {
      List<Remote> remotes = s.remotes().stream().map(r -> new Remote(r.name(), r.servers(), r.pending(),
          r.backlogLimit(), r.oldestPendingMillis(), r.delivered(), r.lost(), r.reachable())).toList();
      ClusterState.WarmUpProgress w = s.warmUp();
      return new ClusterStatus(remotes, w == null ? null
          : new WarmUpProgress(w.from(), w.active(), w.millisLeft(), w.copied(), w.built(), w.refused()));
    }

    /**
     * One other cluster.
     *
     * @param name its name in {@code memcached.remote}
     * @param servers its servers
     * @param pending invalidations waiting for it in this JVM
     * @param backlogLimit how many may wait ({@code memcached.remote.backlog})
     * @param oldestPendingMillis how long the oldest one has waited; 0 when none waits
     * @param delivered invalidations delivered to it since start-up
     * @param lost invalidations it will never get: the backlog was full
     * @param reachable false since a delivery failed, until one succeeds
     */
    public record Remote(String name, String servers, int pending, int backlogLimit, long oldestPendingMillis,
        long delivered, long lost, boolean reachable) {}

    /**
     * The warm-up of this (cold) cluster from a warm one.
     *
     * @param from the warm cluster's name
     * @param active whether misses are still read from it
     * @param millisLeft time left of {@code memcached.warm.for}
     * @param copied pages copied from it and served
     * @param built misses built here instead (not in the warm cluster, or unreadable)
     * @param refused copies refused: stale by this cluster's tokens or tags, or evicted meanwhile
     */
    public record WarmUpProgress(String from, boolean active, long millisLeft, long copied, long built,
        long refused) {}
  }

  /**
   * This JVM's counts, per handler, at one moment: an immutable snapshot (as Caffeine's
   * {@code CacheStats}); the cache goes on counting in an object of its own.
   *
   * @param handlers every handler seen by this JVM, by name (sorted)
   */
  public record Stats(Map<String, HandlerStats> handlers) {
    /** Copies {@code handlers}, sorted by name. */
    public Stats {
      handlers = Collections.unmodifiableSortedMap(new TreeMap<>(handlers));
    }

    /** Whether this JVM has seen a request of the handler. */
    public boolean seen(String handler) {
      return handlers.containsKey(handler);
    }

    /** The handler's counts; all zero for a handler this JVM has not seen. */
    public HandlerStats handler(String handler) {
      HandlerStats h = handlers.get(handler);
      return h != null ? h : HandlerStats.none(handler);
    }

    /** The sums over every handler (named {@code *}; no trace, refresh or evidence of its own). */
    public HandlerStats total() {
      return handlers.values().stream().reduce(HandlerStats.none("*"), HandlerStats::plus);
    }
  }

  /**
   * One handler's counts since this JVM started, at one moment.
   *
   * @param handler the handler's name
   * @param hits fresh pages served from the cache
   * @param stale stale pages served while another request rebuilt them
   * @param misses requests the cache had no servable page for
   * @param rebuilds pages written to the store
   * @param lockWaits requests that waited for another request's build
   * @param bypasses GET/HEAD requests that went past the cache
   * @param storeErrors store calls that failed or timed out
   * @param builds runs of the handler that built a page, stored or not
   * @param buildNanos the total time of those runs, in nanoseconds
   * @param rebuiltSinceRefresh pages rebuilt since this JVM last refreshed the handler
   * @param lastRefreshMillis when this JVM last refreshed the handler (epoch milliseconds), 0 if never
   * @param lastRefreshBy who asked for that refresh ({@code api} or the admin's name), "" if never
   * @param lastToken the update token that refresh wrote, 0 if never
   * @param trace the last events, oldest first, one letter each (e.g. {@code MLWUHHHHSLWUHHH}:
   *     H hit, S stale, M miss, L lock, W write, U unlock, B bypass, E error)
   * @param bypassesByReason bypasses by the reason Cache-Status shows ({@code session}, {@code set-cookie}...)
   * @param cookieBypasses per cookie name (never a value): the requests it made bypass
   * @param unkeyedHeaders per request header the handler read though it is not part of the key: the builds that read it
   * @param sessionBypasses per cause (names only): requests with a session that bypassed and builds
   *     not shared because of their session ({@code user}, {@code sessions=off}, {@code attribute:cart},
   *     {@code csrf-token}, {@code value-of:NAME}...; docs/safety.md, "Sessions"), and signed-in builds
   *     not shared ({@code principal}, {@code principal-name}, {@code role:NAME}, {@code authorization},
   *     {@code cookies}) and the signed-in requests sent past the cache after one ({@code signed-in:CAUSE})
   * @param signedInRequests GET/HEAD requests of signed-in visitors under a policy that serves them
   *     from the cache ({@code signed-in=} other than bypass)
   * @param signedInHits those answered with a fresh page from the cache
   * @param fragments fragments filled in (docs/fragments.md)
   * @param fragmentNanos the total time their renderers took, in nanoseconds
   * @param fragmentFailures fragments that gave an empty part (a renderer threw, was too slow or unknown)
   * @param keyedParameters per ignored query parameter (a tracking parameter) the handler's builds
   *     read, which is part of its keys since: the builds that read it while it was not
   */
  public record HandlerStats(String handler, long hits, long stale, long misses, long rebuilds, long lockWaits,
      long bypasses, long storeErrors, long builds, long buildNanos, long rebuiltSinceRefresh,
      long lastRefreshMillis, String lastRefreshBy, long lastToken, String trace,
      Map<String, Long> bypassesByReason, Map<String, CookieBypasses> cookieBypasses,
      Map<String, Long> unkeyedHeaders, Map<String, Long> sessionBypasses, Map<String, Long> keyedParameters,
      long signedInRequests, long signedInHits, long fragments, long fragmentNanos, long fragmentFailures) {
    /** Copies the maps, sorted by name. */
    public HandlerStats {
      keyedParameters = Collections.unmodifiableSortedMap(new TreeMap<>(keyedParameters));
      sessionBypasses = Collections.unmodifiableSortedMap(new TreeMap<>(sessionBypasses));
      bypassesByReason = Collections.unmodifiableSortedMap(new TreeMap<>(bypassesByReason));
      cookieBypasses = Collections.unmodifiableSortedMap(new TreeMap<>(cookieBypasses));
      unkeyedHeaders = Collections.unmodifiableSortedMap(new TreeMap<>(unkeyedHeaders));
    }

    /** All zero: a handler not seen yet. */
    static HandlerStats none(String handler) {
      return new HandlerStats(handler, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, "", 0, "", Map.of(), Map.of(), Map.of(), Map.of(),
          Map.of(), 0, 0, 0, 0, 0);
    }

    /** Hits (fresh and stale) over all requests the cache decided, 0 when none. */
    public double hitRatio() {
      long served = hits + stale;
      long all = served + misses;
      return all == 0 ? 0 : (double) served / all;
    }

    /** Signed-in visitors' requests answered from the cache, over all of theirs; 0 when none. */
    public double signedInHitRatio() {
      return signedInRequests == 0 ? 0 : (double) signedInHits / signedInRequests;
    }

    /** The anonymous visitors' hit ratio: the hits and misses of everyone else (fresh hits over hits and misses). */
    public double anonymousHitRatio() {
      long anonHits = Math.max(0, hits - signedInHits);
      long all = Math.max(0, hits + stale + misses + bypasses - signedInRequests);
      return all == 0 ? 0 : (double) anonHits / all;
    }

    /** The counts of both added up, under this one's name; the bypass reasons are added, the rest is this one's. */
    HandlerStats plus(HandlerStats o) {
      Map<String, Long> reasons = new TreeMap<>(bypassesByReason);
      o.bypassesByReason.forEach((reason, n) -> reasons.merge(reason, n, Long::sum));
      return new HandlerStats(handler, hits + o.hits, stale + o.stale, misses + o.misses, rebuilds + o.rebuilds,
          lockWaits + o.lockWaits, bypasses + o.bypasses, storeErrors + o.storeErrors, builds + o.builds,
          buildNanos + o.buildNanos, rebuiltSinceRefresh + o.rebuiltSinceRefresh, lastRefreshMillis,
          lastRefreshBy, lastToken, trace, reasons, cookieBypasses, unkeyedHeaders, sessionBypasses, keyedParameters,
          signedInRequests + o.signedInRequests, signedInHits + o.signedInHits, fragments + o.fragments,
          fragmentNanos + o.fragmentNanos, fragmentFailures + o.fragmentFailures);
    }
  }

  /**
   * What one cookie name did to a handler's requests (docs/safety.md: the evidence for an ignore rule).
   *
   * @param requests requests it made bypass
   * @param handlerReadCookies how many of them the handler read a cookie in
   */
  public record CookieBypasses(long requests, long handlerReadCookies) {}

  /**
   * The near cache of this JVM at one moment, as the admin page and {@code api/stats} show it.
   *
   * @param enabled     false when {@code near.size} or {@code near.trust} is 0
   * @param entries     pages held (Caffeine's estimate)
   * @param bytes       their estimated memory: bodies (stored and inflated), headers, overhead
   * @param maxBytes    the bound ({@code near.size})
   * @param trustMillis {@code near.trust}
   * @param hits        requests answered from this JVM's memory
   * @param misses      cacheable requests that asked memcached
   */
  public record NearStats(boolean enabled, long entries, long bytes, long maxBytes, long trustMillis,
      long hits, long misses) {

    /** Hits over lookups, or -1 before the first lookup. */
    public double hitRatio() {
      long all = hits + misses;
      return all == 0 ? -1 : (double) hits / all;
    }
  }

  /**
   * Makes every page of the handler STALE (never flush_all: other handlers keep their pages).
   * Each stale page is rebuilt by one request while the others are served the stale copy.
   *
   * @param handler the handler's name: the servlet's name unless a policy or
   *     {@link #HANDLER_ATTRIBUTE} names it
   * @throws IllegalArgumentException when the name is empty, longer than 200 characters, or holds
   *     control or invisible characters
   * @throws org.pagecache.store.StoreException when memcached could not be written: the refresh
   *     did not happen and must not be reported as done
   */
  public Refresh refreshHandler(String handler) {
    return refreshHandler(handler, "api");
  }

  /** As {@link #refreshHandler(String)}, recording who asked (shown on the admin page). */
  public Refresh refreshHandler(String handler, String by) {
    boolean known = knowsHandler(handler);
    long token = engine.tokens.refresh(handler);
    ClusterDelivery delivery = ClusterDelivery.of(engine.clusters.refreshed(engine.tokens.key(handler), token)); // every other cluster
    engine.near.dropHandler(handler);
    if (known) { // an unknown (perhaps misspelt) name gets no row on the admin page, and stays unknown
      engine.recorder.handler(handler).refreshed(engine.clock.millis(), by, token);
    }
    log.info("pagecache: handler '{}' refreshed by {} (token {})", handler, by, token);
    return new Refresh(handler, token, known, delivery);
  }

  /**
   * Whether this cache knows the handler: a policy names it, or this server has served its pages.
   * The admin API and the Spring Boot starter's Actuator endpoint refuse to refresh an unknown
   * name (most often a typo) instead of writing a token nobody reads.
   *
   * @throws IllegalArgumentException for a name {@link #refreshHandler(String)} refuses
   */
  public boolean knowsHandler(String handler) {
    checkName("handler", handler);
    return engine.policies.configured(handler) || engine.recorder.seen(handler);
  }

  /**
   * Makes every page carrying the tag STALE, across all handlers. Other JVMs see the invalidation
   * within {@code tag.cache} (default 1s).
   *
   * @throws IllegalArgumentException when the tag is empty, longer than 200 characters, or holds
   *     spaces, commas, control or invisible characters
   * @throws org.pagecache.store.StoreException when memcached could not be written: the tag was
   *     not invalidated
   */
  public TagInvalidation invalidateTag(String tag) {
    checkTag(tag);
    long version = engine.tags.invalidate(tag);
    ClusterDelivery delivery = ClusterDelivery.of(engine.clusters.tagInvalidated(config.namespace.tag(tag), version));
    engine.near.dropTag(tag);
    log.info("pagecache: tag '{}' invalidated (version {})", tag, version);
    return new TagInvalidation(tag, version, delivery);
  }

  /**
   * Invalidates several tags in one call (each as {@link #invalidateTag}); all are checked before any
   * is written.
   *
   * @throws IllegalArgumentException naming the first invalid tag, or when there is none
   */
  public List<TagInvalidation> invalidateTags(Collection<String> tags) {
    checkTags(tags);
    List<TagInvalidation> done = new ArrayList<>(tags.size());
    for (String tag : new java.util.LinkedHashSet<>(tags)) {
      done.add(invalidateTag(tag));
    }
    return done;
  }

  /**
   * Hard purge, for takedowns: every page carrying one of these tags is never served again, not
   * even stale (grace, stale-while-revalidate, stale-if-error), nor revalidated, nor kept by a near
   * cache; its next request waits for a new build. Pages being built across the purge are never
   * served with their old content either. Other servers' near caches and tag caches see it within
   * {@code tag.cache} (docs/freshness.md, "Hard purge").
   *
   * @throws IllegalArgumentException naming the first invalid tag, or when there is none
   */
  public List<TagInvalidation> purgeTags(Collection<String> tags) {
    checkTags(tags);
    List<TagInvalidation> done = new ArrayList<>(tags.size());
    for (String tag : new java.util.LinkedHashSet<>(tags)) {
      long version = engine.tags.purge(tag);
      engine.clusters.tagInvalidated(config.namespace.tag(tag), version);
      ClusterDelivery delivery = ClusterDelivery.of(engine.clusters.tagInvalidated(
          config.namespace.tag(org.pagecache.internal.freshness.TagVersions.hardName(tag)), version));
      engine.near.dropTag(tag);
      log.info("pagecache: tag '{}' purged (hard, version {})", tag, version);
      done.add(new TagInvalidation(tag, version, delivery, true));
    }
    return done;
  }

  private static void checkTags(Collection<String> tags) {
    if (tags == null || tags.isEmpty()) {
      throw new IllegalArgumentException("tags: none given; e.g. article:42");
    }
    tags.forEach(PageCache::checkTag);
  }

  /**
   * Removes one page, given its absolute URL ({@code https://host/path?query}). The variant for
   * requests without any varied header is removed; use tags for pages that vary.
   *
   * @throws IllegalArgumentException when {@code url} is not an absolute URL
   * @throws org.pagecache.store.StoreException when memcached could not be reached: the page may
   *     still be stored
   */
  public Eviction evict(String url) {
    URI uri;
    try {
      uri = new URI(url);
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("url: '" + url + "' is not a URL; use an absolute URL like https://example.com/article/42");
    }
    if (uri.getScheme() == null || uri.getHost() == null || uri.getRawPath() == null) {
      throw new IllegalArgumentException("url: '" + url + "' is not absolute; use e.g. https://example.com/article/42");
    }
    String scheme = uri.getScheme().toLowerCase();
    int port = uri.getPort() != -1 ? uri.getPort() : scheme.equals("https") ? 443 : 80;
    String rawPath = uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
    // Path parameters (;jsessionid=...) as the container maps them: the page of the plain path, and the one as sent.
    String mappedPath = PathParameters.strip(rawPath);
    String handler = handlerForPath(mappedPath);
    CachePolicy policy = engine.policies.policy(handler);
    String key = engine.keys.forUrl(scheme, uri.getHost(), port, mappedPath, uri.getRawQuery(), handler,
        policy.vary(), policy.cookies().vary());
    ClusterDelivery delivery = ClusterDelivery.of(engine.clusters.evicting(key)); // hold-off here, delete in every other cluster
    boolean existed = deleteKey(key);
    if (!mappedPath.equals(rawPath)) {
      String asSent = engine.keys.forUrl(scheme, uri.getHost(), port, rawPath, uri.getRawQuery(), handler,
          policy.vary(), policy.cookies().vary());
      engine.clusters.evicting(asSent);
      existed |= deleteKey(asSent);
    }
    return new Eviction(url, handler, existed, delivery);
  }

  private boolean deleteKey(String key) {
    engine.near.drop(key);
    boolean existed = engine.store.delete(key);
    Evictions.deleted(engine.store, key, engine.clock.millis()); // the other JVMs' near caches see it within near.trust
    engine.near.drop(key); // again: a lookup that read the page just before the delete may have remembered it
    return existed;
  }

  /** Declares tags for the page being built (call from the handler). */
  public static void tag(ServletRequest request, String... tags) {
    listAttribute(request, TAGS_ATTRIBUTE).addAll(List.of(tags));
  }

  /** Declares an object whose view counter is incremented on every serve of the page being built. */
  public static void countView(ServletRequest request, String objectKey) {
    listAttribute(request, VIEWS_ATTRIBUTE).add(objectKey);
  }

  @SuppressWarnings("unchecked")
  private static List<String> listAttribute(ServletRequest request, String name) {
    Object list = request.getAttribute(name);
    if (list == null) {
      list = Collections.synchronizedList(new ArrayList<String>());
      request.setAttribute(name, list);
    }
    return (List<String>) list;
  }

  // ---- fragments: the personal parts of a shared page (docs/fragments.md) ----

  /**
   * Renders one fragment of a page for the visitor of {@code request} (the request as the
   * application sees it: its principal, its session). Runs on the request's thread on every serve of
   * a page that shows it; its text goes into the page as it is (escape what you put in it). A
   * renderer that throws or takes longer than {@code fragments.timeout} gives an empty part.
   */
  @FunctionalInterface
  public interface Fragment {
    String render(HttpServletRequest request) throws Exception;
  }

  /**
   * The text a handler writes where fragment {@code name} goes: {@code <!--pagecache:fragment NAME-->}.
   * The stored page keeps it; each serve replaces it with what the fragment's renderer gives for the
   * visitor.
   *
   * @throws IllegalArgumentException when the name is not 1 to 64 of A-Z a-z 0-9 _ . -
   */
  public static String fragment(String name) {
    return Placeholders.fragment(name);
  }

  /** Registers (or replaces) the renderer of fragment {@code name}. */
  public void fragment(String name, Fragment renderer) {
    engine.fragments.register(name, renderer == null ? null : renderer::render);
  }

  /**
   * As {@link #fragment(String, Fragment)}, with the renderer's output kept in memcached for
   * {@code ttl} per value of {@code per} (a user id, a customer group; hashed into the key, null
   * means not kept): a cart summary rendered once a minute per user rather than on every page.
   */
  public void fragment(String name, Duration ttl, Function<HttpServletRequest, String> per, Fragment renderer) {
    if (renderer == null || per == null || ttl == null) {
      throw new IllegalArgumentException("fragment '" + name + "': ttl, per and renderer are required");
    }
    engine.fragments.register(name, new KeptFragment(engine.store, config.namespace, name,
        (int) Math.min(Integer.MAX_VALUE, ttl.toSeconds()), per, renderer::render));
  }

  /**
   * Registers a renderer in a web application before its filter has started, from a
   * ServletContextListener for instance; the filter finds it when it fills the page in.
   */
  public static void fragment(ServletContext context, String name, Fragment renderer) {
    if (renderer == null) {
      throw new IllegalArgumentException("fragment '" + name + "': the renderer is null");
    }
    Fragments.register(context, name, renderer::render);
  }

  /**
   * The application's group of a signed-in visitor, for the policies with {@code signed-in=context}:
   * a customer group, a plan, a locale... computed on the server from the request (its principal).
   * The value is hashed into the page key; a null or a throw sends the request past the cache.
   */
  public void userContext(Function<HttpServletRequest, String> context) {
    engine.userContext = context;
  }

  /** The live view and online counters of this application. */
  public Counters counters() {
    return engine.counters;
  }

  /**
   * This JVM's per-handler counts (hits, stale, misses, bypasses and their reasons, rebuilds), as
   * the admin page and {@link org.pagecache.metrics.PageCacheMetrics} read them: an immutable
   * snapshot taken now; call again for newer counts.
   */
  public Stats stats() {
    return StatsSnapshots.of(engine.recorder);
  }

  /** One handler's counts now (all zero for a handler this JVM has not seen). */
  public HandlerStats stats(String handler) {
    return engine.recorder.seen(handler) ? StatsSnapshots.of(engine.recorder.handler(handler)) : HandlerStats.none(handler);
  }

  /**
   * Calls {@code listener} with the name of every handler seen so far and of each one seen later
   * (once per handler, though one seen while the listener is added may be passed twice): reporters
   * such as the Micrometer binder register a handler's meters when it appears.
   */
  public void forEachHandler(Consumer<String> listener) {
    engine.recorder.forEachHandler(h -> listener.accept(h.handler()));
  }

  /**
   * Calls {@code listener} with every (handler, bypass reason) pair so far and each new one later,
   * as {@link #forEachHandler} does for handlers.
   */
  public void forEachBypassReason(BiConsumer<String, String> listener) {
    engine.recorder.forEachBypassReason((h, reason) -> listener.accept(h.handler(), reason));
  }

  /**
   * The handlers' figures summed over every frontend that shares memcached: what the admin page
   * shows editors as the whole site's, whichever server answers.
   *
   * @throws org.pagecache.store.StoreException when memcached cannot be read
   */
  public Map<String, SiteStats> siteStats(Collection<String> handlers) {
    Map<String, SiteStats> out = new java.util.LinkedHashMap<>();
    engine.site.read(handlers).forEach((h, f) -> out.put(h, SiteStats.of(f)));
    return out;
  }

  /**
   * One handler's figures summed over every frontend that shares memcached: the last
   * {@value #WINDOW_MINUTES} minutes of hits (fresh and stale), misses, rebuilds and bypasses.
   * Each frontend adds its own every {@value #INTERVAL_SECONDS} seconds, so they lag by at most that.
   *
   * @param rebuiltSinceRefresh pages rebuilt by any frontend since the handler's last refresh; -1 when
   *     it was never refreshed
   */
  public record SiteStats(long hits, long misses, long rebuilds, long bypasses, long rebuiltSinceRefresh) {
    /** How many minutes the figures cover. */
    public static final int WINDOW_MINUTES = SiteTotals.WINDOW_MINUTES;
    /** How often each frontend adds its figures, in seconds. */
    public static final long INTERVAL_SECONDS = SiteTotals.INTERVAL_SECONDS;
    /** What is shown when the figures cannot be read. */
    public static final SiteStats NONE = new SiteStats(0, 0, 0, 0, -1);

    static SiteStats of(SiteFigures f) {
      return new SiteStats(f.hits(), f.misses(), f.rebuilds(), f.bypasses(), f.rebuiltSinceRefresh());
    }
  }


  /**
   * The store this cache uses, behind its circuit breaker: while memcached is considered down
   * ({@link #storeDown()}) every call throws {@link org.pagecache.store.StoreException} at once
   * instead of waiting for a timeout. It belongs to the cache: {@link #close()} closes it.
   */
  public Store store() {
    return engine.store;
  }

  /** The configuration this cache was started with. */
  public PageCacheConfig config() {
    return config;
  }

  /** Configured policies and those of every handler seen so far. */
  public Collection<CachePolicy> policies() {
    return engine.policies.known();
  }

  /** The near cache of this JVM now: entries, bytes, hit ratio. */
  public NearStats nearStats() {
    NearCache near = engine.near;
    return new NearStats(near.enabled(), near.entries(), near.bytes(), near.maxBytes(), near.trustMillis(),
        near.hits(), near.misses());
  }

  /**
   * The other memcached clusters ({@code memcached.remote}) now: invalidations waiting for each, and
   * the warm-up's progress.
   */
  public ClusterStatus clusterStatus() {
    return ClusterStatus.of(engine.clusters.status());
  }

  /**
   * Each memcached node's state (main cluster, then gutter); empty for the in-process store or a
   * store given to the configuration.
   */
  public List<NodeState> nodeStates() {
    ClusterStore cluster = engine.store.cluster();
    return cluster == null ? List.of() : cluster.nodeStates().stream()
        .map(n -> new NodeState(n.name(), n.pool(), n.down(), n.outages())).toList();
  }

  /**
   * One memcached node at one moment.
   *
   * @param name its address, as {@code memcached.servers} (or the gutter or a pool) lists it
   * @param pool {@code main}, {@code gutter} or the name of its {@code memcached.pools} pool
   * @param down whether it is taken out now (down or hung): its keys go to the gutter or their handlers
   * @param outages how many times it was taken out since start-up
   */
  public record NodeState(String name, String pool, boolean down, long outages) {}

  /** Whether memcached is currently considered down (circuit open; with a cluster: every node down). */
  public boolean storeDown() {
    return engine.store.isDown();
  }



  private String handlerForPath(String rawPath) {
    ServletContext ctx = servletContext;
    String path = rawPath;
    if (ctx != null && !ctx.getContextPath().isEmpty() && path.startsWith(ctx.getContextPath())) {
      path = path.substring(ctx.getContextPath().length());
    }
    String byPolicy = engine.policies.handlerForPath(path);
    if (byPolicy == null) {
      byPolicy = handlerByPath.apply(path);
    }
    if (byPolicy != null || ctx == null) {
      return byPolicy != null ? byPolicy : "default";
    }
    String best = null;
    int bestRank = -1;
    for (Map.Entry<String, ? extends ServletRegistration> e : ctx.getServletRegistrations().entrySet()) {
      for (String mapping : e.getValue().getMappings()) {
        // "/" is the default servlet: it serves whatever no other mapping does
        int rank = mapping.equals("/") ? 0 : Policies.rank(mapping, path);
        if (rank > bestRank) {
          bestRank = rank;
          best = e.getKey();
        }
      }
    }
    return best != null ? best : "default";
  }

  static void checkName(String what, String name) {
    if (name == null || name.isEmpty() || name.length() > 200 || name.codePoints().anyMatch(PageCache::invisible)) {
      throw new IllegalArgumentException(what + ": must be 1 to 200 characters without control or invisible formatting characters");
    }
  }

  static void checkTag(String tag) {
    if (!validTag(tag)) {
      throw new IllegalArgumentException("tag: must be 1 to " + MAX_TAG_LENGTH
          + " characters without spaces, commas, control or invisible formatting characters");
    }
  }

  static boolean validTag(String tag) {
    return tag != null && !tag.isEmpty() && tag.length() <= MAX_TAG_LENGTH
        && tag.codePoints().noneMatch(c -> c == ' ' || c == ',' || invisible(c));
  }

  /**
   * Control characters (C0 and C1), and characters that change how the text around them is
   * shown (bidi overrides, zero-width space, soft hyphen, line separators, tag characters): a
   * name or tag shown to editors is what it looks like. The zero-width joiner and non-joiner are
   * letters' business in Persian, Hindi and emoji, and stay allowed.
   */
  private static boolean invisible(int codePoint) {
    int type = Character.getType(codePoint);
    return Character.isISOControl(codePoint)
        || type == Character.FORMAT && codePoint != 0x200C && codePoint != 0x200D
        || type == Character.LINE_SEPARATOR || type == Character.PARAGRAPH_SEPARATOR;
  }

  @Override
  public void close() {
    engine.lock.close();
    engine.counters.close();
    engine.site.close();
    engine.clusters.close();
    engine.store.close();
  }

  /**
   * Tells {@link #evict(String)} which handler a path (within the context) belongs to, when the
   * servlet's name is not the handler: an integration that sets {@link #HANDLER_ATTRIBUTE} gives
   * the same naming here. The function returns null for paths it does not know; a policy's
   * {@code paths} still come first.
   */
  public void handlersByPath(Function<String, String> byPath) {
    this.handlerByPath = byPath == null ? path -> null : byPath;
  }
}
