package org.pagecache.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * JMH's JSON results ({@code -rf json}), reduced to what the report needs: per benchmark and
 * parameters, the score of every measured iteration, for the primary metric and the secondary
 * ones (event counters). The report shows the median iteration and the range rather than the mean
 * and its error: on a shared machine one stalled iteration can move a mean (and blow up its error)
 * while the median of five stays put.
 */
record JmhResults(List<Run> runs) {
  private static final String PACKAGE = "org.pagecache.bench.";

  /** One benchmark with one set of parameters. Iteration scores per metric ("" = primary). */
  record Run(String benchmark, Map<String, String> params, Map<String, double[]> iterations) {
    double[] of(String metric) {
      double[] values = iterations.get(metric);
      if (values == null) {
        throw new IllegalStateException(benchmark + " " + params + " has no metric '" + metric + "'");
      }
      return values;
    }
  }

  static JmhResults parse(String json) {
    List<Run> runs = new ArrayList<>();
    for (Object o : (List<?>) new Parser(json).value()) {
      Map<?, ?> entry = (Map<?, ?>) o;
      String name = (String) entry.get("benchmark");
      Map<String, String> params = new LinkedHashMap<>();
      if (entry.get("params") instanceof Map<?, ?> p) {
        p.forEach((k, v) -> params.put((String) k, (String) v));
      }
      Map<String, double[]> iterations = new LinkedHashMap<>();
      iterations.put("", raw((Map<?, ?>) entry.get("primaryMetric")));
      if (entry.get("secondaryMetrics") instanceof Map<?, ?> secondary) {
        secondary.forEach((k, v) -> iterations.put((String) k, raw((Map<?, ?>) v)));
      }
      runs.add(new Run(name.startsWith(PACKAGE) ? name.substring(PACKAGE.length()) : name, params, iterations));
    }
    return new JmhResults(runs);
  }

  Run get(String benchmark, Map<String, String> params) {
    return runs.stream()
        .filter(r -> r.benchmark().equals(benchmark) && r.params().entrySet().containsAll(params.entrySet()))
        .findFirst()
        .orElseThrow(() -> new IllegalStateException("the JMH results have no " + benchmark + " " + params));
  }

  static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }

  /** Median with the range of the iterations, e.g. {@code 331 (318–352)}. */
  static String medianAndRange(double[] values, int decimals) {
    double min = Arrays.stream(values).min().orElse(Double.NaN);
    double max = Arrays.stream(values).max().orElse(Double.NaN);
    return Table.num(median(values), decimals) + " (" + Table.num(min, decimals) + "–" + Table.num(max, decimals) + ")";
  }

  /** rawData is one list of iteration scores per fork: flattened. */
  private static double[] raw(Map<?, ?> metric) {
    List<Double> values = new ArrayList<>();
    for (Object fork : (List<?>) metric.get("rawData")) {
      for (Object v : (List<?>) fork) {
        values.add(((Number) v).doubleValue());
      }
    }
    return values.stream().mapToDouble(Double::doubleValue).toArray();
  }

  /** Just enough JSON for JMH's output: objects, arrays, strings, numbers, true/false/null. */
  private static final class Parser {
    private final String s;
    private int i;

    Parser(String s) {
      this.s = s;
    }

    Object value() {
      skipSpace();
      char c = s.charAt(i);
      switch (c) {
        case '{': {
          Map<String, Object> map = new LinkedHashMap<>();
          i++;
          skipSpace();
          if (s.charAt(i) == '}') {
            i++;
            return map;
          }
          while (true) {
            skipSpace();
            String key = (String) value();
            skipSpace();
            expect(':');
            map.put(key, value());
            skipSpace();
            if (s.charAt(i++) == '}') {
              return map;
            }
          }
        }
        case '[': {
          List<Object> list = new ArrayList<>();
          i++;
          skipSpace();
          if (s.charAt(i) == ']') {
            i++;
            return list;
          }
          while (true) {
            list.add(value());
            skipSpace();
            if (s.charAt(i++) == ']') {
              return list;
            }
          }
        }
        case '"': {
          StringBuilder sb = new StringBuilder();
          i++;
          while (s.charAt(i) != '"') {
            char ch = s.charAt(i++);
            if (ch == '\\') {
              char esc = s.charAt(i++);
              sb.append(switch (esc) {
                case 'n' -> '\n';
                case 't' -> '\t';
                case 'u' -> {
                  char u = (char) Integer.parseInt(s.substring(i, i + 4), 16);
                  i += 4;
                  yield u;
                }
                default -> esc;
              });
            } else {
              sb.append(ch);
            }
          }
          i++;
          return sb.toString();
        }
        default: {
          int start = i;
          while (i < s.length() && ",]} \n\r\t".indexOf(s.charAt(i)) < 0) {
            i++;
          }
          String word = s.substring(start, i);
          return switch (word) {
            case "true" -> Boolean.TRUE;
            case "false" -> Boolean.FALSE;
            case "null" -> null;
            default -> Double.parseDouble(word);
          };
        }
      }
    }

    private void expect(char c) {
      if (s.charAt(i++) != c) {
        throw new IllegalArgumentException("JSON: expected '" + c + "' at " + (i - 1));
      }
    }

    private void skipSpace() {
      while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
        i++;
      }
    }
  }
}
