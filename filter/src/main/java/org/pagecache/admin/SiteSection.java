package org.pagecache.admin;

import org.pagecache.stats.SiteStats;
import org.pagecache.internal.html.Html;

/**
 * The admin page's whole-site table: each caching handler's figures summed over every frontend
 * that shares memcached, so that an editor behind a load balancer sees the same numbers whichever
 * server answers (the handlers table above it is this server's alone).
 */
final class SiteSection {
  private SiteSection() {}

  static String html(Snapshot s) {
    StringBuilder out = new StringBuilder(2048);
    out.append("<section id=\"cluster\"><h2>Whole site</h2><p class=\"hint\">Every server that shares memcached,"
        + " the last ").append(SiteStats.WINDOW_MINUTES).append(" minutes (each server adds its figures every ")
        .append(SiteStats.INTERVAL_SECONDS).append(" s). Pages rebuilt since the last refresh count from the"
        + " refresh, whichever server made it.</p>");
    if (s.site().isEmpty()) {
      return out.append("<p class=\"muted\">Not available while memcached cannot be read.</p></section>").toString();
    }
    out.append("<table class=\"cluster\"><thead><tr><th>Handler</th><th class=\"n\">Hits</th><th class=\"n\">Misses</th>"
        + "<th class=\"n\">Rebuilds</th><th class=\"n\">Bypasses</th><th class=\"n\">Pages rebuilt since the last refresh</th>"
        + "</tr></thead><tbody>");
    for (Snapshot.HandlerRow h : s.handlers()) {
      if (h.neverCached()) {
        continue;
      }
      SiteStats c = s.siteOf(h.name());
      out.append("<tr data-cluster=\"").append(Html.escape(h.name())).append("\"><th scope=\"row\">")
          .append(Html.escape(h.name())).append("</th>");
      cell(out, "hits", Display.count(c.hits()));
      cell(out, "misses", Display.count(c.misses()));
      cell(out, "rebuilds", Display.count(c.rebuilds()));
      cell(out, "bypasses", Display.count(c.bypasses()));
      cell(out, "rebuiltSinceRefresh", c.rebuiltSinceRefresh() < 0 ? "–" : Display.count(c.rebuiltSinceRefresh()));
      out.append("</tr>");
    }
    return out.append("</tbody></table></section>").toString();
  }

  private static void cell(StringBuilder out, String field, String text) {
    out.append("<td class=\"n\" data-c=\"").append(field).append("\">").append(text).append("</td>");
  }
}
