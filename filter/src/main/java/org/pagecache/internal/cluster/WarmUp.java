package org.pagecache.internal.cluster;

import org.pagecache.stats.ClusterStatus;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Predicate;
import org.pagecache.internal.freshness.Freshness;
import org.pagecache.internal.freshness.TagVersions;
import org.pagecache.internal.freshness.UpdateTokens;
import org.pagecache.internal.freshness.Versions;
import org.pagecache.internal.store.IdentityCopies;
import org.pagecache.internal.store.StoredPage;
import org.pagecache.internal.store.PageCodec;
import org.pagecache.store.Namespace;
import org.pagecache.store.Store;
import org.pagecache.store.StoreException;

/**
 * Cold cluster warm-up (FB §4.3): for {@code memcached.warm.for} after start-up, a page missing
 * here is first read from the warm cluster ({@code memcached.warm.from}); a copy still FRESH by
 * this cluster's token and tag versions is stored here and served instead of being built.
 *
 * <p>The race FB guards with a hold-off after each delete: a copy read before a refresh, an
 * invalidation or an eviction here, and stored after it, must not be served as fresh. Refreshes and
 * invalidations raise versions that stay (the copy is judged against them, and again after it is
 * stored: a version raised meanwhile leaves the copy STALE, and this request builds); an eviction
 * leaves a short hold-off key ({@link Invalidation#holdOffKey}), and a copy stored while it is there
 * is deleted again. The warm cluster's token and tag versions are first written here as floors
 * (never lowering anything), so a cold cluster, which has none, does not judge by "never refreshed".
 */
final class WarmUp {
  private final String from;
  private final Store warm;
  private final Store local;
  private final UpdateTokens tokens;
  private final TagVersions tags;
  private final PageCodec codec;
  private final Namespace namespace;
  private final Clock clock;
  private final long untilMillis;
  private final LongAdder copied = new LongAdder();
  private final LongAdder built = new LongAdder();
  private final LongAdder refused = new LongAdder();

  WarmUp(String from, Store warm, Store local, UpdateTokens tokens, TagVersions tags, PageCodec codec,
      Namespace namespace, Clock clock, Duration during) {
    this.from = from;
    this.warm = warm;
    this.local = local;
    this.tokens = tokens;
    this.tags = tags;
    this.codec = codec;
    this.namespace = namespace;
    this.clock = clock;
    this.untilMillis = clock.millis() + during.toMillis();
  }

  boolean active() {
    return clock.millis() < untilMillis;
  }

  /**
   * The page copied from the warm cluster and stored here, or null when the caller builds it (warm-up
   * over, not there, not this request's variant, not fresh by this cluster, or evicted meanwhile).
   *
   * @param variant whether a page is the variant this request asks for
   * @param grace how long the copy is kept past its fresh time, as a build here would be
   */
  StoredPage copy(String handler, String pageKey, Predicate<StoredPage> variant, Duration grace) {
    if (!active()) {
      return null;
    }
    try {
      StoredPage page = readAndStore(handler, pageKey, variant, grace);
      (page != null ? copied : built).increment();
      return page;
    } catch (StoreException | IllegalStateException e) {
      built.increment(); // either cluster failing: build as without warm-up
      return null;
    } catch (StaleCopy e) {
      refused.increment();
      return null;
    }
  }

  /** A copy that is not fresh by this cluster, or was evicted meanwhile. */
  private static final class StaleCopy extends Exception {
    StaleCopy() {
      super(null, null, false, false);
    }
  }

  private StoredPage readAndStore(String handler, String pageKey, Predicate<StoredPage> variant, Duration grace)
      throws StaleCopy {
    String tokenKey = namespace.token(handler);
    Map<String, byte[]> got = warm.getMulti(List.of(tokenKey, pageKey));
    byte[] bytes = got.get(pageKey);
    StoredPage page = codec.decode(pageKey, bytes);
    if (page == null || page.isUncacheableMarker() || !variant.test(page)) {
      return null;
    }
    long warmToken = Versions.parse(got.get(tokenKey));
    Map<String, Long> warmVersions = warmTagVersions(page);
    seed(tokenKey, warmToken, warmVersions);
    long now = clock.millis();
    if (!fresh(page, handler, warmToken, warmVersions, now)) {
      throw new StaleCopy();
    }
    long keepMillis = page.freshUntilMillis() - now + (page.mustRevalidate() ? 0 : grace.toMillis());
    if (!local.add(pageKey, bytes, (int) Math.max(1, Math.min(keepMillis / 1000 + 1, 30L * 24 * 3600)))) {
      return null; // something was stored meanwhile (a build here): the usual path finds it
    }
    recheck(handler, pageKey, page, warmToken, warmVersions);
    return page;
  }

  /** The warm cluster's versions of the page's tags (missing ones as 0). */
  private Map<String, Long> warmTagVersions(StoredPage page) {
    if (page.tags().isEmpty()) {
      return Map.of();
    }
    Map<String, String> keys = new HashMap<>();
    page.tags().forEach(t -> keys.put(namespace.tag(t.tag()), t.tag()));
    Map<String, byte[]> got = warm.getMulti(keys.keySet());
    Map<String, Long> versions = new HashMap<>();
    keys.forEach((key, tag) -> versions.put(tag, Versions.parse(got.get(key))));
    return versions;
  }

  /** Writes the warm cluster's token and tag versions here as floors: never lowers one. */
  private void seed(String tokenKey, long warmToken, Map<String, Long> warmVersions) {
    if (warmToken > 0) {
      Versions.atLeast(local, tokenKey, warmToken, 0);
    }
    warmVersions.forEach((tag, v) -> {
      if (v > 0) {
        Versions.atLeast(local, namespace.tag(tag), v, 0);
      }
    });
  }

  /** FRESH by the larger of this cluster's and the warm cluster's token and tag versions. */
  private boolean fresh(StoredPage page, String handler, long warmToken, Map<String, Long> warmVersions, long now) {
    long token = Math.max(warmToken, tokens.effective(handler, local.get(namespace.token(handler))));
    Map<String, Long> versions = new HashMap<>(warmVersions);
    if (!page.tags().isEmpty()) {
      List<String> names = new ArrayList<>();
      page.tags().forEach(t -> names.add(t.tag()));
      tags.current(names).forEach((tag, v) -> versions.merge(tag, v, Math::max));
    }
    return Freshness.classify(page, now, token, versions, 0, 1).state() == Freshness.State.FRESH;
  }

  /**
   * After the copy is stored: an eviction meanwhile (its hold-off) deletes it again; a refresh or
   * invalidation meanwhile leaves it STALE here (its version is newer), and this request builds.
   */
  private void recheck(String handler, String pageKey, StoredPage page, long warmToken,
      Map<String, Long> warmVersions) throws StaleCopy {
    if (local.get(Invalidation.holdOffKey(pageKey)) != null) {
      local.delete(pageKey);
      IdentityCopies.delete(local, pageKey); // one a lookup made meanwhile may carry the evictions value after the evict
      throw new StaleCopy();
    }
    if (!fresh(page, handler, warmToken, warmVersions, clock.millis())) {
      throw new StaleCopy();
    }
  }

  ClusterStatus.WarmUpProgress progress() {
    long left = Math.max(0, untilMillis - clock.millis());
    return new ClusterStatus.WarmUpProgress(from, left > 0, left, copied.sum(), built.sum(), refused.sum());
  }
}
