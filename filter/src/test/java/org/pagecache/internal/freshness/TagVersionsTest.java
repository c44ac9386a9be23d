package org.pagecache.internal.freshness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.pagecache.internal.freshness.Freshness.State;
import org.pagecache.store.Namespace;
import org.pagecache.internal.store.StoredPage;
import org.pagecache.internal.store.StoredPage.TagVersion;
import org.pagecache.store.MemcachedStore;
import org.pagecache.testing.MemcachedExtension;
import org.pagecache.testing.MutableClock;

/**
 * Tag versions written by one JVM and recorded by another's build, on real memcached. Each JVM has
 * its own clock; the editor's runs behind the builder's, as clocks of two machines may.
 */
class TagVersionsTest {
  @RegisterExtension
  static MemcachedExtension memcached = MemcachedExtension.nodes(1);

  private static final AtomicInteger RUNS = new AtomicInteger();
  private static final String TAG = "article:42";
  private static final Instant START = Instant.parse("2024-01-01T12:00:00Z");

  private MemcachedStore store;
  private Namespace namespace;
  private final MutableClock builderClock = new MutableClock(START);
  private final MutableClock editorClock = new MutableClock(START);
  private TagVersions builder;
  private TagVersions editor;

  @BeforeEach
  void connect() {
    store = new MemcachedStore(new MemcachedStore.Settings(memcached.servers(), false,
        Duration.ofSeconds(1), MemcachedExtension.TEST_OP_TIMEOUT, 1));
    namespace = new Namespace("tv" + RUNS.incrementAndGet() + "x" + ProcessHandle.current().pid() % 1000);
    builder = new TagVersions(store, namespace, builderClock, 0); // no local cache: every read sees memcached
    editor = new TagVersions(store, namespace, editorClock, 0);
  }

  @AfterEach
  void close() {
    store.close();
  }

  /** How a page that recorded {@code recorded} is judged now, by the builder's JVM. */
  private State judged(long recorded) {
    StoredPage page = new StoredPage(200, List.of(), new byte[0], false, "e", builderClock.millis(),
        builderClock.millis() + 60_000, 10, 0, List.of(new TagVersion(TAG, recorded)), List.of(), false,
        List.of(), null);
    return Freshness.classify(page, builderClock.millis(), 0, builder.current(List.of(TAG)), 0, 0.5).state();
  }

  @Test
  void aHardFloorThatMemcachedLosesIsStillHeldByTheJvmThatSawIt() {
    long before = builder.forBuild(List.of(TAG), builderClock.millis()).get(TAG); // a page built before the takedown
    builderClock.advance(Duration.ofSeconds(5));
    editorClock.advance(Duration.ofSeconds(5));
    long floor = editor.purge(TAG);
    assertEquals(floor, builder.current(List.of(TAG)).get(TagVersions.hardName(TAG)), "the builder reads the floor");
    assertEquals(State.ABSENT, judged(before));

    assertTrue(store.delete(namespace.tag(TagVersions.hardName(TAG))), "the hard key is lost (evicted, node restarted)");
    Map<String, Long> read = builder.current(List.of(TAG));
    assertEquals(floor, read.get(TagVersions.hardName(TAG)), "the floor this JVM saw is kept: " + read);
    assertEquals(State.ABSENT, judged(before), "the purged page is not served stale");
    TagVersions unaware = new TagVersions(store, namespace, new MutableClock(START), 0);
    assertEquals(floor, unaware.current(List.of(TAG)).get(TagVersions.hardName(TAG)),
        "the floor is written back for JVMs that never saw the purge");
  }

