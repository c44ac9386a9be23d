package org.pagecache.admin;

import java.time.Instant;
import java.util.Map;
import org.pagecache.stats.TagInvalidation;
import org.pagecache.stats.SiteStats;
import org.pagecache.stats.Refresh;
import org.pagecache.stats.NearStats;
import org.pagecache.stats.Eviction;
import org.pagecache.PageCache;
import org.pagecache.internal.json.Json;

/**
 * The JSON bodies of the API. Field names are a contract (docs/admin-api.md): add fields, never
 * rename or remove them.
 */
final class StatsJson {
  private StatsJson() {}

  /** {@code GET api/stats}. */
  static String stats(Snapshot s) {
    Json j = new Json().beginObject()
        .field("time", s.now().toString())
        .field("store", s.store())
        .field("storeDown", s.storeDown())
        .name("handlers").beginArray();
    for (Snapshot.HandlerRow h : s.handlers()) {
      handler(j, h, s.site().get(h.name()));
    }
    j.endArray().name("servers").beginArray();
    for (Snapshot.ServerRow server : s.servers()) {
      server(j, server);
    }
    j.endArray().name("near");
    near(j, s.near());
    ClustersSection.json(j, s.clusters()); // issue 19
    return j.endObject().toString();
  }

  private static void handler(Json j, Snapshot.HandlerRow h, SiteStats cluster) {
    j.beginObject()
        .field("name", h.name())
        .field("policy", h.policy())
        .field("hits", h.hits())
        .field("stale", h.stale())
        .field("misses", h.misses())
        .field("rebuilds", h.rebuilds())
        .field("lockWaits", h.lockWaits())
        .field("bypasses", h.bypasses())
        .field("storeErrors", h.storeErrors())
        .field("hitRatio", h.counted() ? h.hitRatio() : null)
        .field("lastRefresh", h.refreshed() ? Instant.ofEpochMilli(h.lastRefreshMillis()).toString() : null)
        .field("lastRefreshBy", h.refreshed() ? h.lastRefreshBy() : null)
        .field("lastToken", h.refreshed() ? (Long) h.lastToken() : null)
        .field("storedToken", h.storedToken() > 0 ? (Long) h.storedToken() : null)
        .field("rebuiltSinceRefresh", h.rebuiltSinceRefresh())
        .field("trace", h.trace());
    counts(j.name("bypassReasons"), h.bypassReasons());
    j.name("bypassCookies").beginArray();
    h.bypassCookies().forEach((name, c) -> j.beginObject()
        .field("name", name)
        .field("bypasses", c[0])
        .field("readByHandler", c[1])
        .endObject());
    j.endArray();
    counts(j.name("unkeyedHeaders"), h.unkeyedHeaders());
    if (h.unkeyedHeaders().isEmpty()) {
      j.field("unkeyedHeadersFix", null);
    } else {
      j.name("unkeyedHeadersFix").beginObject()
          .field("vary", h.varyFix())
          .field("varyHeaders", h.varyHeadersFix())
          .field("harmless", h.harmlessFix())
          .endObject();
    }
    j.field("originCacheHeaders", h.originHeadersIgnored() ? "ignore" : "obey");
    counts(j.name("keyedParameters"), h.keyedParameters());
    j.name("parameters").beginObject()
        .field("keyedOn", h.keyedOn())
        .field("leftOut", h.parametersLeftOut())
        .endObject();
    counts(j.name("sessionBypasses"), h.sessionBypasses());
    j.name("signedIn").beginObject()
        .field("requests", h.signedInRequests())
        .field("hits", h.signedInHits())
        .field("hitRatio", h.signedInRequests() > 0 ? h.signedInHitRatio() : null)
        .field("anonymousHitRatio", h.counted() ? h.anonymousHitRatio() : null)
        .endObject();
    j.name("background").beginObject()
        .field("rebuilds", h.backgroundRebuilds())
        .field("skipped", h.backgroundSkipped())
        .field("failures", h.backgroundFailures())
        .field("notStored", h.backgroundNotStored())
        .endObject();
    j.name("fragments").beginObject()
        .field("filled", h.fragments())
        .field("renderMillis", h.fragmentNanos() / 1_000_000)
        .field("empty", h.fragmentFailures())
        .endObject();
    cluster(j.name("cluster"), cluster);
    j.endObject();
  }

