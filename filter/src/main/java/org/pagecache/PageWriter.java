package org.pagecache;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import org.pagecache.internal.capture.CacheStatus;
import org.pagecache.internal.capture.CapturedResponse;
import org.pagecache.internal.capture.Freshening;
import org.pagecache.internal.capture.PageBuilder;
import org.pagecache.internal.fragments.Placeholders;
import org.pagecache.internal.freshness.HitForMiss;
import org.pagecache.internal.freshness.RefusedTags;
import org.pagecache.internal.freshness.TagVersions;
import org.pagecache.internal.key.PageKeys;
import org.pagecache.internal.key.VaryRecord;
import org.pagecache.internal.near.NearCache;
import org.pagecache.internal.stats.Event;
import org.pagecache.internal.store.LostWrites;
import org.pagecache.internal.store.PageCodec;
import org.pagecache.internal.store.StoredPage.Header;
import org.pagecache.internal.store.StoredPage.TagVersion;
import org.pagecache.internal.store.StoredPage;
import org.pagecache.store.Store;
import org.pagecache.store.StoreException;
import org.pagecache.store.Values;

/**
 * Writes what a build decided to the store: the page (with its tags' versions and the headers it
 * varies on), or a small marker saying its build was refused; the outcome it returns hands the page
 * on to the requests of this JVM waiting for it.
 */
final class PageWriter {
  /**
   * The pieces of the cache a writer uses, made once ({@link PageFlow}).
   *
   * @param cacheHeader    the header that tells what the cache did ({@code header})
   * @param maxEntrySize   the largest page stored, in bytes once encoded
   * @param uncacheableTtl how long a refusal marker stands
   */
  record Tools(Lookup lookup, Clock clock, PageKeys keys, PageCodec codec, TagVersions tags, NearCache near,
      RefusedTags refusedTags, LostWrites lostWrites, String cacheHeader, int maxEntrySize, Duration uncacheableTtl) {}

  private final Tools tools;
  private final Lookup lookup;

  PageWriter(Tools tools) {
    this.tools = tools;
    this.lookup = tools.lookup();
  }

  /** @param into where the build's lock was taken ({@code RebuildLock.Lease#placement}), or the engine's store */
  Outcome store(PageRequest p, Found found, BuildDecision d, StoredPage stale, long start, Store into) {
    CapturedResponse c = d.response();
    Duration fresh = d.fresh();
    long now = tools.clock().millis();
    LinkedHashSet<String> tagNames = tagNames(p, c);
    String tagRefusal = Names.tagRefusal(tagNames);
    if (tagRefusal != null) { // stored only if a purge of every tag it named reaches it
      tools.refusedTags().refused(p.handler(), tagRefusal, Names.tagRefusalDetail(tagRefusal, tagNames));
      Outcome.HandOn marker = rememberRefusal(p, found, tagRefusal, start, into);
      p.stats().bypass(tagRefusal);
      return new Outcome.Replay(c, CacheStatus.refused(tagRefusal), marker);
    }
    if (p.notes().visitor != null) { // a group's page: an evict of its URL reaches it through this tag
      tagNames.add(SignedInVisitors.urlTag(tools.keys(), p));
    }
    List<Header> vary = responseVary(p, c);
    // A page that varies is stored under its variant key, and its URL's key gets the record naming the headers.
    StoredPage record = vary.isEmpty() ? null : lookup.varyRecord(p, vary.stream().map(Header::name).toList(), now);
    String key = record == null ? lookup.pageKey(p) : lookup.variantKey(p, record);
    List<TagVersion> tags;
    try {
      tags = tagVersions(tagNames, start);
    } catch (StoreException e) {
      tags = null;
    }
    boolean mustRevalidate = d.forbidsStale();
    StoredPage page = PageBuilder.build(c, new PageBuilder.Context(now, fresh.toMillis(), now - start,
        found.token(), tags == null ? List.of() : tags, LiveCounts.declared(p.req()), Placeholders.contains(c.body()),
        vary, tools.cacheHeader(), mustRevalidate, d.ageSeconds()));
    p.notes().built = page;
    p.notes().builtIdentity = c.body(); // what the stored body inflates to: this request's answer needs no gunzip
    byte[] bytes = tools.codec().encode(page);
    if (tags == null) {
      p.stats().record(Event.ERROR);
      return Outcome.serving(page, CacheStatus.miss(stale != null, false));
    }
    if (bytes.length > tools.maxEntrySize()) {
      Outcome.HandOn marker = rememberRefusal(p, found, "too-large", start, into);
      p.stats().bypass("too-large");
      return new Outcome.Replay(c, CacheStatus.refused("too-large"), marker);
    }
    int ttl = storeTtlSeconds(keptFor(page, fresh, p.policy()));
    boolean stored = record == null || storeQuietly(p, into, lookup.pageKey(p), tools.codec().encode(record), ttl);
    stored = stored && storeQuietly(p, into, key, bytes, ttl);
    if (stored) {
      p.stats().record(Event.WRITE);
      tools.near().remember(key, p.handler(), page, now);
    }
    return Outcome.handingOn(found.key(), page, CacheStatus.miss(stale != null, stored));
  }

