package org.pagecache.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * What the scenarios measured by wrk rounds share (the long tail and the memcached hit): a wrk run
 * of a Lua script against a base URL, its requests per second, the median of interleaved rounds,
 * and the generated scripts written where the run's output goes.
 */
final class WrkRounds {
  private WrkRounds() {}

  /** One wrk run of {@code script} for {@code d} against {@code base + "0"} (the script draws the page numbers). */
  static String run(ProxyScenario proxies, String base, Path script, Duration d) {
    List<String> cmd = List.of(ProxyScenario.env("WRK", "wrk"), "-t" + ProxyScenario.THREADS,
        "-c" + ProxyScenario.CONNECTIONS, "-d" + Math.max(1, d.toSeconds()) + "s", "--timeout", "10s", "--latency",
        "-s", script.toString(), base + "0");
    return proxies.run(cmd, d.plusSeconds(30));
  }

  /** The requests per second a wrk run reports. */
  static double rps(String wrk) {
    return Double.parseDouble(ProxyScenario.first(wrk, "Requests/sec:\\s+([0-9.]+)"));
  }

  /** The median of one column of the rounds. */
  static double median(List<double[]> rounds, int column) {
    return JmhResults.median(rounds.stream().mapToDouble(r -> r[column]).toArray());
  }

  /** A generated Lua script, written to {@code dir}. */
  static Path script(Path dir, String name, String lua) throws IOException {
    Path p = dir.resolve(name);
    Files.writeString(p, lua, StandardCharsets.UTF_8);
    return p;
  }
}
