package org.pagecache;

import jakarta.servlet.http.HttpServletRequest;
import java.time.Clock;
import java.util.Map;
import java.time.Duration;
import java.util.Collection;
import java.util.function.Function;
import org.pagecache.counters.CountSink;
import org.pagecache.counters.CountSource;
import org.pagecache.counters.Counters;
import org.pagecache.internal.cluster.Clusters;
import org.pagecache.internal.counters.VisitorId;
import org.pagecache.internal.fragments.Fragments;
import org.pagecache.internal.freshness.RebuildLock;
import org.pagecache.internal.freshness.RefusedTags;
import org.pagecache.internal.freshness.TagVersions;
import org.pagecache.internal.freshness.UpdateTokens;
import org.pagecache.internal.key.IgnoredCookies;
import org.pagecache.internal.key.PageKeys;
import org.pagecache.internal.near.HandlerConfirmations;
import org.pagecache.internal.near.NearCache;
import org.pagecache.internal.nodes.ClusterStore;
import org.pagecache.internal.near.WaitingList;
import org.pagecache.internal.sitewide.SiteTotals;
import org.pagecache.internal.stats.StatsRecorder;
import org.pagecache.internal.store.GuardedStore;
import org.pagecache.internal.store.IdentityCopies;
import org.pagecache.internal.store.LostWrites;
import org.pagecache.internal.store.PageCodec;
import org.pagecache.internal.vary.VisitorClasses;
import org.pagecache.store.LocalStore;
import org.pagecache.store.Namespace;
import org.pagecache.store.Store;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The parts of one page cache and the settings the request path reads, made once from the
 * configuration: {@link PageCache} is the public face over them, and the request path
 * ({@link PageFlow} and its parts) receives them instead of reaching through the face.
 */
final class Engine {
  private static final Logger log = LoggerFactory.getLogger(Engine.class);

  final Clock clock;
  final Namespace namespace;
  /** The store behind the one circuit breaker. */
  final GuardedStore store;
  final PageCodec codec = new PageCodec();
  final PageKeys keys;
  final UpdateTokens tokens;
  final TagVersions tags;
  final RebuildLock lock;
  /** Records what the cache did for each request; {@link PageCache#stats()} hands out snapshots of it. */
  final StatsRecorder recorder = new StatsRecorder();
  /** The handler figures of every frontend sharing memcached, for the admin page ({@link PageCache#siteStats}). */
  final SiteTotals site;
  final Policies policies;
  final Counters counters;
  /** Pages this JVM served recently ({@code near.size}, {@code near.trust}); a no-op when off. */
  final NearCache near;
  /** The handlers' tokens and evictions as memcached last confirmed them (near.trust): the near cache's and the lookups'. */
  final HandlerConfirmations confirmations;
  /** Gzipped pages' identity copies for clients without gzip. */
  final IdentityCopies copies;
  /** How near.size was chosen, for the admin page and api/stats ("10 % of a 3.0 GiB heap"). */
  final String nearSizedBy;
  /** Pages built but not stored: counted and logged, never dropped silently. */
  final LostWrites lostWrites;
  final RefusedTags refusedTags = new RefusedTags();
  /** Requests of this JVM waiting together for a page nothing has built yet. */
  final WaitingList waiting = new WaitingList();
  final LiveCounts live;
  /** The application's fragment renderers ({@link PageCache#fragment(String, PageCache.Fragment)}). */
  final Fragments fragments;
  /** The application's group of a signed-in visitor for {@code signed-in=context}; null until it sets one. */
  volatile Function<HttpServletRequest, String> userContext;
  /** The signed-in visitor's own details the application can show (PageCache#personalValues); null: none. */
  volatile Function<HttpServletRequest, ? extends Collection<String>> personalValues;
  /** The other memcached clusters: invalidations broadcast, misses copied while warming (memcached.remote). */
  final Clusters clusters;
  /** Invalidations made by writes through the application in this JVM: their pages are rebuilt in the foreground. */
  final BackgroundRebuilds.Edits edits = new BackgroundRebuilds.Edits();
  /** Stale pages rebuilt off the visitors' requests ({@code rebuild.background}). */
  final BackgroundRebuilds background;
  /** How visitors are told apart for the online count; null when {@code online=off}. */
  final VisitorId visitors;