  /**
   * The handler answered the revalidation with 304: the stored page, its headers updated with the
   * 304's and its freshness judged anew from them, is stored again and served (RFC 9111 4.3.4);
   * the body is not built again. If the updated headers now forbid storing, it is served this once.
   */
  Outcome freshened(PageRequest p, Found found, CapturedResponse notModified, long start, boolean containerSetCookie,
      String sessionUse, Store into) {
    StoredPage old = found.page();
    long now = tools.clock().millis();
    List<Header> merged = Freshening.merged(old.headers(), notModified.headers());
    CapturedResponse asStored = new CapturedResponse(old.status(), merged, List.of(), new byte[0], null, false, false,
        false);
    BuildDecision d = BuildDecision.of(asStored, p.policy(), start, null, containerSetCookie, false, sessionUse);
    if (d.kind() != BuildDecision.Kind.STORE) {
      p.stats().bypass(d.reason());
      return Outcome.serving(old, CacheStatus.refused(d.reason()));
    }
    List<TagVersion> tags = old.tags();
    if (!tags.isEmpty()) {
      try {
        Map<String, Long> recorded = tools.tags().forBuild(tags.stream().map(TagVersion::tag).toList(), start);
        tags = tags.stream().map(t -> new TagVersion(t.tag(), recorded.getOrDefault(t.tag(), 0L))).toList();
      } catch (StoreException e) {
        p.stats().record(Event.ERROR);
        return Outcome.serving(old, CacheStatus.miss(true, false));
      }
    }
    List<Header> headers = new ArrayList<>(merged);
    headers.removeIf(h -> h.name().equalsIgnoreCase("Age"));
    if (d.ageSeconds() > 0) {
      headers.add(new Header("Age", Long.toString(d.ageSeconds())));
    }
    StoredPage page = new StoredPage(old.status(), headers, old.body(), old.gzipped(), old.etag(), now,
        now + d.fresh().toMillis(), now - start, found.token(), tags, old.viewKeys(), old.placeholders(), old.vary(),
        null, d.forbidsStale(), 0);
    int ttl = storeTtlSeconds(keptFor(page, d.fresh(), p.policy()));
    boolean stored = storeQuietly(p, into, found.key(), tools.codec().encode(page), ttl);
    if (stored) {
      p.stats().record(Event.WRITE);
      tools.near().remember(found.key(), p.handler(), page, now);
    }
    return Outcome.handingOn(found.key(), page, CacheStatus.miss(true, stored));
  }

  /**
   * How long memcached keeps a page: its fresh time and the grace. A page that may not be served
   * stale is of no use past its fresh time, unless it has the application's validators: then it is
   * kept to be revalidated (never served stale: {@code Freshness} calls it ABSENT).
   */
  private static Duration keptFor(StoredPage page, Duration fresh, CachePolicy policy) {
    return page.mustRevalidate() && Freshening.conditions(page).isEmpty() ? fresh : fresh.plus(policy.grace());
  }

  /**
   * A small marker entry: the last build of this page was refused, so nobody waits on its lock;
   * it counts the refusals in a row, which decides between miss and pass (see {@link HitForMiss}).
   * Returns the marker for the requests of this JVM waiting for the page.
   */
  Outcome.HandOn rememberRefusal(PageRequest p, Found found, String reason, long now, Store into) {
    StoredPage marker = StoredPage.uncacheable(reason, HitForMiss.refusalsAfter(found.page(), now), now,
        now + tools.uncacheableTtl().toMillis());
    storeQuietly(p, into, found.key(), tools.codec().encode(marker),
        (int) Math.max(1, tools.uncacheableTtl().toSeconds()));
    return new Outcome.HandOn(found.key(), marker);
  }

  /** Stores the entry; a write memcached refused or could not take counts as a store error and is logged (LostWrites). */
  private boolean storeQuietly(PageRequest p, Store into, String key, byte[] bytes, int ttlSeconds) {
    StoreException failure = null;
    try {
      if (into.set(key, bytes, ttlSeconds)) {
        return true;
      }
    } catch (StoreException e) {
      failure = e;
    }
    p.stats().record(Event.ERROR);
    tools.lostWrites().lost(p.handler(), failure);
    return false;
  }

  private static int storeTtlSeconds(Duration d) {
    return Values.expirySeconds(d.toMillis());
  }

  /** Headers the response says it varies on, beyond the policy's and Accept-Encoding, with this request's values. */
  private List<Header> responseVary(PageRequest p, CapturedResponse c) {
    List<Header> vary = new ArrayList<>();
    for (String name : VaryRecord.names(c.headerValues("Vary"), p.policy().keyedHeaders())) {
      vary.add(new Header(name, PageKeys.headerValue(p.req(), name)));
    }
    return vary;
  }

  /** The page's tags: declared by the handler and named in the tag headers, each once. */
  private static LinkedHashSet<String> tagNames(PageRequest p, CapturedResponse c) {
    LinkedHashSet<String> names = new LinkedHashSet<>();
    Object declared = p.req().getAttribute(Declared.TAGS_ATTRIBUTE);
    if (declared instanceof List<?> list) {
      synchronized (list) {
        list.forEach(t -> names.add(String.valueOf(t)));
      }
    }
    names.addAll(PageBuilder.headerTags(c));
    return names;
  }

  /** The versions to record for the page's tags, every one of them valid (see TagVersions.forBuild). */
  private List<TagVersion> tagVersions(LinkedHashSet<String> names, long start) {
    if (names.isEmpty()) {
      return List.of();
    }
    Map<String, Long> recorded = tools.tags().forBuild(names, start);
    List<TagVersion> tags = new ArrayList<>();
    for (String tag : names) {
      tags.add(new TagVersion(tag, recorded.getOrDefault(tag, 0L)));
    }
    return tags;
  }
}
