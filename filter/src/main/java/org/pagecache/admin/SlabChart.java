package org.pagecache.admin;

import org.pagecache.internal.html.Html;
import java.util.List;
import java.util.Locale;

/**
 * An inline SVG bar chart of memory per slab class: one bar per class, the memory memcached has
 * assigned to it (light) with the part holding items (dark) in front. No script, no external
 * asset; the exact figures are in each bar's tooltip ({@code <title>}).
 *
 * <p>Why it matters: memcached never moves memory between classes on its own quickly, so a class
 * that is full while others sit empty evicts pages although {@code bytes} is far below the limit.
 */
final class SlabChart {
  private static final int WIDTH = 720;
  private static final int HEIGHT = 200;
  private static final int LEFT = 64;
  private static final int BOTTOM = 34;
  private static final int TOP = 12;

  private SlabChart() {}

  static String svg(String server, List<SlabClass> classes) {
    long max = 1;
    for (SlabClass c : classes) {
      max = Math.max(max, Math.max(c.allocatedBytes(), c.usedBytes()));
    }
    int plotWidth = WIDTH - LEFT - 8;
    int plotHeight = HEIGHT - TOP - BOTTOM;
    double slot = (double) plotWidth / Math.max(classes.size(), 1);
    double barWidth = Math.max(2, slot * 0.8);
    StringBuilder svg = new StringBuilder(512 + classes.size() * 400);
    svg.append("<svg class=\"slabs\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 ").append(WIDTH).append(' ')
        .append(HEIGHT).append("\" width=\"").append(WIDTH).append("\" height=\"").append(HEIGHT)
        .append("\" role=\"img\" aria-label=\"memory per slab class of ").append(Html.escape(server)).append("\">");
    int baseline = TOP + plotHeight;
    svg.append("<line x1=\"").append(LEFT).append("\" y1=\"").append(baseline).append("\" x2=\"").append(WIDTH - 8)
        .append("\" y2=\"").append(baseline).append("\" stroke=\"#888\"/>");
    svg.append("<text x=\"").append(LEFT - 6).append("\" y=\"").append(TOP + 10)
        .append("\" text-anchor=\"end\" font-size=\"11\">").append(Html.escape(Display.bytes(max))).append("</text>");
    svg.append("<text x=\"").append(LEFT - 6).append("\" y=\"").append(baseline)
        .append("\" text-anchor=\"end\" font-size=\"11\">0</text>");
    for (int i = 0; i < classes.size(); i++) {
      SlabClass c = classes.get(i);
      double x = LEFT + i * slot + (slot - barWidth) / 2;
      double allocated = (double) c.allocatedBytes() * plotHeight / max;
      // At least a sliver when anything is used: a few KB next to 1 MB pages would not show at all.
      double used = c.usedBytes() == 0 ? 0 : Math.max(1.5, (double) c.usedBytes() * plotHeight / max);
      svg.append("<g><title>").append(Html.escape("class " + c.id() + ", chunk " + Display.bytes(c.chunkSize())
          + ": " + Display.bytes(c.allocatedBytes()) + " assigned (" + c.totalPages() + " pages), "
          + Display.bytes(c.usedBytes()) + " in use (" + c.usedChunks() + " of " + c.totalChunks() + " chunks)"))
          .append("</title>");
      rect(svg, x, baseline - allocated, barWidth, allocated, "#b8d4f0");
      rect(svg, x, baseline - used, barWidth, used, "#1f5f9f");
      svg.append("</g>");
      if (classes.size() <= 12) {
        label(svg, x + barWidth / 2, baseline + 14, c.id() + " (" + Display.bytes(c.chunkSize()) + ")");
      } else if (classes.size() <= 24 || i % 2 == 0) {
        label(svg, x + barWidth / 2, baseline + 14, String.valueOf(c.id()));
      }
    }
    svg.append("<text x=\"").append(LEFT + plotWidth / 2).append("\" y=\"").append(HEIGHT - 2)
        .append("\" text-anchor=\"middle\" font-size=\"11\">")
        .append(classes.size() <= 12 ? "slab class (chunk size)" : "slab class").append("</text>");
    return svg.append("</svg>").toString();
  }

  private static void label(StringBuilder svg, double x, int y, String text) {
    svg.append("<text x=\"").append(num(x)).append("\" y=\"").append(y)
        .append("\" text-anchor=\"middle\" font-size=\"10\">").append(Html.escape(text)).append("</text>");
  }

  private static void rect(StringBuilder svg, double x, double y, double w, double h, String fill) {
    svg.append("<rect x=\"").append(num(x)).append("\" y=\"").append(num(y)).append("\" width=\"").append(num(w))
        .append("\" height=\"").append(num(h)).append("\" fill=\"").append(fill).append("\"/>");
  }

  private static String num(double v) {
    return String.format(Locale.ROOT, "%.1f", v);
  }
}