  @Test
  void anEditDuringTheBuildFromAJvmWhoseClockIsBehindKeepsThePageStale() {
    editor.invalidate(TAG); // some edit long ago
    builderClock.advance(Duration.ofMinutes(10));
    editorClock.advance(Duration.ofMinutes(10).minusMillis(400)); // the editor's clock is 400 ms behind
    long buildStart = builderClock.millis(); // the build reads the article as it was
    builderClock.advance(Duration.ofMillis(100));
    editorClock.advance(Duration.ofMillis(100));
    long edited = editor.invalidate(TAG); // saved while the page is being built
    assertEquals(buildStart - 300, edited, "by the builder's clock the edit looks older than the build");
    builderClock.advance(Duration.ofMillis(50));
    long recorded = builder.forBuild(List.of(TAG), buildStart).get(TAG);
    assertEquals(State.STALE, judged(recorded), "built from the text before the edit: rebuilt, not fresh for its TTL");
  }

  @Test
  void theSkewedEditCostsOneRebuildOnly() {
    editor.invalidate(TAG);
    builderClock.advance(Duration.ofMinutes(10));
    editorClock.advance(Duration.ofMinutes(10).minusMillis(400));
    long buildStart = builderClock.millis();
    builderClock.advance(Duration.ofMillis(100));
    editorClock.advance(Duration.ofMillis(100));
    long edited = editor.invalidate(TAG);
    builderClock.advance(Duration.ofMillis(50));
    assertEquals(State.STALE, judged(builder.forBuild(List.of(TAG), buildStart).get(TAG)));
    // The next request sees the page STALE and rebuilds it: this JVM saw the edit before that
    // build started, so the rebuilt page records the version as it is and is fresh.
    builderClock.advance(Duration.ofMillis(10));
    long rebuilt = builder.forBuild(List.of(TAG), builderClock.millis()).get(TAG);
    assertEquals(edited, rebuilt);
    assertEquals(State.FRESH, judged(rebuilt));
  }

  @Test
  void aVersionSeenBeforeTheBuildStartedIsRecordedAsItIsHoweverRecent() {
    long version = editor.invalidate(TAG);
    builder.current(List.of(TAG)); // the lookup of the stale page read the tags
    long recorded = builder.forBuild(List.of(TAG), builderClock.millis()).get(TAG);
    assertEquals(version, recorded, "no margin: seen by the builder's own clock before its build");
    assertEquals(State.FRESH, judged(recorded));
  }

  @Test
  void aTagInvalidatedWellBeforeTheBuildRecordsItsVersionAndThePageIsFresh() {
    long version = editor.invalidate(TAG);
    builderClock.advance(Duration.ofSeconds(5));
    long recorded = builder.forBuild(List.of(TAG), builderClock.millis()).get(TAG);
    assertEquals(version, recorded, "first seen after the build started, but older than the margin");
    assertEquals(State.FRESH, judged(recorded));
  }

  @Test
  void aTagThisBuildCreatedIsNoInvalidationAndThePageIsFresh() {
    long buildStart = builderClock.millis();
    builderClock.advance(Duration.ofMillis(20)); // created after the build started
    long recorded = builder.forBuild(List.of(TAG), buildStart).get(TAG);
    assertEquals(builderClock.millis(), recorded);
    assertEquals(State.FRESH, judged(recorded));
  }

  @Test
  void aLostVersionIsCreatedAgainAboveWhatEveryEarlierBuildRecorded() {
    editor.invalidate(TAG);
    builderClock.advance(Duration.ofMinutes(1));
    editorClock.advance(Duration.ofMinutes(1));
    long buildStart = builderClock.millis();
    builderClock.advance(Duration.ofMillis(10));
    editorClock.advance(Duration.ofMillis(10));
    editor.invalidate(TAG); // the edit this page missed
    long recorded = builder.forBuild(List.of(TAG), buildStart).get(TAG);
    assertEquals(State.STALE, judged(recorded));
    builderClock.advance(Duration.ofMillis(10));
    memcached.text(0).delete(namespace.tag(TAG)); // evicted, or the node restarted
    assertEquals(State.STALE, judged(recorded), "created again as now: still condemned");
  }
}
