package org.pagecache.soak;

import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The background rebuilds the soak's frontends report in their log (the filter's DEBUG lines
 * "background rebuild N of a page page /p/7: handed over, its lock won 3 ms before" and "...: ended,
 * done"), turned into
 * {@link Checker.Rebuild}s on the soak's clock. The frontends log wall-clock times to the
 * millisecond ({@link #JVM_OPTIONS}); the soak's reads are timed with {@link System#nanoTime}, so
 * one offset between the two, taken when the soak starts, converts them. A rebuild is in flight from
 * when its lock was won: from then on every other request serves the page stale.
 */
final class RebuildReports {
  /** What a frontend's JVM needs for the lines this parses: the filter's debug lines, timed. */
  static final List<String> JVM_OPTIONS = List.of(
      "-Dorg.slf4j.simpleLogger.log.org.pagecache.BackgroundRebuilds=debug",
      "-Dorg.slf4j.simpleLogger.showDateTime=true",
      "-Dorg.slf4j.simpleLogger.dateTimeFormat=yyyy-MM-dd'T'HH:mm:ss.SSSZ");
  private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSZ");
  private static final Pattern LINE = Pattern.compile(
      "^(\\S+) \\[[^\\]]*\\] DEBUG org\\.pagecache\\.BackgroundRebuilds - pagecache: background rebuild (\\d+) of a"
          + " \\S+ page /p/(\\d+): (handed over, its lock won (\\d+) ms before|ended, (.+))$");

  /** Wall-clock nanoseconds minus {@link System#nanoTime}, taken once. */
  private final long wallMinusNano = System.currentTimeMillis() * 1_000_000 - System.nanoTime();
  private final List<Checker.Rebuild> ended = new CopyOnWriteArrayList<>();
  /** Handed over, not ended yet: per frontend start ("index.epoch"), by the rebuild's number. */
  private final Map<String, Map<Long, long[]>> open = new HashMap<>();
  /** Ends read before their hand-overs (two threads log them), per frontend start, by number: {outcome, time}. */
  private final Map<String, Map<Long, Object[]>> endedFirst = new HashMap<>();
  /** Frontend starts killed: a line of theirs read after the kill is not taken as in flight. */
  private final java.util.Set<String> killed = new java.util.HashSet<>();

  /** One line of the frontend {@code frontend} (its start, "index.epoch"); lines of other kinds are ignored. */
  synchronized void line(String frontend, String line) {
    Matcher m = LINE.matcher(line);
    if (!m.matches() || killed.contains(frontend)) {
      return;
    }
    long at;
    try {
      at = OffsetDateTime.parse(m.group(1), TIME).toInstant().toEpochMilli() * 1_000_000 - wallMinusNano;
    } catch (DateTimeParseException e) {
      return;
    }
    long id = Long.parseLong(m.group(2));
    int page = Integer.parseInt(m.group(3));
    Map<Long, long[]> mine = open.computeIfAbsent(frontend, f -> new HashMap<>());
    Map<Long, Object[]> early = endedFirst.computeIfAbsent(frontend, f -> new HashMap<>());
    if (m.group(6) == null) {
      long won = at - Long.parseLong(m.group(5)) * 1_000_000; // in flight since its lock was won
      Object[] end = early.remove(id);
      if (end == null) {
        mine.put(id, new long[] {page, won});
      } else {
        ended.add(new Checker.Rebuild(page, won, Math.max(at, (long) end[1]), (String) end[0]));
      }
    } else {
      long[] started = mine.remove(id);
      if (started != null) {
        ended.add(new Checker.Rebuild(page, started[1], at, m.group(6)));
      } else {
        early.put(id, new Object[] {m.group(6), at});
      }
    }
  }

  /** The frontend was killed at {@code nanos}: what it had in flight ended then, unfinished. */
  synchronized void killed(String frontend, long nanos) {
    killed.add(frontend);
    Map<Long, long[]> mine = open.remove(frontend);
    if (mine != null) {
      mine.values().forEach(s -> ended.add(new Checker.Rebuild((int) s[0], s[1], nanos, "killed")));
    }
  }

  /** Every rebuild reported, those still in flight ending at {@code nanos}. */
  synchronized List<Checker.Rebuild> all(long nanos) {
    List<Checker.Rebuild> all = new java.util.ArrayList<>(ended);
    open.values().forEach(m -> m.values().forEach(s -> all.add(new Checker.Rebuild((int) s[0], s[1], nanos, "running"))));
    return all;
  }
}
