package org.pagecache;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.pagecache.internal.capture.CacheStatus;
import org.pagecache.internal.capture.Cacheability;
import org.pagecache.internal.capture.CapturedResponse;
import org.pagecache.internal.capture.PageBuilder;
import org.pagecache.internal.counters.Placeholders;
import org.pagecache.internal.freshness.HitForMiss;
import org.pagecache.internal.key.PageKeys;
import org.pagecache.internal.stats.Event;
import org.pagecache.internal.store.StoredPage.Header;
import org.pagecache.internal.store.StoredPage.TagVersion;
import org.pagecache.internal.store.StoredPage;
import org.pagecache.store.StoreException;

/**
 * Writes what a build decided to the store: the page (with its tags' versions and the headers it
 * varies on), or a small marker saying its build was refused; and tells the requests of this JVM
 * waiting for it.
 */
final class PageWriter {
  private static final long THIRTY_DAYS_SECONDS = 30L * 24 * 3600;

  private final Engine engine;
  private final Lookup lookup;

  PageWriter(Engine engine, Lookup lookup) {
    this.engine = engine;
    this.lookup = lookup;
  }

  Built store(PageRequest p, Found found, CapturedResponse c, StoredPage stale, long start, Duration fresh) {
    long now = engine.clock.millis();
    String key = found.key();
    List<Header> vary = responseVary(p, c);
    if (!vary.isEmpty() && engine.keys.learnVary(p.handler(), vary.stream().map(Header::name).toList())) {
      key = lookup.pageKey(p, engine.keys.varyHeaders(p.handler(), p.policy().vary()));
    }
    List<TagVersion> tags;
    try {
      tags = tagVersions(p, c, start);
    } catch (StoreException e) {
      tags = null;
    }
    boolean mustRevalidate = Cacheability.forbidsStale(c);
    StoredPage page = PageBuilder.build(c, new PageBuilder.Context(now, fresh.toMillis(), now - start,
        found.token(), tags == null ? List.of() : tags, LiveCounts.declared(p.req()), Placeholders.contains(c.body()),
        vary, engine.cacheHeader, mustRevalidate));
    byte[] bytes = engine.codec.encode(page);
    if (tags == null) {
      p.stats().record(Event.ERROR);
      return Built.serving(page, CacheStatus.miss(stale != null, false));
    }
    if (bytes.length > engine.maxEntrySize) {
      rememberRefusal(p, found, "too-large", start);
      p.stats().bypass("too-large");
      return Built.replaying(c, CacheStatus.refused("too-large"));
    }
    // A page that may not be served stale is of no use past its fresh time.
    boolean stored = storeQuietly(p, key, bytes, storeTtlSeconds(mustRevalidate ? fresh : fresh.plus(p.policy().grace())));
    if (stored) {
      p.stats().record(Event.WRITE);
      engine.near.remember(key, p.handler(), page, now);
    }
    engine.waiting.arrived(found.key(), page);
    return Built.serving(page, CacheStatus.miss(stale != null, stored));
  }

  /**
   * A small marker entry: the last build of this page was refused, so nobody waits on its lock;
   * it counts the refusals in a row, which decides between miss and pass (see {@link HitForMiss}).
   */
  void rememberRefusal(PageRequest p, Found found, String reason, long now) {
    StoredPage marker = StoredPage.uncacheable(reason, HitForMiss.refusalsAfter(found.page(), now), now,
        now + engine.uncacheableTtl.toMillis());
    storeQuietly(p, found.key(), engine.codec.encode(marker), (int) Math.max(1, engine.uncacheableTtl.toSeconds()));
    engine.waiting.arrived(found.key(), marker);
  }

  private boolean storeQuietly(PageRequest p, String key, byte[] bytes, int ttlSeconds) {
    try {
      engine.store.set(key, bytes, ttlSeconds);
      return true;
    } catch (StoreException e) {
      p.stats().record(Event.ERROR);
      return false;
    }
  }

  private static int storeTtlSeconds(Duration d) {
    long s = Math.max(1, (d.toMillis() + 999) / 1000);
    return (int) Math.min(s, THIRTY_DAYS_SECONDS); // above 30 days memcached reads an absolute time
  }

  /** Headers the response says it varies on, beyond the policy's and Accept-Encoding, with this request's values. */
  private List<Header> responseVary(PageRequest p, CapturedResponse c) {
    LinkedHashSet<String> names = new LinkedHashSet<>();
    for (String v : c.headerValues("Vary")) {
      for (String n : v.split(",")) {
        String name = n.trim().toLowerCase(Locale.ROOT);
        if (!name.isEmpty() && !name.equals("accept-encoding") && !p.policy().vary().contains(name)) {
          names.add(name);
        }
      }
    }
    List<Header> vary = new ArrayList<>();
    for (String name : names) {
      vary.add(new Header(name, PageKeys.headerValue(p.req(), name)));
    }
    return vary;
  }

  /** The page's tags (declared and from X-Cache-Tags) with the versions to record (see TagVersions.forBuild). */
  private List<TagVersion> tagVersions(PageRequest p, CapturedResponse c, long start) {
    LinkedHashSet<String> names = new LinkedHashSet<>();
    Object declared = p.req().getAttribute(PageCache.TAGS_ATTRIBUTE);
    if (declared instanceof List<?> list) {
      synchronized (list) {
        list.forEach(t -> names.add(String.valueOf(t)));
      }
    }
    names.addAll(PageBuilder.headerTags(c));
    names.removeIf(t -> !PageCache.validTag(t));
    if (names.isEmpty()) {
      return List.of();
    }
    List<String> bounded = new ArrayList<>(names).subList(0, Math.min(names.size(), PageCache.MAX_TAGS));
    Map<String, Long> recorded = engine.tags.forBuild(bounded, start);
    List<TagVersion> tags = new ArrayList<>();
    for (String tag : bounded) {
      tags.add(new TagVersion(tag, recorded.getOrDefault(tag, 0L)));
    }
    return tags;
  }
}
