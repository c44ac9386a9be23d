package org.pagecache;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import org.pagecache.internal.capture.PageSender;
import org.pagecache.internal.fragments.GroupPages;
import org.pagecache.internal.freshness.Freshness.Decision;
import org.pagecache.internal.freshness.Freshness;
import org.pagecache.internal.freshness.TagVersions;
import org.pagecache.internal.freshness.UpdateTokens;
import org.pagecache.internal.key.PageKeys;
import org.pagecache.internal.key.VaryRecord;
import org.pagecache.internal.near.HandlerConfirmations;
import org.pagecache.internal.near.NearCache;
import org.pagecache.internal.near.WaitingList;
import org.pagecache.internal.stats.PageTrace;
import org.pagecache.internal.store.IdentityCopies;
import org.pagecache.internal.store.PageCodec;
import org.pagecache.internal.store.StoredPage.TagVersion;
import org.pagecache.internal.store.StoredPage;
import org.pagecache.store.Namespace;
import org.pagecache.store.Store;

/**
 * Finds the page for a request and classifies it ({@link Freshness}): from this JVM's near cache,
 * from another request of this JVM that built it meanwhile, or from memcached in one round trip
 * (the page; the handler's token with it unless this JVM confirmed it within {@code near.trust},
 * {@link HandlerConfirmations}; for a client without gzip the page's identity copy first, {@link
 * IdentityCopies}; for a group's page its URL tag too, {@code GroupPages}). What it learns for later
 * steps (the near cache entry, a wait already done, the vary record, a copy to make) it keeps in the
 * {@link PageRequest}.
 */
final class Lookup {
  private final Clock clock;
  private final PageKeys keys;
  private final UpdateTokens tokens;
  private final TagVersions tags;
  private final Store store;
  private final PageCodec codec;
  private final NearCache near;
  private final HandlerConfirmations confirmations;
  private final IdentityCopies copies;
  private final WaitingList waiting;
  private final Duration lockWait;

  /** @param lockWait {@code lock.wait}: how long a request waits in the JVM for another's build */
  Lookup(Clock clock, PageKeys keys, UpdateTokens tokens, TagVersions tags, Store store, PageCodec codec,
      NearCache near, HandlerConfirmations confirmations, IdentityCopies copies, WaitingList waiting,
      Duration lockWait) {
    this.clock = clock;
    this.keys = keys;
    this.tokens = tokens;
    this.tags = tags;
    this.store = store;
    this.codec = codec;
    this.near = near;
    this.confirmations = confirmations;
    this.copies = copies;
    this.waiting = waiting;
    this.lockWait = lockWait;
  }

  /**
   * The page for this request: from this JVM's near cache, from another request of this JVM that
   * is building it ({@code mayWait}), or from memcached. The holder of a rebuild lock never waits
   * in the JVM: the requests waiting there wait for it.
   */
  Found find(PageRequest p, boolean mayWait) {
    String key = pageKey(p);
    Found known = nearOrWaited(p, key, mayWait); // this JVM's memory, or another request of it building the page
    if (known != null) {
      return known;
    }
    long askedAt = clock.millis();
    List<String> asked = lookupKeys(p, key);
    p.notes().lookupKeys = asked; // a build's second look reads them all again, the token included
    // The token as this JVM knows it when memcached confirmed it within near.trust, as for a near
    // entry: the page alone then, one get (a refresh elsewhere is seen within the window, as documented).
    boolean tokenKnown = confirmations.tokenConfirmed(p.handler());
    if (tokenKnown && readsCopies(p)) {
      Found copy = identityCopy(p, key, askedAt);
      if (copy != null) {
        return copy;
      }
    }
    List<String> read = tokenKnown ? asked.subList(1, asked.size()) : asked;
    return found(p, key, read.size() == 1 ? one(key) : store.getMulti(read), askedAt, !tokenKnown);
  }

  /**
   * For a client without gzip: the page's identity copy ({@link IdentityCopies}) when it is FRESH
   * and was made after the last evict this JVM confirmed, else null (the page is read, and a copy
   * made from it if it is fresh). Judged as a near entry: the token and tag versions this JVM knows.
   */
  private Found identityCopy(PageRequest p, String key, long askedAt) {
    long evictions = confirmations.evictionsConfirmed(p.handler());
    if (evictions == HandlerConfirmations.UNKNOWN) {
      return null;
    }
    p.notes().copyStamp = evictions; // known before the page is read: a copy of it carries this
    IdentityCopies.Copy copy = copies.read(key);
    if (copy == null || copy.evictions() != evictions) {
      return null;
    }
    p.notes().copyRead = copy;
    Found f = judged(p, key, copy.page());
    if (f == null || f.decision().state() != Freshness.State.FRESH) {
      return null;
    }
    near.remember(Namespace.identityCopyOf(key), p.handler(), copy.page(), askedAt); // held as a page of its own
    return f;
  }

