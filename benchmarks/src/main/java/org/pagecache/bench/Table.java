package org.pagecache.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** A Markdown table for BENCHMARKS.md; numbers are formatted by the caller with {@link #num}. */
final class Table {
  private final List<String> header;
  private final List<List<String>> rows = new ArrayList<>();

  Table(String... header) {
    this.header = List.of(header);
  }

  Table row(Object... cells) {
    if (cells.length != header.size()) {
      throw new IllegalArgumentException(header.size() + " columns but " + cells.length + " cells");
    }
    List<String> row = new ArrayList<>();
    for (Object c : cells) {
      row.add(String.valueOf(c));
    }
    rows.add(row);
    return this;
  }

  /** {@code value} with {@code decimals} decimals, grouping thousands: 12 345.6. */
  static String num(double value, int decimals) {
    if (Double.isNaN(value)) {
      return "n/a";
    }
    return String.format(Locale.ROOT, "%,." + decimals + "f", value).replace(',', ' ');
  }

  static String percent(double fraction, int decimals) {
    return num(fraction * 100, decimals) + " %";
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder();
    sb.append("| ").append(String.join(" | ", header)).append(" |\n|");
    for (int i = 0; i < header.size(); i++) {
      sb.append(i == 0 ? "---|" : "---:|");
    }
    sb.append('\n');
    for (List<String> row : rows) {
      sb.append("| ").append(String.join(" | ", row)).append(" |\n");
    }
    return sb.toString();
  }
}
