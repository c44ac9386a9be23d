package org.pagecache.internal.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.pagecache.store.LocalStore;

/** The backlog kept in memcached for another cluster (issue 37), on the in-process store. */
class SharedBacklogTest {
  private final LocalStore store = new LocalStore(Clock.systemUTC(), 1 << 20);

  private static List<Invalidation> invs(List<SharedBacklog.Entry> entries) {
    return entries.stream().map(SharedBacklog.Entry::inv).toList();
  }

  @Test
  void everyFrontendReadsWhatAnotherQueuedTheLatestPerTarget() {
    SharedBacklog one = new SharedBacklog(store, "pc2:b:r.us", 10);
    SharedBacklog two = new SharedBacklog(store, "pc2:b:r.us", 10);
    one.add(Invalidation.token("pc2:t:r.a", 100), 1);
    one.add(Invalidation.evict("pc2:p:r.a:h.x", 110), 2);
    two.add(Invalidation.token("pc2:t:r.a", 200), 3);
    List<SharedBacklog.Entry> read = two.read(4, c -> { });
    assertEquals(List.of(Invalidation.token("pc2:t:r.a", 200), Invalidation.evict("pc2:p:r.a:h.x", 110)), invs(read));
    assertEquals(1, read.get(0).queuedAtMillis(), "waiting since the first of them");
  }

  @Test
  void aDeliveryRemovesWhatItDeliveredButNotALaterOneOfTheSameTarget() {
    SharedBacklog b = new SharedBacklog(store, "pc2:b:r.us", 10);
    b.add(Invalidation.token("pc2:t:r.a", 100), 1);
    b.add(Invalidation.token("pc2:t:r.a", 200), 2); // arrived while 100 was being delivered
    b.remove(List.of(Invalidation.token("pc2:t:r.a", 100)), 3);
    assertEquals(List.of(Invalidation.token("pc2:t:r.a", 200)), invs(b.read(4, c -> { })));
    b.remove(List.of(Invalidation.token("pc2:t:r.a", 200)), 5);
    assertEquals(0, b.read(6, c -> { }).size());
  }

  @Test
  void anOverflowBecomesOneEmptyingThatCoversEverything() {
    SharedBacklog b = new SharedBacklog(store, "pc2:b:r.us", 2);
    b.add(Invalidation.tag("pc2:g:r.a", 1), 10);
    b.add(Invalidation.tag("pc2:g:r.b", 1), 11);
    SharedBacklog.Change c = b.add(Invalidation.tag("pc2:g:r.c", 1), 12);
    assertEquals(3, c.collapsed());
    assertTrue(c.emptyingAdded());
    List<SharedBacklog.Entry> read = b.read(13, x -> { });
    assertEquals(1, read.size());
    assertEquals(Invalidation.Kind.EMPTY, read.get(0).inv().kind());
    assertEquals(10, read.get(0).queuedAtMillis(), "waiting since the oldest it covers");
  }

  @Test
  void anIndexFoundGoneByAFrontendThatSawItHoldingInvalidationsBecomesAnEmptying() {
    SharedBacklog seen = new SharedBacklog(store, "pc2:b:r.us", 10);
    seen.add(Invalidation.token("pc2:t:r.a", 100), 1);
    store.delete("pc2:b:r.us"); // evicted, or every node lost
    List<SharedBacklog.Change> losses = new ArrayList<>();
    List<SharedBacklog.Entry> read = seen.read(2, losses::add);
    assertEquals(1, losses.size());
    assertTrue(losses.get(0).indexLost());
    assertEquals(Invalidation.Kind.EMPTY, read.get(0).inv().kind());

    SharedBacklog fresh = new SharedBacklog(store, "pc2:b:r.other", 10);
    List<SharedBacklog.Change> none = new ArrayList<>();
    assertTrue(fresh.read(3, none::add).isEmpty());
    assertTrue(none.isEmpty(), "nothing known, nothing lost");
  }

  @Test
  void anIndexReplacedByAnotherGenerationIsALossToo() {
    SharedBacklog seen = new SharedBacklog(store, "pc2:b:r.us", 10);
    seen.add(Invalidation.token("pc2:t:r.a", 100), 1);
    store.delete("pc2:b:r.us");
    new SharedBacklog(store, "pc2:b:r.us", 10).add(Invalidation.token("pc2:t:r.b", 100), 2); // a new index
    List<SharedBacklog.Change> losses = new ArrayList<>();
    List<SharedBacklog.Entry> read = seen.read(3, losses::add);
    assertFalse(losses.isEmpty());
    assertEquals(Invalidation.Kind.EMPTY, read.get(0).inv().kind());
    assertEquals(Invalidation.token("pc2:t:r.b", 100), read.get(1).inv());
  }
}
