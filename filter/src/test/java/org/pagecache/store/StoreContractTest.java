package org.pagecache.store;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What every {@link Store} must do, run against each implementation (one subclass per store):
 * memcached's semantics, so code tested on the in-process store behaves the same on memcached.
 * Each test gets a fresh store and keys of its own, so nothing needs flushing between tests.
 */
abstract class StoreContractTest {
  private static final int THIRTY_DAYS = 60 * 60 * 24 * 30;

  protected Store store;
  private String prefix;

  /** A new store over the implementation under test; closed after each test. */
  protected abstract Store newStore();

  /**
   * Lets {@code ttl} pass for the store under test, the way it experiences time (real time for
   * memcached, a clock jump for the in-process store), until {@code expired} holds. False when it
   * never does within the store's precision.
   */
  protected abstract boolean letTtlPass(Duration ttl, BooleanSupplier expired);

  /** The store's "now", which absolute expiry times are compared with. */
  protected Instant storeNow() {
    return Instant.now();
  }

  /**
   * The round trips of {@link Store#addThenGetMulti} that wins: 1 where the store sends both
   * commands on one connection before waiting, 2 where it cannot (several servers).
   */
  protected int addThenGetRoundTrips() {
    return 1;
  }

  /** The round trips of {@link Store#deleteNoReply}: 0 where it is sent noreply. */
  protected int deleteNoReplyRoundTrips() {
    return 0;
  }

  /** How many servers {@link Store#serverStats()} reports. */
  protected abstract int serverCount();

  @BeforeEach
  void openStore(TestInfo test) {
    store = newStore();
    prefix = "contract:" + test.getTestMethod().orElseThrow().getName() + ":"
        + Long.toHexString(new Random().nextLong()) + ":";
  }

  @AfterEach
  void closeStore() {
    store.close();
  }

  /** A key no other test (or earlier run against the same memcached) uses. */
  protected String key(String name) {
    return prefix + name;
  }

  // ---- the rebuild lock's exchanges: add with the second look, delete noreply

  @Test
  void addThenGetMultiThatWinsReadsTheKeysAfterTheAdd() {
    store.set(key("page"), bytes("P"), 0);
    long before = store.roundTrips();

    Map<String, byte[]> read = store.addThenGetMulti(key("lock"), bytes("owner-1"), 10, List.of(key("token"), key("page")));

    assertEquals(addThenGetRoundTrips(), store.roundTrips() - before);
    assertNotNull(read, "won");
    assertEquals(Set.of(key("page")), read.keySet(), "the present keys only, not the added one");
    assertArrayEquals(bytes("P"), read.get(key("page")));
    assertArrayEquals(bytes("owner-1"), store.get(key("lock")));
  }

  @Test
  void addThenGetMultiThatLosesIsNullAndLeavesTheHoldersValue() {
    assertTrue(store.add(key("lock"), bytes("owner-1"), 10));

    assertNull(store.addThenGetMulti(key("lock"), bytes("owner-2"), 10, List.of(key("page"))));

    assertArrayEquals(bytes("owner-1"), store.get(key("lock")));
  }

  @Test
  void deleteNoReplyIsNoRoundTripAndTheNextCallSeesItDone() {
    store.set(key("lock"), bytes("owner-1"), 10);
    long before = store.roundTrips();

    store.deleteNoReply(key("lock"));

    assertEquals(deleteNoReplyRoundTrips(), store.roundTrips() - before, "nobody waited for it");
    assertNull(store.get(key("lock")), "sent before the get, on the same connection");
  }

  // ---- get / set / getMulti

