package org.pagecache;

import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletRegistration;
import jakarta.servlet.ServletRequest;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.pagecache.internal.stats.CacheStats;
import org.pagecache.counters.CountSink;
import org.pagecache.counters.CountSource;
import org.pagecache.counters.Counters;
import org.pagecache.internal.counters.VisitorId;
import org.pagecache.internal.freshness.RebuildLock;
import org.pagecache.internal.freshness.TagVersions;
import org.pagecache.internal.freshness.UpdateTokens;
import org.pagecache.internal.key.PageKeys;
import org.pagecache.internal.near.NearCache;
import org.pagecache.internal.near.NearStats;
import org.pagecache.internal.near.WaitingList;
import org.pagecache.internal.store.GuardedStore;
import org.pagecache.store.LocalStore;
import org.pagecache.store.MemcachedStore;
import org.pagecache.internal.store.PageCodec;
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
  static final String TAGS_ATTRIBUTE = "org.pagecache.tags";
  static final String VIEWS_ATTRIBUTE = "org.pagecache.views";
  static final int MAX_TAGS = 64;
  static final int MAX_TAG_LENGTH = 200;

  private static final Logger log = LoggerFactory.getLogger(PageCache.class);

  final PageCacheConfig config;
  final GuardedStore store;
  final PageCodec codec = new PageCodec();
  final PageKeys keys;
  final UpdateTokens tokens;
  final TagVersions tags;
  final RebuildLock lock;
  final CacheStats stats = new CacheStats();
  final Policies policies;
  final Clock clock;
  final Counters counters;
  /** Pages this JVM served recently ({@code near.size}, {@code near.trust}); a no-op when off. */
  final NearCache near;
  /** Requests of this JVM waiting together for a page nothing has built yet. */
  final WaitingList waiting = new WaitingList();
  final LiveCounts live;
  /** How visitors are told apart for the online count; null when {@code online=off}. */
  final VisitorId visitors;
  private volatile ServletContext servletContext;
  private volatile Function<String, String> handlerByPath = path -> null;

  PageCache(PageCacheConfig config) {
    this.config = config;
    this.clock = config.clock;
    this.store = new GuardedStore(config.store != null ? config.store : newStore(config), clock,
        config.retryInterval.toMillis());
    this.keys = new PageKeys(config.namespace);
    this.tokens = new UpdateTokens(store, config.namespace, clock);
    this.tags = new TagVersions(store, config.namespace, clock, config.tagCache.toMillis());
    this.lock = new RebuildLock(store, config.namespace, (int) Math.max(1, config.lockTtl.toSeconds()));
    this.policies = config.policies;
    this.counters = Counters.builder(store, config.namespace).settings(config.counters).clock(clock)
        .source(config.countSource != null ? config.countSource : CountSource.ZERO)
        .sink(config.countSink != null ? config.countSink : CountSink.NONE)
        .countOnline(!config.online.equals("off"))
        .build();
    this.live = new LiveCounts(counters);
    this.near = NearCache.of(config.nearSize, config.nearTrust, clock, config.maxEntrySize * 8);
    this.visitors = switch (config.online) {
      case "off" -> null;
      case "on" -> VisitorId.sessionOrAddress();
      default -> VisitorId.withCookie(config.online.substring("cookie:".length()));
    };
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
    MemcachedStore.Settings settings = new MemcachedStore.Settings(config.serverList, config.binaryProtocol,
        config.connectTimeout, config.opTimeout, config.poolSize);
    Store s = new MemcachedStore(settings);
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
   */
  public record Refresh(String handler, long token, boolean known) {}

  /**
   * What a tag invalidation did.
   *
   * @param tag the tag invalidated
   * @param version its new version: the time of the invalidation in epoch milliseconds, raised
   *     past the previous version when clocks disagree
   */
  public record TagInvalidation(String tag, long version) {}

  /**
   * What an eviction did: the handler the URL belongs to and whether a page was stored.
   *
   * @param url the URL as given
   * @param handler the handler the URL belongs to ({@code default} when none matches)
   * @param existed true when a page was stored under the URL and is now removed
   */
  public record Eviction(String url, String handler, boolean existed) {}

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
    checkName("handler", handler);
    boolean known = policies.configured(handler) || stats.seen(handler);
    long token = tokens.refresh(handler);
    near.dropHandler(handler);
    if (known) { // an unknown (perhaps misspelt) name gets no row on the admin page, and stays unknown
      stats.handler(handler).refreshed(clock.millis(), by, token);
    }
    log.info("pagecache: handler '{}' refreshed by {} (token {})", handler, by, token);
    return new Refresh(handler, token, known);
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
    long version = tags.invalidate(tag);
    near.dropTag(tag);
    log.info("pagecache: tag '{}' invalidated (version {})", tag, version);
    return new TagInvalidation(tag, version);
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
    String handler = handlerForPath(rawPath);
    CachePolicy policy = policies.policy(handler);
    String key = keys.forUrl(scheme, uri.getHost(), port, rawPath, uri.getRawQuery(), handler,
        policy.vary(), policy.cookies());
    near.drop(key);
    boolean existed = store.delete(key);
    near.drop(key); // again: a lookup that read the page just before the delete may have remembered it
    return new Eviction(url, handler, existed);
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

  /** The live view and online counters of this application. */
  public Counters counters() {
    return counters;
  }

  /**
   * This JVM's per-handler counts (hits, stale, misses, bypasses and their reasons, rebuilds), as
   * the admin page and {@link org.pagecache.metrics.PageCacheMetrics} read them. Its type lives in
   * {@code org.pagecache.internal} and may change: prefer the metrics or the admin JSON.
   */
  public CacheStats stats() {
    return stats;
  }

  /**
   * The store this cache uses, behind its circuit breaker: while memcached is considered down
   * ({@link #storeDown()}) every call throws {@link org.pagecache.store.StoreException} at once
   * instead of waiting for a timeout. It belongs to the cache: {@link #close()} closes it.
   */
  public Store store() {
    return store;
  }

  /** The configuration this cache was started with. */
  public PageCacheConfig config() {
    return config;
  }

  /** Configured policies and those of every handler seen so far. */
  public Collection<CachePolicy> policies() {
    return policies.known();
  }

  /** The near cache of this JVM: entries, bytes, hit ratio. */
  public NearStats nearStats() {
    return near.stats();
  }

  /** Whether memcached is currently considered down (circuit open). */
  public boolean storeDown() {
    return store.isDown();
  }



  private String handlerForPath(String rawPath) {
    ServletContext ctx = servletContext;
    String path = rawPath;
    if (ctx != null && !ctx.getContextPath().isEmpty() && path.startsWith(ctx.getContextPath())) {
      path = path.substring(ctx.getContextPath().length());
    }
    String byPolicy = policies.handlerForPath(path);
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
    counters.close();
    store.close();
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
