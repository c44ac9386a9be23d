package org.pagecache.bench;

import static org.pagecache.bench.Table.num;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Regenerates the figures in BENCHMARKS.md from one bench run: every block between
 * {@code <!-- bench:NAME -->} and {@code <!-- /bench:NAME -->} is replaced; the prose around
 * the blocks is left as written. A block the file lacks, or a result the run lacks, is an error
 * naming it, so the document never silently keeps old numbers.
 *
 * <pre>
 *   java -cp ... org.pagecache.bench.BenchmarksReport BENCHMARKS.md target/bench
 * </pre>
 * The run directory holds {@code machine.txt} and {@code run.txt} (written by scripts/bench.sh),
 * {@code jmh.json} (JMH's {@code -rf json}) and one {@code NAME.md} per {@link MacroBench} scenario.
 */
public final class BenchmarksReport {
  private static final Pattern BLOCK = Pattern.compile("(<!-- bench:([a-z]+) -->\\n)(.*?)(<!-- /bench:\\2 -->)", Pattern.DOTALL);

  private BenchmarksReport() {}

  public static void main(String[] args) throws IOException {
    Path doc = Path.of(args[0]);
    Path run = Path.of(args[1]);
    Map<String, String> blocks = new HashMap<>();
    if (args.length > 2) {
      // Some scenarios alone (scripts/bench.sh longtail): only their blocks are rewritten, the rest stays.
      for (String section : args[2].split(",")) {
        blocks.put(section, read(run.resolve(section + ".md")).strip() + "\n");
      }
      Files.writeString(doc, replaceBlocks(read(doc), blocks, true), StandardCharsets.UTF_8);
      System.out.println("==> " + doc + ": " + blocks.keySet() + " regenerated");
      return;
    }
    blocks.put("run", "```\n" + read(run.resolve("run.txt")).strip() + "\n```\n\nMachine:\n\n```\n"
        + read(run.resolve("machine.txt")).strip() + "\n```\n");
    JmhResults jmh = JmhResults.parse(read(run.resolve("jmh.json")));
    blocks.put("codec", codec(jmh));
    blocks.put("filter", filter(jmh));
    blocks.put("keys", keys(jmh));
    for (String section : List.of("throughput", "cookies", "refresh", "stampede", "outage", "scaleout", "clusters",
        "proxies", "nodes", "pools", "longtail", "memhit", "fragments", "expiring", "junkparams")) {
      blocks.put(section, read(run.resolve(section + ".md")).strip() + "\n");
    }
    Files.writeString(doc, replaceBlocks(read(doc), blocks, false), StandardCharsets.UTF_8);
    System.out.println("==> " + doc + ": " + blocks.size() + " blocks regenerated");
  }

  /** Replaces the blocks; with {@code some}, blocks this run did not produce keep their content. */
  static String replaceBlocks(String text, Map<String, String> blocks, boolean some) {
    Matcher m = BLOCK.matcher(text);
    StringBuilder out = new StringBuilder();
    List<String> seen = new ArrayList<>();
    while (m.find()) {
      String name = m.group(2);
      String content = blocks.get(name);
      if (content == null && some) {
        m.appendReplacement(out, Matcher.quoteReplacement(m.group(0)));
        continue;
      }
      if (content == null) {
        throw new IllegalStateException("BENCHMARKS.md has a block '" + name + "' this run did not produce");
      }
      seen.add(name);
      m.appendReplacement(out, Matcher.quoteReplacement(m.group(1) + content + m.group(4)));
    }
    m.appendTail(out);
    for (String name : blocks.keySet()) {
      if (!seen.contains(name)) {
        throw new IllegalStateException("BENCHMARKS.md lacks the block <!-- bench:" + name + " --> ... <!-- /bench:"
            + name + " -->");
      }
    }
    return out.toString();
  }

  private static String codec(JmhResults jmh) {
    Table t = new Table("HTML", "stored body", "Kryo entry bytes", "Java ser. bytes", "Kryo encode ns",
        "Kryo decode ns", "Java encode ns", "Java decode ns", "decode: Java / Kryo");
    for (PageCodecBenchmark.EntrySize s : PageCodecBenchmark.entrySizes()) {
      Map<String, String> p = Map.of("htmlBytes", Integer.toString(s.htmlBytes()), "gzipped", Boolean.toString(s.gzipped()));
      double[] kryoDecode = jmh.get("PageCodecBenchmark.kryoDecode", p).of("");
      double[] javaDecode = jmh.get("PageCodecBenchmark.javaDecode", p).of("");
      t.row(s.htmlBytes() / 1024 + " KB" + (s.gzipped() ? ", gzipped" : ""), s.bodyBytes(), s.kryoBytes(), s.javaBytes(),
          JmhResults.medianAndRange(jmh.get("PageCodecBenchmark.kryoEncode", p).of(""), 0),
          JmhResults.medianAndRange(kryoDecode, 0),
          JmhResults.medianAndRange(jmh.get("PageCodecBenchmark.javaEncode", p).of(""), 0),
          JmhResults.medianAndRange(javaDecode, 0),
          num(JmhResults.median(javaDecode) / JmhResults.median(kryoDecode), 1) + "x");
    }
    return "Average time per operation in each measured iteration: the median iteration, and in brackets the"
        + " fastest and slowest. Entry bytes are what memcached stores for the page (body plus headers and"
        + " metadata).\n\n" + t;
  }

  private static String filter(JmhResults jmh) {
    Table t = new Table("client", "PageCache hit µs", "plain servlet µs", "filter overhead µs", "overhead");
    double pairs = 0;
    for (String client : List.of("gzip", "identity")) {
      JmhResults.Run run = jmh.get("FilterHitBenchmark.pairedRequests", Map.of("client", client));
      double[] n = run.of("pairs");
      double[] hit = perRequestMicros(run.of("filterNanos"), n);
      double[] direct = perRequestMicros(run.of("directNanos"), n);
      double[] overhead = new double[n.length];
      double[] relative = new double[n.length];
      for (int i = 0; i < n.length; i++) {
        overhead[i] = hit[i] - direct[i];
        relative[i] = 100 * (hit[i] / direct[i] - 1);
      }
      pairs += java.util.Arrays.stream(n).sum();
      t.row(client.equals("gzip") ? "`Accept-Encoding: gzip`" : "no Accept-Encoding", JmhResults.medianAndRange(hit, 1),
          JmhResults.medianAndRange(direct, 1), JmhResults.medianAndRange(overhead, 1),
          num(JmhResults.median(relative), 0) + " %");
    }
    return "Requests one at a time through Jetty's `LocalConnector` (real HTTP/1.1 parsing and servlet pipeline,"
        + " no sockets), store = `LocalStore`, page = " + FilterHitBenchmark.PAGE_BYTES / 1024 + " KB HTML. Each"
        + " invocation sends one request of each kind, in alternating order (" + num(pairs, 0) + " pairs in all)."
        + " Mean time per request in each measured iteration: the median iteration, and in brackets the fastest"
        + " and slowest; the overhead is computed per iteration, from requests that ran side by side.\n\n" + t;
  }

  private static double[] perRequestMicros(double[] nanos, double[] pairs) {
    double[] micros = new double[nanos.length];
    for (int i = 0; i < nanos.length; i++) {
      micros[i] = nanos[i] / pairs[i] / 1000;
    }
    return micros;
  }

  private static String keys(JmhResults jmh) {
    Table t = new Table("URL", "characters (path + query)", "ns per key");
    for (String url : List.of("short", "long")) {
      t.row(url.equals("short") ? "`/article/42`" : "search URL, 40 query parameters", PageKeyBenchmark.length(url),
          JmhResults.medianAndRange(jmh.get("PageKeyBenchmark.pageKey", Map.of("url", url)).of(""), 0));
    }
    return "`PageKey.canonical` + `Namespace.page` (sort the query, SHA-256, base64); median iteration (fastest–slowest).\n\n" + t;
  }

  private static String read(Path p) throws IOException {
    if (!Files.exists(p)) {
      throw new IllegalStateException(p + " is missing: run scripts/bench.sh, which writes it");
    }
    return Files.readString(p, StandardCharsets.UTF_8);
  }
}
