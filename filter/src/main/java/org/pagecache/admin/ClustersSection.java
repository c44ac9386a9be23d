package org.pagecache.admin;

import java.util.List;
import org.pagecache.stats.ClusterDelivery;
import org.pagecache.stats.ClusterStatus;
import org.pagecache.internal.html.Html;
import org.pagecache.internal.json.Json;

/**
 * The other memcached clusters on the admin page and in the JSON API (issue 19): each one's
 * backlog of invalidations (kept in this cluster's memcached, the same on every server of this
 * cluster: issue 37), the warm-up's progress, and which clusters an editor's action reached.
 */
final class ClustersSection {
  private ClustersSection() {}

  /** The section of the admin page; empty with one cluster. */
  static String html(ClusterStatus c) {
    if (c.remotes().isEmpty()) {
      return "";
    }
    StringBuilder out = new StringBuilder(1024);
    out.append("<section id=\"clusters\"><h2>Other clusters</h2><p class=\"hint\">Refreshes, tag invalidations and"
        + " evictions made through this server are written to every cluster; one that does not answer gets them"
        + " when it is back. The backlog is kept in this cluster's memcached, so every server of this cluster shows it"
        + " and delivers it, whichever server took it and whether or not it still runs.</p>")
        .append(delivery(c)).append("<div class=\"scroll\"><table><thead><tr>"
        + "<th>Cluster</th><th>Servers</th><th>State</th><th class=\"n\">Backlog</th><th class=\"n\">Oldest waiting</th>"
        + "<th class=\"n\">Delivered</th><th class=\"n\">Not delivered one by one</th><th class=\"n\">Overflows</th>"
        + "</tr></thead><tbody>");
    for (ClusterStatus.Remote r : c.remotes()) {
      out.append("<tr><th scope=\"row\">").append(Html.escape(r.name())).append("</th><td><code>")
          .append(Html.escape(r.servers())).append("</code></td><td>")
          .append(r.reachable() ? "reachable" : "<b>unreachable</b>: retrying").append("</td><td class=\"n\">")
          .append(Display.count((long) r.pending())).append(" of ").append(Display.count((long) r.backlogLimit())).append("</td><td class=\"n\">")
          .append(r.pending() == 0 ? "–" : Html.escape(Display.duration(r.oldestPendingMillis() / 1000)))
          .append("</td><td class=\"n\">").append(Display.count(r.delivered())).append("</td><td class=\"n\">")
          .append(r.lost() == 0 ? "0" : "<b>" + Display.count(r.lost()) + "</b>").append("</td><td class=\"n\">")
          .append(r.overflows() == 0 ? "0" : "<b>" + Display.count(r.overflows()) + "</b>").append("</td></tr>");
    }
    out.append("</tbody></table></div>");
    ClusterStatus.WarmUpProgress w = c.warmUp();
    if (w != null) {
      out.append("<h3>Warm-up from ").append(Html.escape(w.from())).append("</h3><p>")
          .append(w.active() ? "Missing pages are copied from " + Html.escape(w.from()) + " for another "
              + Html.escape(Display.duration(w.millisLeft() / 1000)) + "." : "Over: missing pages are built here.")
          .append("</p><table><thead><tr><th class=\"n\">Pages copied</th><th class=\"n\">Pages built</th>"
              + "<th class=\"n\">Copies refused (stale here)</th><th class=\"n\">Time left</th></tr></thead><tbody><tr>")
          .append("<td class=\"n\">").append(Display.count(w.copied())).append("</td><td class=\"n\">")
          .append(Display.count(w.built())).append("</td><td class=\"n\">").append(Display.count(w.refused()))
          .append("</td><td class=\"n\">").append(Html.escape(Display.duration(w.millisLeft() / 1000)))
          .append("</td></tr></tbody></table>");
    }
    return out.append("</section>").toString();
  }

  /**
   * Where the editors' refreshes, invalidations and evictions are applied, for an editor who just
   * made one: "local: applied; us: pending since ..., 3 invalidations". It changes to applied when
   * the backlog is delivered, by whichever server of this cluster.
   */
  private static String delivery(ClusterStatus c) {
    StringBuilder out = new StringBuilder("<p id=\"cluster-delivery\"><b>Refreshes, invalidations and evictions:</b> ")
        .append(ClusterDelivery.LOCAL).append(": applied");
    for (ClusterStatus.Remote r : c.remotes()) {
      out.append("; ").append(Html.escape(r.name())).append(": ");
      if (r.pending() == 0) {
        out.append("applied");
      } else {
        out.append("<b>pending</b>");
        if (r.pendingSinceMillis() > 0) {
          out.append(" since ").append(Html.escape(Display.time(r.pendingSinceMillis())));
        }
        out.append(", ").append(Display.count((long) r.pending())).append(r.pending() == 1 ? " invalidation" : " invalidations");
      }
    }
    return out.append("</p>").toString();
  }

  /** {@code "clusters": {...}} of {@code api/stats}: the remotes and the warm-up. */
  static void json(Json j, ClusterStatus c) {
    j.name("clusters").beginObject().name("remotes").beginArray();
    for (ClusterStatus.Remote r : c.remotes()) {
      j.beginObject()
          .field("name", r.name())
          .field("servers", r.servers())
          .field("reachable", r.reachable())
          .field("backlog", r.pending())
          .field("backlogLimit", r.backlogLimit())
          .field("oldestPendingMillis", r.oldestPendingMillis())
          .field("pendingSinceMillis", r.pendingSinceMillis())
          .field("delivered", r.delivered())
          .field("lost", r.lost())
          .field("overflows", r.overflows())
          .endObject();
    }
    j.endArray().name("warmUp");
    ClusterStatus.WarmUpProgress w = c.warmUp();
    if (w == null) {
      j.nullValue();
    } else {
      j.beginObject()
          .field("from", w.from())
          .field("active", w.active())
          .field("millisLeft", w.millisLeft())
          .field("copied", w.copied())
          .field("built", w.built())
          .field("refused", w.refused())
          .endObject();
    }
    j.endObject();
  }

  /** {@code "clusters": {"delivered": [...], "pending": [...], "lost": [...]}} of an action's answer. */
  static Json delivery(Json j, ClusterDelivery d) {
    j.name("clusters").beginObject();
    names(j.name("delivered"), d.delivered());
    names(j.name("pending"), d.pending());
    names(j.name("lost"), d.lost());
    return j.endObject();
  }

  private static void names(Json j, List<String> names) {
    j.beginArray();
    names.forEach(j::value);
    j.endArray();
  }

  /** A sentence for the flash message after an action; empty when every cluster has it. */
  static String note(ClusterDelivery d) {
    if (d.complete()) {
      return d.delivered().size() > 1 ? " Done in every cluster (" + String.join(", ", d.delivered()) + ")." : "";
    }
    String s = " Done in " + String.join(", ", d.delivered()) + ".";
    if (!d.pending().isEmpty()) {
      s += " Pending in " + String.join(", ", d.pending()) + ": unreachable now; kept in this cluster's memcached and"
          + " delivered by any server of this cluster when it answers (see Other clusters).";
    }
    if (!d.lost().isEmpty()) {
      s += " Not delivered to " + String.join(", ", d.lost()) + " (neither this cluster's memcached nor this server could"
          + " keep it): its pages stay until they expire.";
    }
    return s;
  }
}
