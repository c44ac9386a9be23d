package org.pagecache.freshness;

import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.pagecache.key.Namespace;
import org.pagecache.store.Store;

/**
 * Tag versions for group invalidation: each tag has a key holding a time in milliseconds;
 * invalidating the tag raises it, and every page that recorded an older version becomes STALE,
 * whatever its handler. Versions are cached in this JVM for a short time so a hot tag is not read
 * on every hit (other JVMs see an invalidation within that time; this JVM at once).
 *
 * <p>A tag with no version in memcached (never invalidated, or its key was lost) is created as
 * "now": pages that recorded an older version rebuild once. That is the safe side: a lost version
 * can never bring back a page that an invalidation had condemned.
 */
public final class TagVersions {
  private final Store store;
  private final Namespace namespace;
  private final Clock clock;
  private final long cacheMillis;
  private final Map<String, Cached> cache = new ConcurrentHashMap<>();
  private static final int MAX_CACHED = 100_000;

  private record Cached(long version, long readAtMillis) {}

  public TagVersions(Store store, Namespace namespace, Clock clock, long cacheMillis) {
    this.store = store;
    this.namespace = namespace;
    this.clock = clock;
    this.cacheMillis = cacheMillis;
  }

  /** Current versions of the tags: from this JVM's short cache, the rest in one multi-get. */
  public Map<String, Long> current(Collection<String> tags) {
    return read(tags, null);
  }

  /**
   * The versions a page whose build started at {@code buildStart} records. A version newer than
   * the start means an invalidation raced the build, so the start is recorded instead and the
   * page stays STALE (its data may predate the invalidation). A version this call created for a
   * tag that had none is no invalidation and is recorded as it is.
   */
  public Map<String, Long> forBuild(Collection<String> tags, long buildStart) {
    Set<String> created = new HashSet<>();
    Map<String, Long> versions = read(tags, created);
    versions.replaceAll((tag, v) -> created.contains(tag) ? v : Math.min(v, buildStart));
    return versions;
  }

  private Map<String, Long> read(Collection<String> tags, Set<String> created) {
    long now = clock.millis();
    Map<String, Long> versions = new HashMap<>();
    List<String> toRead = new ArrayList<>();
    for (String tag : tags) {
      Cached c = cache.get(tag);
      if (c != null && now - c.readAtMillis < cacheMillis) {
        versions.put(tag, c.version);
      } else {
        toRead.add(tag);
      }
    }
    if (toRead.isEmpty()) {
      return versions;
    }
    Map<String, String> keys = new HashMap<>();
    for (String tag : toRead) {
      keys.put(namespace.tag(tag), tag);
    }
    Map<String, byte[]> found = store.getMulti(keys.keySet());
    for (Map.Entry<String, String> e : keys.entrySet()) {
      String tag = e.getValue();
      long version = Versions.parse(found.get(e.getKey()));
      if (version == 0) {
        version = recreate(e.getKey(), now);
        if (created != null) {
          created.add(tag);
        }
      }
      remember(tag, version, now);
      versions.put(tag, version);
    }
    return versions;
  }

  /** Raises the tag's version: every page carrying it is STALE from now on. */
  public long invalidate(String tag) {
    long version = Versions.raise(store, namespace.tag(tag), clock, 0);
    remember(tag, version, clock.millis());
    return version;
  }

  private long recreate(String key, long now) {
    if (store.add(key, Versions.encode(now), 0)) {
      return now;
    }
    long theirs = Versions.parse(store.get(key));
    return theirs == 0 ? now : theirs;
  }

  private void remember(String tag, long version, long now) {
    if (cache.size() > MAX_CACHED) {
      cache.clear();
    }
    cache.merge(tag, new Cached(version, now),
        (old, fresh) -> new Cached(Math.max(old.version, fresh.version), fresh.readAtMillis));
  }
}
