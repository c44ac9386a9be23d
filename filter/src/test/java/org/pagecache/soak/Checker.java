package org.pagecache.soak;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The soak's judge of the freshness guarantee (docs/failures.md), from the pages' content and the
 * order of events, all timed on one clock (the soak's JVM): each page shows the refresh generation
 * the editor had published when it was built, and generation N is published before refresh N is
 * made. A read that started after refresh N had answered and shows a generation below N is late
 * by the time since that refresh answered; it is a violation when it is late by more than the
 * documented lag ({@code bound}: {@code near.trust} + {@code retry.interval}), unless it started
 * within {@code crashAllowance} (the lock lease) plus the bound after a lock may have been left
 * with nobody to give it back ({@code leaseWindows}): a frontend killed (a dead builder's lock), or
 * a hung node resumed (a lock {@code add} that timed out is applied when the node resumes, and
 * nobody owns it), the cases where a lock holds a page until its lease runs out; or it was answered STALE while
 * a rebuild of that page was in flight: a MISS read of the page, showing a generation at least N,
 * overlapping it (a visitor's build), or a background rebuild of the page that a frontend reported,
 * its lock won after refresh N started and not ended before the read started (its build reads the
 * generation after N was published): the stale copy is served while one rebuild runs, by design.
 * STALE with nobody rebuilding, or a HIT past the bound, is a violation. A property check on recorded
 * events, not a timing assertion: the bound is the documented one, not a measured performance.
 */
public final class Checker {
  /** One read: when it was sent and answered, by which frontend, what it showed. */
  public record Read(long startNanos, long endNanos, int frontend, int page, int status, String xCache, int generation,
      boolean failed, boolean frontendLive) {}

  /** One refresh: the generation published before it, when it was made and answered, whether it failed. */
  public record Refresh(int generation, long startNanos, long endNanos, boolean refused) {}

  /**
   * A background rebuild a frontend reported (docs/failures.md, the soak): its lock won at
   * {@code startNanos}, ended at {@code endNanos} (the frontend's kill when it never ended) with
   * {@code outcome} (done, not stored, failed, refused, skipped, killed).
   */
  public record Rebuild(int page, long startNanos, long endNanos, String outcome) {}

  /** A read late by more than the bound. */
  public record Violation(Read read, int expectedAtLeast, long lateMillis) {}

  /** What the checker found. */
  public record Verdict(long reads, List<Violation> violations, long lateWithinBound, long staleWhileRebuilding,
      long refreshes, long refused, long liveErrors, long readsOutsideRefreshWindow, long backendOutsideRefreshWindow,
      long slowestReadMillis, long backgroundRebuilds, long longestRebuildMillis) {
    public double backendShareOutsideRefreshWindow() {
      return readsOutsideRefreshWindow == 0 ? 0 : (double) backendOutsideRefreshWindow / readsOutsideRefreshWindow;
    }
  }

  private Checker() {}

  /**
   * @param leaseWindows when a lock may have been left with nobody to give it back: a frontend
   *     killed, a hung node resumed
   * @param refreshWindowNanos how long after a refresh reads are left out of the backend share
   *     (every page is rebuilt once after a refresh, by design)
   */
  public static Verdict check(List<Read> reads, List<Refresh> refreshes, List<Long> leaseWindows, long boundNanos,
      long crashAllowanceNanos, long refreshWindowNanos) {
    return check(reads, refreshes, List.of(), leaseWindows, boundNanos, crashAllowanceNanos, refreshWindowNanos);
  }

  /** @param rebuilds the background rebuilds the frontends reported */
  public static Verdict check(List<Read> reads, List<Refresh> refreshes, List<Rebuild> rebuilds,
      List<Long> leaseWindows, long boundNanos, long crashAllowanceNanos, long refreshWindowNanos) {
    List<Refresh> done = refreshes.stream().filter(r -> !r.refused()).sorted(Comparator.comparingInt(Refresh::generation))
        .toList();
    List<Violation> violations = new ArrayList<>();
    long late = 0;
    long staleWhileRebuilding = 0;
    long slowest = 0;
    Map<Integer, List<Read>> misses = new HashMap<>();
    for (Read read : reads) {
      if (!read.failed() && read.status() == 200 && read.xCache().startsWith("MISS")) {
        misses.computeIfAbsent(read.page(), p -> new ArrayList<>()).add(read);
      }
    }
    Map<Integer, List<Rebuild>> background = new HashMap<>();
    long longestRebuild = 0;
    for (Rebuild r : rebuilds) {
      background.computeIfAbsent(r.page(), p -> new ArrayList<>()).add(r);
      longestRebuild = Math.max(longestRebuild, (r.endNanos() - r.startNanos()) / 1_000_000);
    }
    long liveErrors = 0;
    long outside = 0;
    long backendOutside = 0;
    for (Read read : reads) {
      slowest = Math.max(slowest, (read.endNanos() - read.startNanos()) / 1_000_000);
      if (read.failed() || read.status() != 200) {
        if (read.frontendLive()) {
          liveErrors++;
        }
        continue;
      }
      Refresh lastBefore = null;
      Refresh firstNewer = null; // the first refresh, answered before the read, that the page's generation predates
      for (Refresh r : done) {
        if (r.endNanos() < read.startNanos()) {
          lastBefore = r;
          if (firstNewer == null && read.generation() < r.generation()) {
            firstNewer = r;
          }
        }
      }
      if (lastBefore == null || read.startNanos() - lastBefore.endNanos() > refreshWindowNanos) {
        outside++;
        if (read.xCache().startsWith("MISS") || read.xCache().startsWith("BYPASS")) {
          backendOutside++;
        }
      }
      if (firstNewer == null) {
        continue;
      }
      long lateNanos = read.startNanos() - firstNewer.endNanos();
      if (lateNanos <= boundNanos || afterACrash(read, leaseWindows, boundNanos + crashAllowanceNanos)) {
        late++;
      } else if (read.xCache().startsWith("STALE")
          && (rebuilding(read, firstNewer.generation(), misses) || rebuilding(read, firstNewer, background))) {
        staleWhileRebuilding++;
      } else {
        violations.add(new Violation(read, firstNewer.generation(), lateNanos / 1_000_000));
      }
    }
    return new Verdict(reads.size(), violations, late, staleWhileRebuilding, refreshes.size(),
        refreshes.stream().filter(Refresh::refused).count(), liveErrors, outside, backendOutside, slowest,
        rebuilds.size(), longestRebuild);
  }

  /** True when a build of the page, showing at least {@code generation}, was in flight during the read. */
  private static boolean rebuilding(Read read, int generation, Map<Integer, List<Read>> misses) {
    for (Read m : misses.getOrDefault(read.page(), List.of())) {
      if (m.generation() >= generation && m.startNanos() <= read.endNanos() && m.endNanos() >= read.startNanos()) {
        return true;
      }
    }
    return false;
  }

  /**
   * How far a reported rebuild's times may be off on the soak's clock: the frontends log wall-clock
   * milliseconds (truncated), converted with an offset read to the millisecond.
   */
  static final long REPORT_SKEW_NANOS = 2_000_000;

  /**
   * True when a background rebuild of the page, its lock won after {@code refresh} started (so its
   * build shows at least its generation), was in flight during the read, its times taken up to
   * {@link #REPORT_SKEW_NANOS} wider.
   */
  private static boolean rebuilding(Read read, Refresh refresh, Map<Integer, List<Rebuild>> rebuilds) {
    for (Rebuild r : rebuilds.getOrDefault(read.page(), List.of())) {
      if (r.outcome().startsWith("skipped") || r.outcome().startsWith("not sent")) {
        continue; // its lock given back at once: nobody rebuilt the page
      }
      if (r.startNanos() >= refresh.startNanos() && r.startNanos() - REPORT_SKEW_NANOS <= read.endNanos()
          && r.endNanos() + REPORT_SKEW_NANOS >= read.startNanos()) {
        return true;
      }
    }
    return false;
  }

  private static boolean afterACrash(Read read, List<Long> kills, long windowNanos) {
    for (long kill : kills) {
      if (read.startNanos() >= kill && read.startNanos() - kill <= windowNanos) {
        return true;
      }
    }
    return false;
  }
}