  /**
   * The handler's figures summed over every frontend sharing memcached, over the last
   * {@value SiteStats#WINDOW_MINUTES} minutes (issue 22); null when memcached could not be read.
   */
  private static void cluster(Json j, SiteStats c) {
    if (c == null) {
      j.nullValue();
      return;
    }
    j.beginObject()
        .field("windowMinutes", SiteStats.WINDOW_MINUTES)
        .field("hits", c.hits())
        .field("misses", c.misses())
        .field("rebuilds", c.rebuilds())
        .field("bypasses", c.bypasses())
        .field("rebuiltSinceRefresh", c.rebuiltSinceRefresh() < 0 ? null : (Long) c.rebuiltSinceRefresh())
        .endObject();
  }

  private static void counts(Json j, Map<String, Long> counts) {
    j.beginObject();
    counts.forEach(j::field);
    j.endObject();
  }

  /** This JVM's near cache (issue 14): what it holds and how often it answered without memcached. */
  private static void near(Json j, NearStats n) {
    j.beginObject()
        .field("enabled", n.enabled())
        .field("entries", n.entries())
        .field("bytes", n.bytes())
        .field("maxBytes", n.maxBytes())
        .field("sizedBy", n.sizedBy())
        .field("trustMillis", n.trustMillis())
        .field("hits", n.hits())
        .field("misses", n.misses())
        .field("hitRatio", n.hitRatio() < 0 ? null : (Double) n.hitRatio())
        .endObject();
  }

  private static void server(Json j, Snapshot.ServerRow s) {
    j.beginObject()
        .field("address", s.address())
        .field("pool", s.pool())
        .field("up", s.up())
        .field("version", s.version())
        .field("uptimeSeconds", s.uptimeSeconds())
        .field("currItems", s.currItems())
        .field("bytes", s.bytes())
        .field("limitMaxbytes", s.limitMaxbytes())
        .field("getHits", s.getHits())
        .field("getMisses", s.getMisses())
        .field("getHitRatio", s.getHitRatio())
        .field("evictions", s.evictions())
        .field("cmdFlush", s.cmdFlush())
        .name("slabs").beginArray();
    for (SlabClass c : s.slabs()) {
      j.beginObject()
          .field("class", c.id())
          .field("chunkSize", c.chunkSize())
          .field("chunksPerPage", c.chunksPerPage())
          .field("totalPages", c.totalPages())
          .field("totalChunks", c.totalChunks())
          .field("usedChunks", c.usedChunks())
          .field("allocatedBytes", c.allocatedBytes())
          .field("usedBytes", c.usedBytes())
          .endObject();
    }
    j.endArray().endObject();
  }

  /** {@code POST api/handlers/{name}/refresh}. */
  static String refresh(Refresh r, boolean known, String by, Instant at) {
    Json j = new Json().beginObject()
        .field("handler", r.handler())
        .field("token", r.token())
        .field("known", known)
        .field("refreshedBy", by)
        .field("refreshedAt", at.toString());
    return ClustersSection.delivery(j, r.clusters()).endObject().toString();
  }

  /** {@code POST api/tags/{tag}/invalidate} and {@code /purge}. */
  static String invalidation(TagInvalidation t) {
    return invalidation(new Json(), t).toString();
  }

  private static Json invalidation(Json j, TagInvalidation t) {
    j.beginObject().field("tag", t.tag()).field("version", t.version()).field("hard", t.hard());
    return ClustersSection.delivery(j, t.clusters()).endObject();
  }

  /** {@code POST api/tags/invalidate?tag=...} and {@code api/tags/purge?tag=...}: one object per tag. */
  static String invalidations(java.util.List<TagInvalidation> done) {
    Json j = new Json().beginObject();
    j.name("tags").beginArray();
    done.forEach(t -> invalidation(j, t));
    return j.endArray().endObject().toString();
  }

  /** {@code POST api/evict?url=...}. */
  static String eviction(Eviction e) {
    Json j = new Json().beginObject()
        .field("url", e.url())
        .field("handler", e.handler())
        .field("existed", e.existed());
    return ClustersSection.delivery(j, e.clusters()).endObject().toString();
  }
}