  /**
   * Whether this request reads identity copies: {@code identity.copies=on}, a client without gzip,
   * anonymous. Not a background rebuild's request: it is sent to rebuild the page, which a copy
   * cannot stand for.
   */
  private boolean readsCopies(PageRequest p) {
    return copies.on() && p.notes().visitor == null && !p.notes().background
        && !PageSender.acceptsGzip(p.req().getHeader("Accept-Encoding"));
  }

  /** One key's value as a multi-get answers it: present keys only. */
  private Map<String, byte[]> one(String key) {
    byte[] value = store.get(key);
    return value == null ? Map.of() : Map.of(key, value);
  }

  /**
   * The keys a lookup reads in its one round trip: the handler's token (first), the page's primary
   * key and, for a group's page, its URL tag (an evict's reach, GroupPages).
   */
  private List<String> lookupKeys(PageRequest p, String key) {
    String urlTag = p.notes().visitor == null ? null : SignedInVisitors.urlTag(keys, p);
    Map<String, String> urlTagKeys = urlTag == null ? Map.of() : tags.keysOf(urlTag);
    List<String> asked = new ArrayList<>(2 + urlTagKeys.size());
    asked.add(tokens.key(p.handler()));
    asked.add(key);
    asked.addAll(urlTagKeys.keySet());
    return asked;
  }

  /**
   * The page for this request from what memcached answered for its {@link PageRequest.Notes#lookupKeys}
   * (asked at {@code askedAt}; {@code key} its primary key): by this lookup, or by the rebuild lock's
   * add with it (the build's second look). {@code tokenRead}: whether the handler's token was among
   * the keys read; if not, the token this JVM knows is used ({@link HandlerConfirmations#tokenConfirmed}).
   */
  Found found(PageRequest p, String key, Map<String, byte[]> got, long askedAt, boolean tokenRead) {
    String urlTag = p.notes().visitor == null ? null : SignedInVisitors.urlTag(keys, p);
    Map<String, String> urlTagKeys = urlTag == null ? Map.of() : tags.keysOf(urlTag);
    long token = tokenRead ? tokens.effective(p.handler(), got.get(tokens.key(p.handler())))
        : tokens.remembered(p.handler());
    StoredPage page = codec.decode(key, got.get(key));
    if (page != null && page.isVaryRecord()) {
      // The URL's responses vary: its record names the headers, the variant lives under its own key
      // (RFC 9111 4.1's secondary key); a second round trip only for pages that vary.
      p.notes().varyRecord = page;
      key = variantKey(p, page);
      page = codec.decode(key, store.get(key));
    }
    if (page != null && !VaryRecord.matches(page, p.req())) {
      page = null;
    }
    if (page != null && urlTag != null && page.tags().stream().anyMatch(t -> t.tag().equals(urlTag))) {
      tags.learned(urlTagKeys, got, askedAt);
    }
    Map<String, Long> versions = Map.of();
    if (page != null && !page.tags().isEmpty()) {
      versions = tags.current(page.tags().stream().map(TagVersion::tag).toList());
    }
    if (Freshness.purged(page, versions)) {
      page = null; // a hard purge: never served, not even stale, nor asked for conditionally
    }
    Decision decision = Freshness.classify(page, clock.millis(), token, versions,
        p.policy().earlyRefresh(), 1.0 - ThreadLocalRandom.current().nextDouble());
    if (decision.state() == Freshness.State.FRESH) {
      near.remember(key, p.handler(), page, askedAt);
      // read at the page's own key (not a variant) by a client without gzip that looked for its copy
      // and found none of this page (one of it that was not fresh, an early refresh, stays as it is)
      if (p.notes().copyStamp != HandlerConfirmations.UNKNOWN && p.notes().varyRecord == null
          && IdentityCopies.copyable(page) && (p.notes().copyRead == null || !p.notes().copyRead.isOf(page))) {
        p.notes().copyWanted = new IdentityCopies.Wanted(key, p.notes().copyStamp, page);
      }
    }
    return new Found(key, page, token, decision, versions);
  }

  /** The page's primary key: its URL, the headers its policy varies on, and the request's own key parts. */
  String pageKey(PageRequest p) {
    return keys.forRequest(p.req(), p.requestUri(), p.queryString(), p.handler(), p.policy().vary(),
        p.parts().keyParts());
  }