  @Test
  void everyByteValueComesBackUnchanged() {
    byte[] value = new byte[512];
    for (int i = 0; i < value.length; i++) {
      value[i] = (byte) i; // zeros, CR, LF and high bytes, twice
    }
    byte[] protocolLookalike = "\r\nEND\r\nVALUE x 0 1\r\n".getBytes(US_ASCII);

    assertTrue(store.set(key("all"), value, 0));
    assertTrue(store.set(key("lookalike"), protocolLookalike, 0));

    assertArrayEquals(value, store.get(key("all")));
    assertArrayEquals(protocolLookalike, store.get(key("lookalike")));
  }

  @Test
  void emptyValueIsPresentNotMissing() {
    store.set(key("empty"), new byte[0], 0);

    assertArrayEquals(new byte[0], store.get(key("empty")));
    assertEquals(1, store.getMulti(List.of(key("empty"))).size());
  }

  @Test
  void pageSizedValueRoundTrips() {
    byte[] page = randomBytes(900 * 1024);

    store.set(key("page"), page, 0);

    assertArrayEquals(page, store.get(key("page")));
    assertArrayEquals(page, store.getMulti(List.of(key("page"))).get(key("page")));
  }

  @Test
  void largestAllowedValueFitsEvenUnderTheLongestKey() {
    String longest = (prefix + "x".repeat(Keys.MAX_KEY_BYTES)).substring(0, Keys.MAX_KEY_BYTES);
    byte[] largest = randomBytes(Values.MAX_VALUE_BYTES);

    assertTrue(store.set(longest, largest, 0));

    assertArrayEquals(largest, store.get(longest));
  }

  @Test
  void valueOverTheLimitIsRefusedAsACallersMistake() {
    byte[] tooBig = new byte[Values.MAX_VALUE_BYTES + 1];
    store.set(key("k"), new byte[] {1}, 0);
    long cas = store.gets(key("k")).casUnique();

    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> store.set(key("k"), tooBig, 0));
    assertThrows(IllegalArgumentException.class, () -> store.add(key("other"), tooBig, 0));
    assertThrows(IllegalArgumentException.class, () -> store.cas(key("k"), tooBig, cas, 0));

