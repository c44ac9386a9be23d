package org.pagecache.internal.freshness;

import com.github.benmanes.caffeine.cache.Caffeine;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.pagecache.store.Namespace;
import org.pagecache.store.Store;
import org.pagecache.store.StoreException;

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
  private static final int MAX_CACHED = 100_000;
  /**
   * Bounded by Caffeine (it keeps the tags in use, where emptying a full map forgot them all at
   * once); a version evicted is read again, and a build then records it as unseen: the safe side.
   */
  private final Map<String, Cached> cache = Caffeine.newBuilder().maximumSize(MAX_CACHED)
      .executor(Runnable::run).<String, Cached>build().asMap();

  /** A version as this JVM knows it; {@code firstSeenMillis}: when this JVM first saw that version. */
  private record Cached(long version, long readAtMillis, long firstSeenMillis) {}

  /**
   * Tag versions come from the invalidating JVM's clock, build starts from the building JVM's. A
   * version this JVM first saw only after a build started is compared with the build start less
   * this margin: were the invalidating clock behind by up to the margin, an edit made during the
   * build would otherwise read as older than the build, and a page built from the data before the
   * edit would stay FRESH for its whole TTL. The margin costs at most one extra rebuild: by the
   * next build this JVM has seen the version, and a version seen before a build started is
   * recorded as it is.
   */
  public static final long CLOCK_SKEW_MARGIN_MILLIS = 1000;

  public TagVersions(Store store, Namespace namespace, Clock clock, long cacheMillis) {
    this.store = store;
    this.namespace = namespace;
    this.clock = clock;
    this.cacheMillis = cacheMillis;
  }

  /**
   * The name under which {@link #current} reports a tag's hard-purge floor, and whose key holds it:
   * a page that recorded an older version of the tag is ABSENT, never served again, not even stale
   * ({@link #purge}). No tag contains a comma, so no tag's own key can be this one.
   */
  public static String hardName(String tag) {
    return HARD + tag;
  }

  private static final String HARD = ",hard,";

  /**
   * Current versions of the tags, and under {@link #hardName} the floor of those a hard purge
   * reached: from this JVM's short cache, the rest in one multi-get.
   */
  public Map<String, Long> current(Collection<String> tags) {
    return read(tags, null);
  }

  /**
   * The versions a page whose build started at {@code buildStart} records. A version this JVM
   * had already seen when the build started is recorded as it is: the invalidation preceded the
   * build. One first seen later may be an invalidation that raced the build, so at most the build
   * start less {@link #CLOCK_SKEW_MARGIN_MILLIS} is recorded and the page stays STALE (its data
   * may predate the invalidation). A version this call created for a tag that had none is no
   * invalidation and is recorded as it is.
   */
  public Map<String, Long> forBuild(Collection<String> tags, long buildStart) {
    Set<String> created = new HashSet<>();
    Map<String, Long> versions = read(tags, created);
    long unsure = buildStart - CLOCK_SKEW_MARGIN_MILLIS;
    versions.replaceAll((tag, v) -> created.contains(tag) || seenBy(tag, v, buildStart) ? v : Math.min(v, unsure));
    return versions;
  }

  /** Whether this JVM had seen {@code version} of the tag by {@code millis}, by its own clock. */
  private boolean seenBy(String tag, long version, long millis) {
    Cached c = cache.get(tag);
    return c != null && c.version == version && c.firstSeenMillis <= millis;
  }

  private Map<String, Long> read(Collection<String> tags, Set<String> created) {
    long now = clock.millis();
    Map<String, Long> versions = new HashMap<>();
    List<String> toRead = new ArrayList<>();
    for (String tag : tags) {
      Cached c = cache.get(tag);
      Cached hard = cache.get(hardName(tag));
      if (c != null && now - c.readAtMillis < cacheMillis && hard != null && now - hard.readAtMillis < cacheMillis) {
        versions.put(tag, c.version);
        if (hard.version > 0) {
          versions.put(hardName(tag), hard.version);
        }
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
      keys.put(namespace.tag(hardName(tag)), hardName(tag)); // in the same round trip
    }
    learned(keys, store.getMulti(keys.keySet()), now, created, versions);
    return versions;
  }

  /**
   * The versions (and floors) of these tags this JVM holds, however old, without asking memcached:
   * for tags whose changes by other JVMs reach this one another way (a group page's URL tag in the
   * near cache, which an evict's change of the handler's evictions key already makes read again).
   */
  public Map<String, Long> known(Collection<String> tags) {
    Map<String, Long> versions = new HashMap<>();
    for (String tag : tags) {
      Cached c = cache.get(tag);
      Cached hard = cache.get(hardName(tag));
      if (c != null) {
        versions.put(tag, c.version);
      }
      if (hard != null && hard.version > 0) {
        versions.put(hardName(tag), hard.version);
      }
    }
    return versions;
  }

  /**
   * The keys of a tag's version and floor, to read in a multi-get the caller makes anyway (a group
   * page's URL tag in the page lookup's, docs/fragments.md); hand the answer to {@link #learned}.
   */
  public Map<String, String> keysOf(String tag) {
    return Map.of(namespace.tag(tag), tag, namespace.tag(hardName(tag)), hardName(tag));
  }

  /**
   * What a multi-get that held {@link #keysOf} answered, asked at {@code askedAtMillis}: remembered
   * as {@link #current} would have read it, so its next call finds the tag without a round trip.
   */
  public void learned(Map<String, String> keys, Map<String, byte[]> found, long askedAtMillis) {
    learned(keys, found, askedAtMillis, null, new HashMap<>());
  }

  private void learned(Map<String, String> keys, Map<String, byte[]> found, long now, Set<String> created,
      Map<String, Long> versions) {
    Map<String, Long> fetched = new HashMap<>();
    for (Map.Entry<String, String> e : keys.entrySet()) {
      String tag = e.getValue();
      long version = Versions.parse(found.get(e.getKey()));
      if (tag.startsWith(HARD)) { // never created: no key, no hard purge
        fetched.put(tag, version);
        continue;
      }
      if (version == 0) {
        version = recreate(e.getKey(), now);
        if (created != null) {
          created.add(tag);
        }
      }
      fetched.put(tag, version);
    }
    // Seen once memcached has answered: a version seen at this time was written before it.
    long seenAt = clock.millis();
    fetched.forEach((tag, version) -> remember(tag, version, now, seenAt));
    // What this JVM knows, not only what memcached said: a hard key evicted or lost with its node
    // reads as missing, and answering 0 would let a purged page be served stale again.
    fetched.forEach((tag, version) -> {
      Cached known = cache.get(tag);
      long v = known == null ? version : Math.max(version, known.version);
      if (v > version && tag.startsWith(HARD)) {
        restore(namespace.tag(tag), v);
      }
      if (v > 0 || !tag.startsWith(HARD)) {
        versions.put(tag, v);
      }
    });
  }

  /** Raises the tag's version: every page carrying it is STALE from now on. */
  public long invalidate(String tag) {
    long version = Versions.raise(store, namespace.tag(tag), clock, 0);
    long now = clock.millis();
    remember(tag, version, now, now);
    return version;
  }

  /**
   * A hard purge (a takedown): raises the tag's version as {@link #invalidate} does, and makes it
   * the tag's floor, so every page that recorded an older version is ABSENT from now on: not served
   * stale, not revalidated, not kept by the near cache. A build that started before the purge
   * records an older version ({@link #forBuild}), so its page is never served either.
   *
   * @return the new version, which is the floor
   */
  public long purge(String tag) {
    long version = invalidate(tag);
    Versions.atLeast(store, namespace.tag(hardName(tag)), version, 0);
    long now = clock.millis();
    remember(hardName(tag), version, now, now);
    return version;
  }

  /** Writes back a hard floor memcached lost, so the JVMs that never saw the purge learn it too; best effort. */
  private void restore(String key, long floor) {
    try {
      Versions.atLeast(store, key, floor, 0);
    } catch (StoreException e) {
      // the floor stays in this JVM's cache; the next read tries again
    }
  }

  private long recreate(String key, long now) {
    if (store.add(key, Versions.encode(now), 0)) {
      return now;
    }
    long theirs = Versions.parse(store.get(key));
    return theirs == 0 ? now : theirs;
  }

  private void remember(String tag, long version, long readAt, long seenAt) {
    cache.merge(tag, new Cached(version, readAt, seenAt), (old, fresh) -> {
      if (fresh.version > old.version) {
        return fresh;
      }
      long firstSeen = fresh.version == old.version ? Math.min(old.firstSeenMillis, fresh.firstSeenMillis)
          : old.firstSeenMillis;
      return new Cached(old.version, fresh.readAtMillis, firstSeen);
    });
  }
}
