package org.pagecache.soak;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The frontends' DEBUG lines, as the filter writes them with the soak's JVM options, turned into rebuilds. */
class RebuildReportsTest {
  private static final String AT = "2026-12-04T00:14:48.200+0000 [jetty-test-82] DEBUG org.pagecache.BackgroundRebuilds -";

  private static String at(int millis, String rest) {
    return AT.replace(".200+", String.format(".%03d+", millis)) + " pagecache: background rebuild " + rest;
  }

  @Test
  void aRebuildIsInFlightFromItsLockWonToItsEnd() {
    RebuildReports r = new RebuildReports();
    r.line("0.1", at(200, "7 of a page page /p/42: handed over, its lock won 5 ms before"));
    r.line("0.1", at(230, "7 of a page page /p/42: ended, not stored"));
    r.line("0.1", "2026-12-04T00:14:48.231+0000 [main] INFO org.eclipse.jetty.server.Server - Started");
    List<Checker.Rebuild> all = r.all(Long.MAX_VALUE);
    assertEquals(1, all.size());
    assertEquals(42, all.get(0).page());
    assertEquals("not stored", all.get(0).outcome());
    assertEquals(35, (all.get(0).endNanos() - all.get(0).startNanos()) / 1_000_000, "from the lock won, 5 ms before");
  }

  @Test
  void anEndReadBeforeItsHandOverIsPairedWithIt() {
    RebuildReports r = new RebuildReports();
    r.line("1.3", at(210, "9 of a page page /p/3: ended, done"));
    r.line("1.3", at(200, "9 of a page page /p/3: handed over, its lock won 0 ms before"));
    assertEquals(List.of(10L), r.all(Long.MAX_VALUE).stream().map(x -> (x.endNanos() - x.startNanos()) / 1_000_000)
        .toList());
  }

  @Test
  void aKilledFrontendsRebuildsEndAtTheKillAndItsLaterLinesAreIgnored() {
    RebuildReports r = new RebuildReports();
    r.line("0.1", at(200, "1 of a page page /p/1: handed over, its lock won 0 ms before"));
    r.killed("0.1", 123);
    r.line("0.1", at(201, "2 of a page page /p/2: handed over, its lock won 0 ms before"));
    List<Checker.Rebuild> all = r.all(Long.MAX_VALUE);
    assertEquals(1, all.size());
    assertEquals("killed", all.get(0).outcome());
    assertEquals(123, all.get(0).endNanos());
  }
}
