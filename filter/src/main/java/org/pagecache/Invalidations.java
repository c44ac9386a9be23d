package org.pagecache;

import org.pagecache.internal.fragments.GroupPages;
import org.pagecache.internal.freshness.Evictions;
import org.pagecache.internal.freshness.TagVersions;
import org.pagecache.internal.store.IdentityCopies;
import org.pagecache.stats.ClusterDelivery;
import org.pagecache.stats.Eviction;
import org.pagecache.stats.Refresh;
import org.pagecache.stats.TagInvalidation;
import org.pagecache.store.Namespace;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What {@link PageCache}'s actions do to the engine: a handler's token raised, a tag's version
 * raised (soft, or hard: a purge), a URL's page deleted; each sent to the other clusters and
 * dropped from this JVM's near cache. The facade checks the names first.
 */
final class Invalidations {
  private static final Logger log = LoggerFactory.getLogger(PageCache.class);

  private final Engine engine;
  private final Namespace namespace;
  /** Which handler and keys a URL's page has, for {@link #evict}. */
  final UrlPages urlPages;

  Invalidations(Engine engine, Namespace namespace) {
    this.engine = engine;
    this.namespace = namespace;
    this.urlPages = new UrlPages(engine);
  }

  /** @param known an unknown (perhaps misspelt) name gets no row on the admin page, and stays unknown */
  Refresh refresh(String handler, String by, boolean known) {
    long token = engine.tokens.refresh(handler);
    ClusterDelivery delivery = engine.clusters.refreshed(engine.tokens.key(handler), token); // every other cluster
    engine.near.dropHandler(handler);
    if (known) {
      engine.recorder.handler(handler).refreshed(engine.clock.millis(), by, token);
    }
    log.info("pagecache: handler '{}' refreshed by {} (token {})", handler, by, token);
    return new Refresh(handler, token, known, delivery);
  }

  TagInvalidation tag(String tag) {
    long version = engine.tags.invalidate(tag);
    ClusterDelivery delivery = engine.clusters.tagInvalidated(namespace.tag(tag), version);
    engine.near.dropTag(tag);
    log.info("pagecache: tag '{}' invalidated (version {})", tag, version);
    return new TagInvalidation(tag, version, delivery);
  }

  TagInvalidation purge(String tag) {
    long version = engine.tags.purge(tag);
    engine.clusters.tagInvalidated(namespace.tag(tag), version);
    ClusterDelivery delivery = engine.clusters.tagInvalidated(namespace.tag(TagVersions.hardName(tag)), version);
    engine.near.dropTag(tag);
    log.info("pagecache: tag '{}' purged (hard, version {})", tag, version);
    return new TagInvalidation(tag, version, delivery, true);
  }

  /** @throws IllegalArgumentException when {@code url} is not an absolute URL */
  Eviction evict(String url) {
    UrlPages.Keys keys = urlPages.keys(url);
    // The groups' pages first: a JVM that sees the evictions key change below reads them again and
    // must find their URL tag purged already, here and (deliveries keep their order) in every cluster.
    if (SignedInVisitors.servesGroups(engine.policies.policy(keys.handler()))) {
      purgeGroups(keys.key()); // every group's page of the URL: its key holds a digest no evict knows
      if (keys.asSent() != null) {
        purgeGroups(keys.asSent());
      }
    }
    ClusterDelivery delivery = engine.clusters.evicting(keys.key()); // hold-off here, delete in every other cluster
    boolean existed = deleteKey(keys.key());
    if (keys.asSent() != null) { // path parameters: the page of the plain path, and the one as sent
      engine.clusters.evicting(keys.asSent());
      existed |= deleteKey(keys.asSent());
    }
    for (String variant : keys.classVariants()) { // a page per class of visitors (vary=device, language, format)
      engine.clusters.evicting(variant);
      existed |= deleteKey(variant);
    }
    // This JVM confirms the handler again at its next lookup: it sees the evictions key changed at
    // once, and trusts no identity copy made before (a copy written by a lookup racing the delete).
    engine.confirmations.evicted(keys.handler());
    return new Eviction(url, keys.handler(), existed, delivery);
  }

  /** Purges the URL's tag the groups' pages carry (GroupPages): ABSENT everywhere, as the deleted anonymous page. */
  private void purgeGroups(String anonymousPageKey) {
    String tag = GroupPages.urlTag(anonymousPageKey);
    long version = engine.tags.purge(tag);
    engine.clusters.tagInvalidated(namespace.tag(tag), version);
    engine.clusters.tagInvalidated(namespace.tag(TagVersions.hardName(tag)), version);
    engine.near.dropTag(tag);
  }

  private boolean deleteKey(String key) {
    engine.near.drop(key);
    boolean existed = engine.store.delete(key);
    Evictions.deleted(engine.store, key, engine.clock.millis()); // the other JVMs' near caches see it within near.trust
    IdentityCopies.delete(engine.store, key); // best effort: a copy left behind carries the evictions value from before
    engine.near.drop(key); // again: a lookup that read the page just before the delete may have remembered it
    return existed;
  }
}