    assertTrue(e.getMessage().contains(Integer.toString(tooBig.length)), e.getMessage());
    assertArrayEquals(new byte[] {1}, store.get(key("k")));
  }

  @Test
  void missingKeyIsNull() {
    assertNull(store.get(key("never-set")));
    assertNull(store.gets(key("never-set")));
  }

  @Test
  void getMultiReturnsOnlyThePresentKeysInOneRoundTrip() {
    store.set(key("a"), bytes("A"), 0);
    store.set(key("c"), bytes("C"), 0);
    long before = store.roundTrips();

    Map<String, byte[]> found = store.getMulti(List.of(key("a"), key("b"), key("c"), key("d")));

    assertEquals(1, store.roundTrips() - before);
    assertEquals(Set.of(key("a"), key("c")), found.keySet());
    assertArrayEquals(bytes("A"), found.get(key("a")));
    assertArrayEquals(bytes("C"), found.get(key("c")));
  }

  @Test
  void getMultiOfFiftyKeysIsStillOneRoundTrip() {
    List<String> keys = fiftyKeys();
    keys.forEach(k -> store.set(k, bytes(k), 0));
    long before = store.roundTrips();

    Map<String, byte[]> found = store.getMulti(keys);

    assertEquals(1, store.roundTrips() - before);
    assertEquals(50, found.size());
    keys.forEach(k -> assertArrayEquals(bytes(k), found.get(k), k));
  }

  @Test
  void getMultiOfNoKeysIsEmpty() {
    assertTrue(store.getMulti(List.of()).isEmpty());
  }

  @Test
  void arraysPassedInOrHandedOutAreNotShared() {
    byte[] value = bytes("original");
    store.set(key("k"), value, 0);

    value[0] = 'X';
    store.get(key("k"))[0] = 'Y';
    store.getMulti(List.of(key("k"))).get(key("k"))[0] = 'Z';
    store.gets(key("k")).value()[0] = 'W';

    assertArrayEquals(bytes("original"), store.get(key("k")));
  }

  @Test
  void everyCallCountsOneRoundTrip() {
    String k = key("k");
    List<Consumer<Store>> calls = List.of(
        s -> s.set(k, bytes("1"), 0), s -> s.get(k), s -> s.gets(k), s -> s.add(k, bytes("1"), 0),
        s -> s.cas(k, bytes("1"), 1, 0), s -> s.incr(k, 1, 0, 0), s -> s.decr(k, 1, 0, 0),
        s -> s.touch(k, 0), s -> s.getMulti(List.of(k, key("j"))), s -> s.delete(k), s -> s.serverStats());

    for (Consumer<Store> call : calls) {
      long before = store.roundTrips();
      call.accept(store);
      assertEquals(1, store.roundTrips() - before);
    }
  }

  // ---- add / cas / gets / delete

  @Test
  void addFailsOnAnExistingKeyAndSucceedsAfterDelete() {
    assertTrue(store.add(key("lock"), bytes("first"), 0));

    assertFalse(store.add(key("lock"), bytes("second"), 0));
    assertArrayEquals(bytes("first"), store.get(key("lock")));

    assertTrue(store.delete(key("lock")));
    assertTrue(store.add(key("lock"), bytes("third"), 0));
    assertArrayEquals(bytes("third"), store.get(key("lock")));
  }

  @Test
  void casSucceedsOnlyWithTheCurrentUnique() {
    store.set(key("k"), bytes("v1"), 0);
    long unique = store.gets(key("k")).casUnique();

    assertTrue(store.cas(key("k"), bytes("v2"), unique, 0));
    assertFalse(store.cas(key("k"), bytes("v3"), unique, 0), "the unique is stale after the first cas");

    assertArrayEquals(bytes("v2"), store.get(key("k")));
  }

  @Test
  void casOnAMissingKeyFails() {
    assertFalse(store.cas(key("missing"), bytes("v"), 1, 0));
    assertNull(store.get(key("missing")));
  }

  @Test
  void casUniqueChangesOnEveryWrite() {
    Set<Long> uniques = new HashSet<>();
    store.set(key("k"), bytes("1"), 0);
    uniques.add(store.gets(key("k")).casUnique());
    store.set(key("k"), bytes("1"), 0);
    uniques.add(store.gets(key("k")).casUnique());
    store.incr(key("k"), 1, 0, 0);
    uniques.add(store.gets(key("k")).casUnique());
    Store.Versioned current = store.gets(key("k"));
    store.cas(key("k"), bytes("5"), current.casUnique(), 0);
    uniques.add(store.gets(key("k")).casUnique());

    assertArrayEquals(bytes("5"), store.gets(key("k")).value());
    assertEquals(4, uniques.size(), "uniques: " + uniques);
  }

  @Test
  void deleteTellsWhetherTheKeyExisted() {
    store.set(key("k"), bytes("v"), 0);

    assertTrue(store.delete(key("k")));
    assertFalse(store.delete(key("k")));
    assertNull(store.get(key("k")));
  }

  // ---- counters

  @Test
  void incrOnAMissingKeyStoresTheInitialValueWithoutAddingDelta() {
    assertEquals(100, store.incr(key("views"), 5, 100, 0));
    assertEquals(105, store.incr(key("views"), 5, 100, 0));
  }

  @Test
  void countersAreStoredAsDecimalAscii() {
    store.incr(key("views"), 1, 100, 0);
    store.decr(key("views"), 92, 0, 0); // memcached may pad "8" with spaces where "100" stood

    assertEquals("8", new String(store.get(key("views")), US_ASCII).trim());
  }

  @Test
  void aDecimalValueCanBeIncremented() {
    store.set(key("views"), bytes("41"), 0);

    assertEquals(42, store.incr(key("views"), 1, 0, 0));
  }

  @Test
  void decrStoresInitialOnAMissingKeyAndStopsAtZero() {
    assertEquals(3, store.decr(key("stock"), 1, 3, 0));
    assertEquals(2, store.decr(key("stock"), 1, 3, 0));
    assertEquals(0, store.decr(key("stock"), 10, 3, 0));
    assertEquals(0, store.decr(key("stock"), 1, 3, 0));
  }

  @Test
  void incrOnANonNumericValueIsAStoreFailure() {
    store.set(key("page"), bytes("<html>"), 0);

    assertThrows(StoreException.class, () -> store.incr(key("page"), 1, 0, 0));
  }

  @Test
  void negativeDeltaOrInitialIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> store.incr(key("c"), -1, 0, 0));
    assertThrows(IllegalArgumentException.class, () -> store.decr(key("c"), -1, 0, 0));
    assertThrows(IllegalArgumentException.class, () -> store.incr(key("c"), 1, -5, 0));
  }

  @Test
  void concurrentIncrementsAreNeverLost() throws Exception {
    String counter = key("counter");
    // initial 1 = the first increment, so the total is exactly the number of calls
    List<Long> results = inParallel(8, () -> {
      long last = 0;
      for (int i = 0; i < 500; i++) {
        last = store.incr(counter, 1, 1, 0);
      }
      return last;
    });

    assertEquals(8 * 500, Long.parseLong(new String(store.get(counter), US_ASCII).trim()));
    assertTrue(results.contains(4000L), "the last increment saw the total: " + results);
  }

  @Test
  void exactlyOneOfManyConcurrentAddsWins() throws Exception {
    List<Boolean> wins = inParallel(16, () -> store.add(key("lock"), bytes("owner"), 0));

    assertEquals(1, wins.stream().filter(won -> won).count(), "wins: " + wins);
  }

  // ---- expiry

  @Test
  void touchOnAMissingKeyFails() {
    assertFalse(store.touch(key("missing"), 60));
  }

  @Test
  void itemExpiresAfterItsTtl() {
    store.set(key("short"), bytes("v"), 2);
    assertNotNull(store.get(key("short")), "alive before its ttl");

    assertTrue(letTtlPass(Duration.ofSeconds(2), () -> store.get(key("short")) == null));
  }

  @Test
  void touchExtendsTheLifeOfAnItem() {
    store.set(key("control"), bytes("v"), 2);
    store.set(key("touched"), bytes("v"), 2);

    assertTrue(store.touch(key("touched"), 3600));

    assertTrue(letTtlPass(Duration.ofSeconds(2), () -> store.get(key("control")) == null));
    assertArrayEquals(bytes("v"), store.get(key("touched")));
  }

  @Test
  void addSucceedsOnceTheOldItemExpired() {
    store.add(key("lock"), bytes("old"), 2);

    assertTrue(letTtlPass(Duration.ofSeconds(2), () -> store.get(key("lock")) == null));
    assertTrue(store.add(key("lock"), bytes("new"), 0));
  }

  @Test
  void ttlOverThirtyDaysIsAnAbsoluteUnixTime() {
    Instant now = storeNow();
    int past = (int) now.minus(Duration.ofHours(1)).getEpochSecond();
    int future = (int) now.plus(Duration.ofDays(365)).getEpochSecond();

    store.set(key("past"), bytes("v"), past);
    store.set(key("future"), bytes("v"), future);
    store.set(key("thirty-days"), bytes("v"), THIRTY_DAYS); // still relative

    assertNull(store.get(key("past")));
    assertNotNull(store.get(key("future")));
    assertNotNull(store.get(key("thirty-days")));
  }

  @Test
  void negativeTtlIsRefused() {
    // memcached would store an already-expired item; xmemcached refuses, so every store refuses.
    store.set(key("k"), bytes("v"), 0);
    long cas = store.gets(key("k")).casUnique();
    List<Consumer<Store>> calls = List.of(
        s -> s.set(key("k"), bytes("v"), -1), s -> s.add(key("new"), bytes("v"), -1),
        s -> s.cas(key("k"), bytes("v"), cas, -1), s -> s.touch(key("k"), -1),
        s -> s.incr(key("c"), 1, 0, -1), s -> s.decr(key("c"), 1, 0, -1));

    for (Consumer<Store> call : calls) {
      assertThrows(IllegalArgumentException.class, () -> call.accept(store));
    }
    assertArrayEquals(bytes("v"), store.get(key("k")));
  }

  // ---- keys

  static Stream<String> invalidKeys() {
    return Stream.of("k".repeat(Keys.MAX_KEY_BYTES + 1), "with space", "with\nnewline", "with\r\nEND",
        "ключ", "caf\u00e9", "", "tab\there", null);
  }

  @ParameterizedTest
  @MethodSource("invalidKeys")
  void invalidKeysAreRefusedByEveryOperation(String bad) {
    List<Consumer<Store>> calls = List.of(
        s -> s.get(bad), s -> s.gets(bad), s -> s.set(bad, bytes("v"), 0), s -> s.add(bad, bytes("v"), 0),
        s -> s.cas(bad, bytes("v"), 1, 0), s -> s.delete(bad), s -> s.incr(bad, 1, 0, 0),
        s -> s.decr(bad, 1, 0, 0), s -> s.touch(bad, 0), s -> s.getMulti(Arrays.asList(key("good"), bad)));

    for (Consumer<Store> call : calls) {
      assertThrows(IllegalArgumentException.class, () -> call.accept(store));
    }
  }

  @Test
  void longestValidKeyWorks() {
    String longest = (prefix + "x".repeat(Keys.MAX_KEY_BYTES)).substring(0, Keys.MAX_KEY_BYTES);

    store.set(longest, bytes("v"), 0);

    assertArrayEquals(bytes("v"), store.get(longest));
  }

  // ---- stats

  @Test
  void serverStatsHasOneEntryPerServerWithMemcachedsNames() {
    store.set(key("k"), bytes("v"), 0);

    List<Store.ServerStats> servers = store.serverStats();

    assertEquals(serverCount(), servers.size());
    for (Store.ServerStats server : servers) {
      assertTrue(server.up(), server.address());
      for (String stat : List.of("curr_items", "bytes", "limit_maxbytes", "evictions", "get_hits",
          "get_misses", "cmd_flush", "version")) {
        assertTrue(server.stats().containsKey(stat), server.address() + " lacks " + stat);
      }
      assertNotNull(server.slabs());
    }
    assertTrue(servers.stream().mapToLong(s -> Long.parseLong(s.stats().get("curr_items"))).sum() >= 1);
  }

  // ---- helpers

  protected List<String> fiftyKeys() {
    List<String> keys = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      keys.add(key("multi-" + i));
    }
    return keys;
  }

  protected static byte[] bytes(String text) {
    return text.getBytes(US_ASCII);
  }

  private static byte[] randomBytes(int size) {
    byte[] bytes = new byte[size];
    new Random(size).nextBytes(bytes);
    return bytes;
  }

  /** Runs {@code task} on {@code threads} threads released together; bounded in time. */
  private static <T> List<T> inParallel(int threads, Callable<T> task) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      CountDownLatch ready = new CountDownLatch(threads);
      CountDownLatch go = new CountDownLatch(1);
      List<Future<T>> futures = new ArrayList<>();
      for (int i = 0; i < threads; i++) {
        futures.add(pool.submit(() -> {
          ready.countDown();
          go.await();
          return task.call();
        }));
      }
      assertTrue(ready.await(10, TimeUnit.SECONDS));
      go.countDown();
      List<T> results = new ArrayList<>();
      for (Future<T> future : futures) {
        results.add(future.get(60, TimeUnit.SECONDS));
      }
      return results;
    } finally {
      pool.shutdownNow();
    }
  }
}
