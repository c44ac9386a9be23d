package org.pagecache.soak;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The soak's checker on made-up events (times in ms, on one clock); refresh 2 answers at 1000. */
class CheckerTest {
  private static final long MS = 1_000_000;
  private static final long BOUND = 2000 * MS;
  private static final long LEASE = 3000 * MS;
  private final List<Checker.Refresh> refreshes = List.of(new Checker.Refresh(2, 900 * MS, 1000 * MS, false));

  private static Checker.Read read(long startMs, String xCache, int generation) {
    return new Checker.Read(startMs * MS, (startMs + 5) * MS, 0, 7, 200, xCache, generation, false, true);
  }

  private Checker.Verdict check(List<Long> kills, Checker.Read... reads) {
    return Checker.check(List.of(reads), refreshes, kills, BOUND, LEASE, 1000 * MS);
  }

  @Test
  void anOldPageWithinTheBoundIsLateNotAViolation() {
    Checker.Verdict v = check(List.of(), read(2999, "HIT", 1));
    assertEquals(0, v.violations().size());
    assertEquals(1, v.lateWithinBound());
  }

  @Test
  void anOldPagePastTheBoundIsAViolation() {
    assertEquals(1, check(List.of(), read(3001, "HIT", 1)).violations().size());
    assertEquals(1, check(List.of(), read(3001, "STALE", 1)).violations().size(), "STALE with nobody rebuilding");
  }

  @Test
  void aReadStartedBeforeTheRefreshAnsweredIsNotJudgedByIt() {
    assertEquals(0, check(List.of(), read(999, "HIT", 1)).lateWithinBound());
  }

  @Test
  void staleWhileARebuildOfThatPageIsInFlightIsAllowed() {
    Checker.Verdict v = check(List.of(), read(5000, "STALE", 1),
        new Checker.Read(4000 * MS, 6000 * MS, 1, 7, 200, "MISS", 2, false, true));
    assertEquals(0, v.violations().size());
    assertEquals(1, v.staleWhileRebuilding());
  }

  /** The verdict on a STALE read of page 7 from 5000 to 5005 ms, with this background rebuild reported. */
  private Checker.Verdict staleReadWith(Checker.Rebuild rebuild) {
    return Checker.check(List.of(read(5000, "STALE", 1)), refreshes, List.of(rebuild), List.of(), BOUND, LEASE,
        1000 * MS);
  }

  private static Checker.Rebuild rebuild(int page, long fromMs, long toMs) {
    return new Checker.Rebuild(page, fromMs * MS, toMs * MS, "done");
  }

  @Test
  void staleWhileABackgroundRebuildOfThatPageIsInFlightIsAllowed() {
    Checker.Verdict during = staleReadWith(rebuild(7, 4000, 6000));
    assertEquals(0, during.violations().size());
    assertEquals(1, during.staleWhileRebuilding());
    assertEquals(0, staleReadWith(rebuild(7, 5006, 6000)).violations().size(),
        "its lock won 1 ms after the read ended, as reported: within the 2 ms the reports' clock may be off");
  }

  @Test
  void staleAfterABackgroundRebuildEndedOrBeforeItStartedIsAViolation() {
    assertEquals(1, staleReadWith(rebuild(7, 4000, 4900)).violations().size(), "it ended before the read");
    assertEquals(1, staleReadWith(rebuild(7, 5100, 6000)).violations().size(), "it started after the read");
    assertEquals(1, staleReadWith(rebuild(8, 4000, 6000)).violations().size(), "another page's");
    assertEquals(1, staleReadWith(new Checker.Rebuild(7, 4000 * MS, 6000 * MS,
        "skipped, 32 under way and as many waiting")).violations().size(), "skipped: its lock given back, nobody rebuilding");
    assertEquals(1, staleReadWith(rebuild(7, 800, 6000)).violations().size(),
        "its lock won before the refresh started: it builds the older generation");
  }

  @Test
  void aFrontendCrashExtendsTheBoundByTheLeaseForAWhile() {
    assertEquals(0, check(List.of(3500 * MS), read(8400, "STALE", 1)).violations().size());
    assertEquals(1, check(List.of(3500 * MS), read(8600, "STALE", 1)).violations().size());
  }

  @Test
  void failedReadsOfLiveFrontendsAreErrorsAndOfKilledOnesAreNot() {
    Checker.Verdict v = Checker.check(List.of(new Checker.Read(0, MS, 0, 1, 0, "", -1, true, true),
        new Checker.Read(0, MS, 0, 1, 0, "", -1, true, false)), refreshes, List.of(), BOUND, LEASE, 1000 * MS);
    assertEquals(1, v.liveErrors());
  }
}
