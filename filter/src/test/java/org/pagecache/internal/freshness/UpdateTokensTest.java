package org.pagecache.internal.freshness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.pagecache.store.Namespace;
import org.pagecache.store.LocalStore;
import org.pagecache.testing.Concurrently;
import org.pagecache.testing.MutableClock;

/** Per-handler update tokens on the in-process store, with a clock the tests move. */
class UpdateTokensTest {
  private static final Namespace NS = new Namespace("ut");
  private final MutableClock clock = new MutableClock();
  private final LocalStore store = new LocalStore(clock, 1 << 20);
  private final UpdateTokens tokens = new UpdateTokens(store, NS, clock);
  private final long start = clock.millis();

  private static byte[] token(long value) {
    return Long.toString(value).getBytes(StandardCharsets.US_ASCII);
  }

  private long stored(String handler) {
    return Versions.parse(store.get(tokens.key(handler)));
  }

  @Test
  void aRefreshRaisesTheHandlersTokenToNowAndNoOtherHandlers() {
    clock.advance(Duration.ofSeconds(5));
    long token = tokens.refresh("article");
    assertEquals(start + 5_000, token);
    assertEquals(token, stored("article"));
    assertEquals(token, tokens.remembered("article"));
    assertNull(store.get(tokens.key("home")));
  }

  @Test
  void twoRefreshesInTheSameMillisecondOrWithTheClockSetBackNeverGoBackwards() {
    long first = tokens.refresh("article");
    long second = tokens.refresh("article");
    assertEquals(first + 1, second);
    clock.advance(Duration.ofMinutes(-10)); // another node's clock, or NTP stepping back
    assertEquals(second + 1, tokens.refresh("article"));
  }

  @Test
  void concurrentRefreshesEachGetTheirOwnTokenAndTheLargestIsKept() {
    // compare-and-set: no refresh overwrites another with an equal or smaller token
    List<Long> results = Concurrently.run(8, Duration.ofSeconds(30), i -> tokens.refresh("article"));
    Set<Long> distinct = new HashSet<>(results);
    assertEquals(8, distinct.size());
    long max = results.stream().mapToLong(Long::longValue).max().orElseThrow();
    assertEquals(start + 7, max);
    assertEquals(max, stored("article"));
  }

  @Test
  void aLostTokenIsPutBackFromTheJvmsMemory() {
    long token = tokens.refresh("article");
    store.delete(tokens.key("article")); // evicted, or its node restarted empty
    assertEquals(token, tokens.effective("article", null));
    assertEquals(token, stored("article"));
  }

  @Test
  void aLostTokenIsPutBackWithAddNeverOverANewerOneWrittenMeanwhile() {
    long mine = tokens.refresh("article");
    store.delete(tokens.key("article"));
    clock.advance(Duration.ofSeconds(1));
    UpdateTokens otherJvm = new UpdateTokens(store, NS, clock);
    long theirs = otherJvm.refresh("article");
    // this JVM's lookup ran before the other's refresh and found nothing
    assertEquals(mine, tokens.effective("article", null));
    assertEquals(theirs, stored("article"));
  }

  @Test
  void aNodeThatComesBackWithAnOlderTokenIsRaisedToTheRememberedOne() {
    long token = tokens.refresh("article");
    store.set(tokens.key("article"), token(token - 1000), 0);
    assertEquals(token, tokens.effective("article", token(token - 1000)));
    assertEquals(token, stored("article"));
  }

  @Test
  void theJvmRemembersTheLargestTokenItHasSeen() {
    assertEquals(500, tokens.effective("article", token(500)));
    assertEquals(500, tokens.remembered("article"));
    assertEquals(500, tokens.effective("article", token(300)));
    assertEquals(900, tokens.effective("article", token(900)));
    assertEquals(900, tokens.remembered("article"));
  }

  @Test
  void aNeverRefreshedHandlerGetsTokenZeroStoredOncePerJvm() {
    assertEquals(0, tokens.effective("home", null));
    assertEquals("0", new String(store.get(tokens.key("home")), StandardCharsets.US_ASCII));
    store.delete(tokens.key("home"));
    long before = store.roundTrips();
    assertEquals(0, tokens.effective("home", null));
    assertEquals(before, store.roundTrips()); // not stored again: nothing to repair either
  }

  @Test
  void storedReadsTheTokensOfManyHandlersInOneRoundTrip() {
    long a = tokens.refresh("a");
    long b = tokens.refresh("b");
    tokens.effective("never", null); // stores 0, which means "never refreshed"
    long before = store.roundTrips();
    Map<String, Long> found = UpdateTokens.stored(store, NS, List.of("a", "b", "c", "never"));
    assertEquals(before + 1, store.roundTrips());
    assertEquals(Map.of("a", a, "b", b), found);
  }
}
