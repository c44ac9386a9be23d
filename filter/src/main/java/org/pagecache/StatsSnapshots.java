package org.pagecache;

import java.util.LinkedHashMap;
import java.util.Map;
import org.pagecache.stats.CookieBypasses;
import org.pagecache.stats.HandlerStats;
import org.pagecache.stats.Stats;
import org.pagecache.internal.stats.HandlerRecorder;
import org.pagecache.internal.stats.StatsRecorder;

/** Reads the engine's live recorders into the public, immutable snapshots. */
final class StatsSnapshots {
  private StatsSnapshots() {}

  static Stats of(StatsRecorder recorder) {
    Map<String, HandlerStats> handlers = new LinkedHashMap<>();
    for (HandlerRecorder h : recorder.all()) {
      handlers.put(h.handler(), of(h));
    }
    return new Stats(handlers);
  }

  static HandlerStats of(HandlerRecorder h) {
    Map<String, CookieBypasses> cookies = new LinkedHashMap<>();
    h.cookieBypasses().forEach((name, counts) -> cookies.put(name, new CookieBypasses(counts[0], counts[1])));
    return new HandlerStats(h.handler(), h.hits(), h.stale(), h.misses(), h.rebuilds(), h.lockWaits(),
        h.bypasses(), h.storeErrors(), h.builds(), h.buildNanos(), h.rebuiltSinceRefresh(),
        h.lastRefreshMillis(), h.lastRefreshBy(), h.lastToken(), h.trace(), h.bypassesByReason(), cookies,
        h.unkeyedHeaders(), h.sessionBypasses(), h.keyedParameters(), h.signedInRequests(), h.signedInHits(),
        h.fragments(), h.fragmentNanos(), h.fragmentFailures(), h.backgroundRebuilds(), h.backgroundSkipped(),
        h.backgroundFailures(), h.backgroundNotStored(), h.keyedOn(), h.parametersLeftOut());
  }
}
