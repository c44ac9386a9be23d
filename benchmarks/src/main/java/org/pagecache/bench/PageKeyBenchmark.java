package org.pagecache.bench;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.pagecache.store.Namespace;
import org.pagecache.internal.key.PageKey;

/**
 * Building a page's memcached key as the filter does on every request: {@link PageKey#canonical}
 * (sorted query, length-prefixed parts) then {@link Namespace#page} (SHA-256 of the canonical
 * text). {@code short}: {@code /article/42}; {@code long}: a 1.6 KB search URL with 40 unsorted
 * query parameters.
 *
 * <pre>
 *   java -cp ... org.openjdk.jmh.Main PageKeyBenchmark -f 1 -wi 3 -i 5 -w 1s -r 1s
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class PageKeyBenchmark {
  @Param({"short", "long"})
  String url;

  private final Namespace namespace = new Namespace("pc");
  private String path;
  private String query;

  @Setup
  public void setUp() {
    if (url.equals("short")) {
      path = "/article/42";
      query = null;
    } else {
      path = "/search/results/europe/france/paris/restaurants/with-terrace/open-sunday/page/3";
      StringBuilder q = new StringBuilder();
      for (int i = 40; i > 0; i--) {
        q.append(q.length() == 0 ? "" : "&").append("filter").append(i).append("=value-")
            .append(Integer.toHexString(i * 7919)).append("-lorem%20ipsum%20dolor");
      }
      query = q.toString();
    }
  }

  /** Characters of path plus query, for the report. */
  public static int length(String url) {
    PageKeyBenchmark b = new PageKeyBenchmark();
    b.url = url;
    b.setUp();
    return b.path.length() + (b.query == null ? 0 : b.query.length() + 1);
  }

  @Benchmark
  public String pageKey() {
    return namespace.page("article", PageKey.canonical("https", "www.example.com", 443, path, query, List.of()));
  }
}