  /**
   * The key of this request's variant of a page whose responses vary on the record's headers
   * besides the policy's. The record's time is part of it: evicting the URL (its record) leaves
   * every variant unreachable, and a record made anew after that does not find them again.
   */
  String variantKey(PageRequest p, StoredPage record) {
    List<String[]> parts = new ArrayList<>(p.parts().keyParts());
    parts.add(VaryRecord.keyPart(record.builtAtMillis()));
    return keys.forRequest(p.req(), p.requestUri(), p.queryString(), p.handler(),
        VaryRecord.keyHeaders(p.policy().vary(), record.varyNames()),
        parts);
  }

  /** The URL's vary record for a response varying on {@code names}: the one the lookup found when it names the same headers. */
  StoredPage varyRecord(PageRequest p, List<String> names, long now) {
    StoredPage record = p.notes().varyRecord;
    if (record != null && Set.copyOf(record.varyNames()).equals(Set.copyOf(names))) {
      return record;
    }
    return StoredPage.varyRecord(names, now);
  }

  /**
   * A FRESH page this JVM holds (trusted for near.trust since memcached last confirmed it, and
   * judged against the token and tag versions this JVM knows), or the page another request of this
   * JVM was building while this one waited for it; null to ask memcached.
   */
  private Found nearOrWaited(PageRequest p, String key, boolean mayWait) {
    NearCache.Entry entry = near.trusted(key, p.handler());
    String copyKey = entry == null && near.enabled() && readsCopies(p) ? Namespace.identityCopyOf(key) : null;
    if (copyKey != null) {
      entry = near.trusted(copyKey, p.handler()); // its identity copy, read from memcached
    }
    if (entry != null) {
      Found f = judged(p, key, entry.page());
      if (f != null && f.decision().state() == Freshness.State.FRESH) {
        near.counted(true);
        p.notes().nearEntry = entry;
        return f;
      }
      near.drop(key); // refreshed, invalidated or expired: memcached decides, and is remembered again
    }
    near.counted(false);
    if (!mayWait) {
      return null;
    }
    PageTrace.Scope[] waitStep = {PageTrace.NO_SCOPE};
    WaitingList.Wait w = waiting.awaitOthers(key, lockWait, () -> {
      p.stats().lockWaited();
      p.trace().waited();
      waitStep[0] = p.trace().step(PageTrace.Step.WAIT);
    });
    waitStep[0].close();
    if (w.timedOut()) {
      p.notes().waitedInJvm = true;
      return null;
    }
    if (w.page() == null) {
      return null;
    }
    if (w.page().isUncacheableMarker()) {
      // the token this JVM knows: a hit-for-miss build of it must not be stale at once
      return new Found(key, w.page(), tokens.remembered(p.handler()), Freshness.classify(null, 0, 0, Map.of(), 0, 1),
          Map.of());
    }
    Found f = judged(p, key, w.page());
    return f != null && f.decision().state() == Freshness.State.FRESH ? f : null;
  }

  /** A page held in this JVM, classified with this JVM's knowledge; null when it is not this request's variant. */
  private Found judged(PageRequest p, String key, StoredPage page) {
    if (!VaryRecord.matches(page, p.req())) {
      return null;
    }
    long token = tokens.remembered(p.handler());
    Map<String, Long> versions = page.tags().isEmpty() ? Map.of() : heldVersions(page);
    Decision decision = Freshness.classify(page, clock.millis(), token, versions,
        p.policy().earlyRefresh(), 1.0 - ThreadLocalRandom.current().nextDouble());
    return new Found(key, page, token, decision, versions);
  }

  /**
   * The versions a page held in this JVM is judged against: its tags' as {@code tag.cache} keeps
   * them; a group page's URL tag as this JVM knows it, unread (an evict here purged it in this JVM's
   * memory; one elsewhere changed the handler's evictions key, which makes the page read again).
   */
  private Map<String, Long> heldVersions(StoredPage page) {
    List<String> urlTags = new ArrayList<>(1);
    List<String> others = new ArrayList<>(page.tags().size());
    for (TagVersion t : page.tags()) {
      (GroupPages.isUrlTag(t.tag()) ? urlTags : others).add(t.tag());
    }
    if (urlTags.isEmpty()) {
      return tags.current(others);
    }
    Map<String, Long> versions = new HashMap<>(tags.known(urlTags));
    if (!others.isEmpty()) {
      versions.putAll(tags.current(others));
    }
    return versions;
  }
}
