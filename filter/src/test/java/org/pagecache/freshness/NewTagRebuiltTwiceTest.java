package org.pagecache.freshness;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.pagecache.key.Namespace;
import org.pagecache.store.LocalStore;

/**
 * Regression: with a real clock, every page carrying a tag nobody had used yet was rebuilt twice.
 * The build created the tag's version at its end ("now") but recorded its own start, which is
 * older, so the next request found the page condemned by a tag no one had invalidated. Frozen
 * test clocks hid it (start == now); the demo site's 300 ms handlers showed MISS, MISS, HIT.
 */
class NewTagRebuiltTwiceTest {
  private static final long BUILD_START = 1_000_000;
  private static final long BUILD_END = BUILD_START + 300;

  private final Clock end = Clock.fixed(Instant.ofEpochMilli(BUILD_END), ZoneOffset.UTC);
  private final LocalStore store = new LocalStore(end, 1 << 20);
  private final Namespace ns = new Namespace("t");

  @Test
  void aTagCreatedByTheBuildIsRecordedAtItsNewVersionSoThePageIsFresh() {
    TagVersions tags = new TagVersions(store, ns, end, 0);

    Map<String, Long> recorded = tags.forPage(List.of("article:1"), BUILD_START);

    assertEquals(BUILD_END, recorded.get("article:1"));
    assertEquals(tags.current(List.of("article:1")), recorded, "the next lookup finds nothing newer");
  }

  @Test
  void aTagInvalidatedDuringTheBuildIsRecordedAtTheBuildStartSoThePageStaysStale() {
    store.set(ns.tag("article:1"), Versions.encode(BUILD_START + 100), 0);
    TagVersions tags = new TagVersions(store, ns, end, 0);

    Map<String, Long> recorded = tags.forPage(List.of("article:1"), BUILD_START);

    assertEquals(BUILD_START, recorded.get("article:1"));
  }

  @Test
  void aTagInvalidatedBeforeTheBuildIsRecordedAtItsVersion() {
    store.set(ns.tag("article:1"), Versions.encode(BUILD_START - 5_000), 0);
    TagVersions tags = new TagVersions(store, ns, end, 0);

    assertEquals(BUILD_START - 5_000, tags.forPage(List.of("article:1"), BUILD_START).get("article:1"));
  }
}
