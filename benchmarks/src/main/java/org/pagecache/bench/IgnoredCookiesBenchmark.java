package org.pagecache.bench;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.pagecache.internal.key.IgnoredCookies;

/**
 * Looking up one cookie name in the built-in ignore list (about 700 names and patterns), as the
 * filter does for every cookie of every request: {@link IgnoredCookies#ignored} (a hash set and a
 * prefix trie), against a reference that scans the same prefixes one by one. {@code name}: an exact
 * entry, a prefix entry, a long prefix entry, and a session cookie that is not on the list (every
 * prefix has to be ruled out).
 *
 * <pre>
 *   java -cp ... org.openjdk.jmh.Main IgnoredCookiesBenchmark -f 1 -wi 3 -i 5 -w 1s -r 1s
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class IgnoredCookiesBenchmark {
  @Param({"_ga", "_ga_ABC123XYZ", "_hjSessionUser_3012345", "JSESSIONID"})
  String name;

  private final IgnoredCookies ignored = IgnoredCookies.builtIn();
  private final Set<String> exact = new HashSet<>();
  private final List<String> prefixes = new ArrayList<>();

  @Setup
  public void setUp() {
    for (String p : IgnoredCookies.BUILT_IN) {
      if (p.endsWith("*")) {
        prefixes.add(p.substring(0, p.length() - 1));
      } else {
        exact.add(p);
      }
    }
  }

  @Benchmark
  public boolean trie() {
    return ignored.ignored(name);
  }

  /** The same list matched by scanning every prefix (how the hand-written list was matched). */
  @Benchmark
  public boolean scan() {
    if (exact.contains(name)) {
      return true;
    }
    for (String prefix : prefixes) {
      if (name.startsWith(prefix)) {
        return true;
      }
    }
    return false;
  }
}