  // the settings the request path reads
  /** The name of the X-Cache header ({@code header}). */
  final String cacheHeader;
  final int maxEntrySize;
  final Duration lockWait;
  final Duration uncacheableTtl;
  final Duration replicaLag;
  final IgnoredCookies ignoredCookies;
  /** The site's declared classes of visitors (vary=device, language, format), compiled per handler. */
  final VisitorClasses classes;

  Engine(PageCacheConfig config) {
    this(config, config.store != null ? config.store : newStore(config));
  }

  /** @param store the store to guard: the configured one, or the one made from the server list */
  private Engine(PageCacheConfig config, Store store) {
    this.clock = config.clock;
    this.namespace = config.namespace;
    this.store = new GuardedStore(store, clock, config.retryInterval.toMillis());
    this.keys = new PageKeys(config.namespace, config.ignoredParameters.withoutEvidence());
    this.tokens = new UpdateTokens(this.store, config.namespace, clock);
    this.tags = new TagVersions(this.store, config.namespace, clock, config.tagCache.toMillis());
    this.lock = new RebuildLock(this.store, config.namespace, (int) Math.max(1, config.lockTtl.toSeconds()));
    this.policies = config.policies;
    this.counters = Counters.builder(this.store, config.namespace).settings(config.counters).clock(clock)
        .source(config.countSource != null ? config.countSource : CountSource.ZERO)
        .sink(config.countSink != null ? config.countSink : CountSink.NONE)
        .countOnline(!config.online.equals("off"))
        .build();
    this.fragments = new Fragments(config.fragmentsTimeout.toMillis());
    this.live = new LiveCounts(counters, fragments);
    this.site = new SiteTotals(this.store, config.namespace, recorder, tokens, clock);
    this.clusters = Clusters.start(config.clusters, new Clusters.Local(this.store, tokens, tags, codec,
        config.namespace, clock, config.retryInterval),
        // Placed as that cluster's own frontends place keys (tokens and tag versions on every node). Its
        // breakers run on real time: the broadcaster's thread retries a remote in real time, whatever clock pages use.
        // Proxies there too when memcached.proxy says so (the other clusters run as this one does).
        servers -> ClusterStore.connect(new ClusterStore.Settings(servers, null, config.gutterTtl, Map.of(), Map.of(), "",
            config.binaryProtocol, config.connectTimeout, config.opTimeout, config.poolSize, config.namespace,
            Clock.systemUTC(), config.retryInterval, config.proxy)));
    this.lostWrites = new LostWrites(clock);
    this.confirmations = new HandlerConfirmations(this.store, config.namespace, tokens, clock,
        config.nearTrust.toMillis());
    this.near = NearCache.of(config.nearSize, config.nearTrust, clock, config.maxEntrySize * 8, confirmations);
    this.copies = new IdentityCopies(this.store, codec, config.maxEntrySize, config.identityCopies);
    this.nearSizedBy = config.nearSizeWhy;
    if (near.enabled()) {
      log.info("pagecache: near cache of {} MiB ({})", config.nearSize >> 20, config.nearSizeWhy);
    } else {
      log.info("pagecache: near cache off ({})", config.nearSize == 0 ? "near.size=0" : "near.trust=0");
    }
    this.visitors = switch (config.online) {
      case "off" -> null;
      case "on" -> VisitorId.sessionOrAddress();
      default -> VisitorId.withCookie(config.online.substring("cookie:".length()));
    };
    this.background = new BackgroundRebuilds(config.backgroundRebuilds, config.lockTtl, edits);
    this.cacheHeader = config.header;
    this.maxEntrySize = config.maxEntrySize;
    this.lockWait = config.lockWait;
    this.uncacheableTtl = config.uncacheableTtl;
    this.replicaLag = config.replicaLag;
    this.ignoredCookies = config.ignoredCookies;
    this.classes = new VisitorClasses(config.deviceRules);
  }

  /** The store memcached.servers names (our own Ketama ring, one client per node), or the in-process one. */
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

  /** Stops what the engine started: the lock's renewals, the counters, the site totals, the clusters, the store. */
  void close() {
    background.close(); // gives back the leases of rebuilds in flight while the store is still there
    lock.close();
    counters.close();
    site.close();
    clusters.close();
    store.close();
  }
}
