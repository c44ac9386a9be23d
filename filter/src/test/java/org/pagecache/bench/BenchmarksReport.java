package org.pagecache.bench;

import static org.pagecache.bench.Table.num;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
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
 * {@code jmh.csv} (JMH's {@code -rf csv}) and one {@code NAME.md} per {@link MacroBench} scenario.
 */
public final class BenchmarksReport {
  private static final Pattern BLOCK = Pattern.compile("(<!-- bench:([a-z]+) -->\\n)(.*?)(<!-- /bench:\\2 -->)", Pattern.DOTALL);
  private static final String PKG = "org.pagecache.bench.";

  private BenchmarksReport() {}

  public static void main(String[] args) throws IOException {
    Path doc = Path.of(args[0]);
    Path run = Path.of(args[1]);
    Map<String, String> blocks = new HashMap<>();
    blocks.put("run", "```\n" + read(run.resolve("run.txt")).strip() + "\n```\n\nMachine:\n\n```\n"
        + read(run.resolve("machine.txt")).strip() + "\n```\n");
    Jmh jmh = Jmh.parse(read(run.resolve("jmh.csv")));
    blocks.put("codec", codec(jmh));
    blocks.put("filter", filter(jmh));
    blocks.put("keys", keys(jmh));
    for (String section : List.of("throughput", "refresh", "stampede", "outage", "scaleout")) {
      blocks.put(section, read(run.resolve(section + ".md")).strip() + "\n");
    }
    Files.writeString(doc, replaceBlocks(read(doc), blocks), StandardCharsets.UTF_8);
    System.out.println("==> " + doc + ": " + blocks.size() + " blocks regenerated");
  }

  static String replaceBlocks(String text, Map<String, String> blocks) {
    Matcher m = BLOCK.matcher(text);
    StringBuilder out = new StringBuilder();
    List<String> seen = new ArrayList<>();
    while (m.find()) {
      String name = m.group(2);
      String content = blocks.get(name);
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

  private static String codec(Jmh jmh) {
    Table t = new Table("HTML", "stored body", "Kryo entry bytes", "Java ser. bytes", "Kryo encode ns",
        "Kryo decode ns", "Java encode ns", "Java decode ns", "decode: Java / Kryo");
    for (PageCodecBenchmark.EntrySize s : PageCodecBenchmark.entrySizes()) {
      Map<String, String> p = Map.of("htmlBytes", Integer.toString(s.htmlBytes()), "gzipped", Boolean.toString(s.gzipped()));
      Jmh.Row kryoDecode = jmh.get("PageCodecBenchmark.kryoDecode", p);
      Jmh.Row javaDecode = jmh.get("PageCodecBenchmark.javaDecode", p);
      t.row(s.htmlBytes() / 1024 + " KB" + (s.gzipped() ? ", gzipped" : ""), s.bodyBytes(), s.kryoBytes(), s.javaBytes(),
          jmh.get("PageCodecBenchmark.kryoEncode", p).scoreWithError(0), kryoDecode.scoreWithError(0),
          jmh.get("PageCodecBenchmark.javaEncode", p).scoreWithError(0), javaDecode.scoreWithError(0),
          num(javaDecode.score() / kryoDecode.score(), 1) + "x");
    }
    return "Average time per operation (± the 99.9 % confidence half-width JMH reports over the iterations)."
        + " Entry bytes are what memcached stores for the page (body plus headers and metadata).\n\n" + t;
  }

  private static String filter(Jmh jmh) {
    Table t = new Table("client", "PageCache hit µs", "plain servlet µs", "filter overhead µs", "overhead",
        "pair of requests µs (JMH score)");
    for (String client : List.of("gzip", "identity")) {
      Map<String, String> p = Map.of("client", client);
      double pairs = jmh.get("FilterHitBenchmark.pairedRequests:pairs", p).score();
      double hit = jmh.get("FilterHitBenchmark.pairedRequests:filterNanos", p).score() / pairs / 1000;
      double direct = jmh.get("FilterHitBenchmark.pairedRequests:directNanos", p).score() / pairs / 1000;
      t.row(client.equals("gzip") ? "`Accept-Encoding: gzip`" : "no Accept-Encoding", num(hit, 1), num(direct, 1),
          num(hit - direct, 1), Table.percent(hit / direct - 1, 0),
          jmh.get("FilterHitBenchmark.pairedRequests", p).scoreWithError(1));
    }
    return "Requests one at a time through Jetty's `LocalConnector` (real HTTP/1.1 parsing and servlet pipeline,"
        + " no sockets), store = `LocalStore`, page = " + FilterHitBenchmark.PAGE_BYTES / 1024 + " KB HTML. Each"
        + " invocation sends one request of each kind, in alternating order; the columns are mean times per"
        + " request over the measured iterations (" + num(jmh.get("FilterHitBenchmark.pairedRequests:pairs",
        Map.of("client", "gzip")).score(), 0) + " pairs for gzip).\n\n" + t;
  }

  private static String keys(Jmh jmh) {
    Table t = new Table("URL", "characters (path + query)", "ns per key");
    for (String url : List.of("short", "long")) {
      t.row(url.equals("short") ? "`/article/42`" : "search URL, 40 query parameters", PageKeyBenchmark.length(url),
          jmh.get("PageKeyBenchmark.pageKey", Map.of("url", url)).scoreWithError(0));
    }
    return "`PageKey.canonical` + `Namespace.page` (sort the query, SHA-256, base64), average time.\n\n" + t;
  }

  private static String read(Path p) throws IOException {
    if (!Files.exists(p)) {
      throw new IllegalStateException(p + " is missing: run scripts/bench.sh, which writes it");
    }
    return Files.readString(p, StandardCharsets.UTF_8);
  }

  /** JMH's CSV results: benchmark (without package), params, score, error. */
  record Jmh(List<Row> rows) {
    record Row(String benchmark, Map<String, String> params, double score, double error) {
      String scoreWithError(int decimals) {
        return num(score, decimals) + (Double.isNaN(error) ? "" : " ± " + num(error, decimals));
      }
    }

    static Jmh parse(String csv) {
      List<String> lines = csv.lines().filter(l -> !l.isBlank()).toList();
      List<String> header = fields(lines.get(0));
      List<Row> rows = new ArrayList<>();
      for (String line : lines.subList(1, lines.size())) {
        List<String> f = fields(line);
        Map<String, String> params = new LinkedHashMap<>();
        for (int i = 0; i < header.size(); i++) {
          if (header.get(i).startsWith("Param: ") && i < f.size() && !f.get(i).isEmpty()) {
            params.put(header.get(i).substring("Param: ".length()), f.get(i));
          }
        }
        String name = f.get(0).startsWith(PKG) ? f.get(0).substring(PKG.length()) : f.get(0);
        rows.add(new Row(name, params, Double.parseDouble(f.get(4)), Double.parseDouble(f.get(5))));
      }
      return new Jmh(rows);
    }

    Row get(String benchmark, Map<String, String> params) {
      return rows.stream()
          .filter(r -> r.benchmark().equals(benchmark) && r.params().entrySet().containsAll(params.entrySet()))
          .findFirst()
          .orElseThrow(() -> new IllegalStateException("jmh.csv has no result for " + benchmark + " " + params));
    }

    /** One CSV line: fields separated by commas, optionally double-quoted (JMH never puts quotes inside). */
    private static List<String> fields(String line) {
      List<String> fields = new ArrayList<>();
      for (String f : line.split(",", -1)) {
        fields.add(f.length() >= 2 && f.startsWith("\"") && f.endsWith("\"") ? f.substring(1, f.length() - 1) : f);
      }
      return fields;
    }
  }
}
