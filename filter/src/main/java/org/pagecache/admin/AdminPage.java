package org.pagecache.admin;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.pagecache.stats.NearStats;
import org.pagecache.internal.html.Html;

/**
 * The admin page: server-rendered HTML that works without JavaScript (every action is a plain
 * POST form), plus one small inline script that keeps the counters and traces live. No external
 * asset: styles and the slab chart are inline, so the page works offline and under a strict CSP.
 * Everything that comes from outside (names, tags, URLs, messages, memcached stats) is escaped.
 */
final class AdminPage {
  /** What the page needs besides the snapshot. {@code csrf} is null for Bearer callers (no session). */
  record View(String base, String user, String csrf, Flash flash, String nonce, Map<String, String> config) {}

  private final Snapshot s;
  private final View v;
  private final StringBuilder out = new StringBuilder(16 * 1024);

  private AdminPage(Snapshot s, View v) {
    this.s = s;
    this.v = v;
  }

  static String render(Snapshot s, View v) {
    return new AdminPage(s, v).page();
  }

  /** A page with only a message, for errors (access, CSRF, unknown route). */
  static String message(int status, String text, String base, String nonce) {
    return "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>PageCache admin: " + status
        + "</title><style nonce=\"" + nonce + "\">" + PageAssets.CSS + "</style></head><body><h1>PageCache admin</h1>"
        + "<p class=\"flash error\" role=\"alert\">" + Html.escape(text) + "</p><p><a href=\"" + Html.escape(base)
        + "/\">Back to the admin page</a></p></body></html>";
  }

  private String page() {
    out.append("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">")
        .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">");
    if (v.csrf != null) {
      out.append("<meta name=\"csrf-token\" content=\"").append(e(v.csrf)).append("\">");
    }
    out.append("<title>PageCache admin</title><style nonce=\"").append(v.nonce).append("\">").append(PageAssets.CSS)
        .append("</style></head><body data-base=\"").append(e(v.base)).append("\">");
    header();
    flash();
    handlers();
    out.append(SiteSection.html(s));
    evidence();
    signedIn();
    tools();
    trace();
    cluster();
    near();
    out.append(ClustersSection.html(s.clusters())); // issue 19: other clusters' backlogs, warm-up progress
    config();
    out.append("<script nonce=\"").append(v.nonce).append("\">").append(PageAssets.SCRIPT).append("</script>");
    return out.append("</body></html>").toString();
  }

  private void header() {
    out.append("<header><h1>PageCache</h1><p class=\"meta\">Signed in as <b>").append(e(v.user))
        .append("</b> · store <code>").append(e(s.store())).append("</code> · ")
        .append(e(Display.time(s.now().toEpochMilli()))).append(" · <a href=\"").append(e(v.base))
        .append("/\">Reload</a></p></header>");
    if (s.storeDown()) {
      out.append("<p class=\"flash error\" role=\"alert\">memcached is unreachable: pages are served by their"
          + " handlers, and refreshes cannot be saved until it is back.</p>");
    }
  }

  private void flash() {
    if (v.flash != null) {
      out.append("<p class=\"flash ").append(v.flash.error() ? "error\" role=\"alert\"" : "ok\" role=\"status\"")
          .append(" id=\"flash\">").append(e(v.flash.text())).append("</p>");
    }
  }

  private void handlers() {
    out.append("<section id=\"handlers\"><h2>Handlers</h2><p class=\"hint\">Press <b>Refresh</b> after changing content:"
        + " every page of that handler is rebuilt on its next request (visitors get the previous page meanwhile)."
        + " Counters are this server's since it started; the whole site's are <a href=\"#cluster\">below</a>.</p>");
    if (s.handlers().isEmpty()) {
      out.append("<p>No handler yet: configure <code>policies</code> or open a page of the site.</p></section>");
      return;
    }
    out.append("<div class=\"scroll\"><table class=\"handlers\"><thead><tr><th>Handler</th><th></th>"
        + "<th>Last refresh</th><th class=\"n\">Hits</th><th class=\"n\">Stale served</th><th class=\"n\">Misses</th>"
        + "<th class=\"n\">Rebuilds</th><th class=\"n\">Lock waits</th><th class=\"n\">Bypasses</th>"
        + "<th class=\"n\">Store errors</th><th class=\"n\">Hit ratio</th><th>Policy</th></tr></thead><tbody>");
    List<Snapshot.HandlerRow> neverCached = new ArrayList<>();
    for (Snapshot.HandlerRow h : s.handlers()) {
      if (h.neverCached()) { // enabled=false: nothing to refresh
        neverCached.add(h);
        continue;
      }
      boolean just = v.flash != null && !v.flash.error() && h.name().equals(v.flash.handler());
      out.append("<tr data-h=\"").append(e(h.name())).append('"').append(just ? " class=\"just\"" : "").append('>')
          .append("<th scope=\"row\" class=\"name\">").append(e(h.name())).append("</th><td>");
      form("refresh", "handler", h.name(), "Refresh", "Rebuild every page of " + h.name());
      out.append("</td><td class=\"refresh\">");
      lastRefresh(h);
      out.append("</td>");
      count(h.hits(), "hits");
      count(h.stale(), "stale");
      count(h.misses(), "misses");
      count(h.rebuilds(), "rebuilds");
      count(h.lockWaits(), "lockWaits");
      count(h.bypasses(), "bypasses");
      count(h.storeErrors(), "storeErrors");
      out.append("<td class=\"n\" data-f=\"hitRatio\">").append(h.counted() ? Display.percent(h.hitRatio()) : "–")
          .append("</td><td><code class=\"policy\">").append(breakable(h.policy())).append("</code>");
      policyNotes(h);
      out.append("</td></tr>");
    }
    out.append("</tbody></table></div>");
    if (!neverCached.isEmpty()) {
      out.append("<p class=\"hint\" id=\"never-cached\">Never cached (<code>enabled=false</code> in their policy): ");
      for (int i = 0; i < neverCached.size(); i++) {
        Snapshot.HandlerRow h = neverCached.get(i);
        out.append(i == 0 ? "" : ", ").append("<b data-h=\"").append(e(h.name())).append("\">").append(e(h.name()))
            .append("</b>");
      }
      out.append(".</p>");
    }
    out.append("</section>");
  }

  /**
   * What an operator must know on the handler's own row: its builds read request headers its key
   * does not hold (its pages are shared across their values: a mobile page may reach desktops),
   * with the policy item that fixes it; and that its policy sets the application's caching headers
   * aside ({@code origin-cache-headers=ignore}, docs/safety.md).
   */
  private void policyNotes(Snapshot.HandlerRow h) {
    if (h.backgroundRebuilds() + h.backgroundSkipped() + h.backgroundFailures() > 0) {
      out.append("<p class=\"note\" data-note=\"background\">Stale pages rebuilt in the background: ")
          .append(Display.count(h.backgroundRebuilds())).append(" (").append(Display.count(h.backgroundSkipped()))
          .append(" skipped, all builds under way and as many waiting; ").append(Display.count(h.backgroundFailures()))
          .append(" failed; ").append(Display.count(h.backgroundNotStored()))
          .append(" built but not stored, memcached failing).</p>");
    }
    if (!h.unkeyedHeaders().isEmpty()) {
      out.append("<p class=\"note warn\" data-note=\"unkeyed-headers\">Its pages read ");
      int i = 0;
      for (String name : h.unkeyedHeaders().keySet()) {
        out.append(i++ == 0 ? "" : ", ").append("<code>").append(e(name)).append("</code>");
      }
      out.append(", not in the key: one page is shared across their values. If they change the page, add <code>")
          .append(breakable(h.varyFix())).append("</code>")
          .append(h.varyHeadersFix() == null ? "" : " (one page per class of visitors; <code>"
              + breakable(h.varyHeadersFix()) + "</code> would make one per value)")
          .append("; if they never do, <code>").append(breakable(h.harmlessFix())).append("</code>.</p>");
    }
    if (!h.keyedOn().equals("all") || h.parametersLeftOut() > 0) {
      out.append("<p class=\"note\" data-note=\"parameters\">Query keyed on: <code>").append(e(h.keyedOn()))
          .append("</code>; requests with parameters left out of the key: ").append(Display.count(h.parametersLeftOut()))
          .append(".</p>");
    }
    if (h.originHeadersIgnored()) {
      out.append("<p class=\"note\" data-note=\"origin-cache-headers\">Ignores the application's <code>Expires</code>,"
          + " <code>Cache-Control</code> and <code>Pragma</code>: the policy's ttl decides (<code>Set-Cookie</code>,"
          + " <code>private</code> and <code>no-store</code> still refuse).</p>");
    }
  }

  /**
   * What each handler's pages depend on, as this server observed it: the cookies that made requests
   * bypass (names only) and whether the handler read any cookie in them, and the request headers it
   * read while building a page that are not part of the page's key. An operator opens the cache up
   * from this evidence: ignore a cookie never read, vary on a header that changes the page.
   */
  private void evidence() {
    List<Snapshot.HandlerRow> rows = s.handlers().stream().filter(Snapshot.HandlerRow::hasEvidence).toList();
    if (rows.isEmpty()) {
      return;
    }
    out.append("<section id=\"evidence\"><h2>What pages depend on</h2><p class=\"hint\">Cookies and sessions that made"
        + " requests bypass the cache (or builds not be shared), and request headers a handler read while building a page that are not part of its key."
        + " A cookie never read by its handler can go on <code>cookies.ignore</code>; a header that changes the page"
        + " belongs in the policy's <code>vary=</code>, one that does not in its <code>harmless=</code>."
        + " A tracking parameter (<code>utm_source</code>, <code>fbclid</code>...) a handler read is part of its keys since"
        + " (<code>params.keep</code> makes it so from the start).</p>")
        .append("<div class=\"scroll\"><table class=\"evidence\"><thead><tr><th>Handler</th><th>Input</th>"
            + "<th class=\"n\">Requests</th><th>Read by the handler</th></tr></thead><tbody>");
    for (Snapshot.HandlerRow h : rows) {
      h.bypassCookies().forEach((name, c) -> evidenceRow(h.name(), "cookie <code>" + e(name) + "</code>",
          Display.count(c[0]) + " bypassed", c[1] == 0 ? "never" : "a cookie was read in " + Display.count(c[1])));
      h.unkeyedHeaders().forEach((name, n) -> evidenceRow(h.name(), "header <code>" + e(name) + "</code>, not in the key",
          Display.count(n) + " built", "read while building"));
      h.keyedParameters().forEach((name, n) -> evidenceRow(h.name(), "query parameter <code>" + e(name)
          + "</code> (tracking list), now in the key", Display.count(n) + " not stored", "read while building"));
      h.sessionBypasses().forEach((cause, n) -> evidenceRow(h.name(), "session: <code>" + e(cause) + "</code>",
          Display.count(n) + " not shared", SessionCauses.explain(cause)));
    }
    out.append("</tbody></table></div></section>");
  }

  /**
   * Signed-in visitors and fragments (docs/fragments.md): per handler, the signed-in visitors' hit
   * ratio apart from the anonymous one, and the fragments filled in with their renderers' time.
   */
  private void signedIn() {
    List<Snapshot.HandlerRow> rows = s.handlers().stream().filter(Snapshot.HandlerRow::personal).toList();
    if (rows.isEmpty()) {
      return;
    }
    out.append("<section id=\"signed-in\"><h2>Signed-in visitors and fragments</h2><p class=\"hint\">Signed-in"
        + " visitors served from the cache under <code>signed-in=</code> policies, apart from the anonymous ones, and the"
        + " personal parts (fragments) filled in on every serve. A build of a group that read something personal is"
        + " listed under \"What pages depend on\".</p>")
        .append("<div class=\"scroll\"><table class=\"signed-in\"><thead><tr><th>Handler</th>"
            + "<th class=\"n\">Signed-in requests</th><th class=\"n\">Signed-in hit ratio</th>"
            + "<th class=\"n\">Anonymous hit ratio</th><th class=\"n\">Fragments filled</th>"
            + "<th class=\"n\">Render time per fragment</th><th class=\"n\">Empty parts</th></tr></thead><tbody>");
    for (Snapshot.HandlerRow h : rows) {
      out.append("<tr data-h=\"").append(e(h.name())).append("\"><th scope=\"row\">").append(e(h.name()))
          .append("</th><td class=\"n\">").append(Display.count(h.signedInRequests()))
          .append("</td><td class=\"n\">").append(h.signedInRequests() > 0 ? Display.percent(h.signedInHitRatio()) : "–")
          .append("</td><td class=\"n\">").append(h.counted() ? Display.percent(h.anonymousHitRatio()) : "–")
          .append("</td><td class=\"n\">").append(Display.count(h.fragments()))
          .append("</td><td class=\"n\">").append(h.fragments() > 0
              ? String.format(java.util.Locale.ROOT, "%.1f µs", h.fragmentNanos() / 1000.0 / h.fragments()) : "–")
          .append("</td><td class=\"n\">").append(Display.count(h.fragmentFailures())).append("</td></tr>");
    }
    out.append("</tbody></table></div></section>");
  }

  private void evidenceRow(String handler, String inputHtml, String requests, String read) {
    out.append("<tr data-h=\"").append(e(handler)).append("\"><th scope=\"row\">").append(e(handler))
        .append("</th><td>").append(inputHtml).append("</td><td class=\"n\">").append(requests)
        .append("</td><td>").append(read).append("</td></tr>");
  }

  /** {@code <time>12:00:05 UTC</time> (3 min ago)}. */
  private void timeAndAgo(long millis) {
    out.append("<time datetime=\"").append(Instant.ofEpochMilli(millis)).append("\">")
        .append(e(Display.time(millis))).append("</time> (").append(e(Display.ago(millis, s.now()))).append(')');
  }

  private void lastRefresh(Snapshot.HandlerRow h) {
    if (h.refreshedElsewhereSince()) { // the token is the time of the refresh
      timeAndAgo(h.storedToken());
      out.append("<br><span class=\"muted\">from another server, or before this one started; token ")
          .append(h.storedToken()).append("</span>");
      return;
    }
    if (!h.refreshed()) {
      out.append("<span class=\"muted\">not since this server started</span>");
      return;
    }
    timeAndAgo(h.lastRefreshMillis());
    out.append(" by <b>").append(e(h.lastRefreshBy())).append("</b><br><span class=\"muted\">token ")
        .append(h.lastToken()).append("</span><br>pages rebuilt since: <b data-f=\"rebuiltSinceRefresh\">").append(h.rebuiltSinceRefresh())
        .append("</b>");
  }

  private void count(long n, String field) {
    out.append("<td class=\"n\" data-f=\"").append(field).append("\">").append(Display.count(n)).append("</td>");
  }

  /** A one-button POST form carrying the CSRF token and one hidden value. */
  private void form(String action, String name, String value, String label, String title) {
    formStart(action);
    out.append("<input type=\"hidden\" name=\"").append(name).append("\" value=\"").append(e(value)).append("\">")
        .append("<button type=\"submit\" title=\"").append(e(title)).append("\">").append(label).append("</button></form>");
  }

  private void formStart(String action) {
    out.append("<form method=\"post\" action=\"").append(e(v.base)).append('/').append(action).append("\">");
    if (v.csrf != null) {
      out.append("<input type=\"hidden\" name=\"").append(CsrfTokens.FIELD).append("\" value=\"").append(e(v.csrf)).append("\">");
    }
  }

  private void tools() {
    out.append("<section id=\"tools\" class=\"tools\"><div><h2>Refresh by tag</h2><p class=\"hint\">Every page tagged"
        + " with them, whatever its handler (e.g. <code>article:42</code> after editing article 42; several separated by"
        + " spaces). A hard purge (a takedown) never serves those pages again, not even stale.</p>");
    formStart("invalidate");
    out.append("<label>Tags <input name=\"tag\" required maxlength=\"2000\" placeholder=\"article:42\"></label> ")
        .append("<label><input type=\"checkbox\" name=\"hard\" value=\"on\"> hard purge</label> ")
        .append("<button type=\"submit\">Refresh tags</button></form></div>");
    out.append("<div><h2>Evict one page</h2><p class=\"hint\">Removes one stored page, given its full address.</p>");
    formStart("evict");
    out.append("<label>URL <input name=\"url\" type=\"url\" required placeholder=\"https://www.example.com/article/42\"></label> ")
        .append("<button type=\"submit\">Evict</button></form></div></section>");
  }

  private void trace() {
    out.append("<section id=\"trace\"><h2>Live trace</h2><p class=\"hint\">The last requests of each handler, oldest first. ");
    for (String[] l : PageAssets.LEGEND) {
      out.append("<span class=\"t t").append(l[0]).append("\">").append(l[0]).append("</span> ").append(l[1]).append(' ');
    }
    out.append("</p><p class=\"js\" hidden><label><input type=\"checkbox\" id=\"live\" checked> update every 2 s</label></p>")
        .append("<table class=\"traces\"><tbody>");
    for (Snapshot.HandlerRow h : s.handlers()) {
      out.append("<tr data-h=\"").append(e(h.name())).append("\"><th scope=\"row\">").append(e(h.name()))
          .append("</th><td><code class=\"trace\" data-f=\"trace\">");
      for (char c : h.trace().toCharArray()) {
        out.append("<span class=\"t").append(Character.isLetter(c) ? c : '_').append("\">").append(e(String.valueOf(c))).append("</span>");
      }
      out.append("</code></td></tr>");
    }
    out.append("</tbody></table></section>");
  }

  private void cluster() {
    out.append("<section id=\"memcached\"><h2>memcached</h2><div class=\"scroll\"><table><thead><tr><th>Server</th>"
        + "<th>Pool</th><th>Status</th><th class=\"n\">Uptime</th><th>Version</th><th class=\"n\">Items</th><th class=\"n\">Memory used</th>"
        + "<th class=\"n\">Get hit ratio</th><th class=\"n\">Evictions</th><th class=\"n\">Flushes</th></tr></thead><tbody>");
    for (Snapshot.ServerRow r : s.servers()) {
      out.append("<tr><th scope=\"row\"><code>").append(e(r.address())).append("</code></th><td>")
          .append(e(r.pool())).append("</td><td>")
          .append(r.up() ? "<span class=\"up\">up</span>" : "<span class=\"down\">down</span>").append("</td><td class=\"n\">")
          .append(r.uptimeSeconds() == null ? "–" : e(Display.duration(r.uptimeSeconds()))).append("</td><td>")
          .append(r.version() == null ? "–" : e(r.version())).append("</td><td class=\"n\">").append(Display.count(r.currItems()))
          .append("</td><td class=\"n\">").append(memory(r)).append("</td><td class=\"n\">")
          .append(r.getHitRatio() == null ? "–" : Display.percent(r.getHitRatio())).append("</td><td class=\"n\">")
          .append(Display.count(r.evictions())).append("</td><td class=\"n\">").append(Display.count(r.cmdFlush()))
          .append("</td></tr>");
    }
    out.append("</tbody></table></div>");
    for (Snapshot.ServerRow r : s.servers()) {
      if (!r.up()) {
        continue;
      }
      out.append("<h3>Memory per slab class: <code>").append(e(r.address())).append("</code></h3>");
      if (r.slabs().isEmpty()) {
        out.append("<p class=\"muted\">No slab class in use yet (or not reported by this store).</p>");
      } else {
        out.append("<figure>").append(SlabChart.svg(r.address(), r.slabs()))
            .append("<figcaption><span class=\"key alloc\"></span> assigned to the class"
                + " <span class=\"key used\"></span> holding items; hover a bar for figures</figcaption></figure>");
      }
    }
    out.append("</section>");
  }

  private String memory(Snapshot.ServerRow r) {
    if (r.bytes() == null) {
      return "–";
    }
    String used = Display.bytes(r.bytes());
    if (r.limitMaxbytes() == null || r.limitMaxbytes() == 0) {
      return e(used);
    }
    return e(used + " of " + Display.bytes(r.limitMaxbytes()) + " (" + Display.percent((double) r.bytes() / r.limitMaxbytes()) + ")");
  }

  /** This JVM's near cache: the memory it takes and how many requests it answered without memcached. */
  private void near() {
    NearStats n = s.near();
    out.append("<section id=\"near\"><h2>Near cache (this server)</h2>");
    if (!n.enabled()) {
      out.append("<p class=\"muted\">Off (<code>near.size</code> or <code>near.trust</code> is 0): every hit asks memcached.</p></section>");
      return;
    }
    out.append("<p class=\"hint\">Pages this server served recently, held in its memory and trusted for ")
        .append(e(n.trustMillis() % 1000 == 0 ? n.trustMillis() / 1000 + " s" : n.trustMillis() + " ms")).append(" after memcached last confirmed them.")
        .append(" Its size, ").append(e(Display.bytes(n.maxBytes()))).append(": ").append(e(n.sizedBy())).append(".</p>")
        .append("<table><thead><tr><th class=\"n\">Pages</th><th class=\"n\">Memory</th><th class=\"n\">Hits</th>"
            + "<th class=\"n\">Asked memcached</th><th class=\"n\">Hit ratio</th></tr></thead><tbody><tr><td class=\"n\">")
        .append(Display.count(n.entries())).append("</td><td class=\"n\">")
        .append(e(Display.bytes(n.bytes()) + " of " + Display.bytes(n.maxBytes()))).append("</td><td class=\"n\">")
        .append(Display.count(n.hits())).append("</td><td class=\"n\">").append(Display.count(n.misses()))
        .append("</td><td class=\"n\">").append(n.hitRatio() < 0 ? "–" : Display.percent(n.hitRatio()))
        .append("</td></tr></tbody></table></section>");
  }

  private void config() {
    out.append("<section id=\"config\"><details><summary>Configuration</summary><table><tbody>");
    for (Map.Entry<String, String> c : v.config.entrySet()) {
      out.append("<tr><th scope=\"row\"><code>").append(e(c.getKey())).append("</code></th><td><code>")
          .append(e(c.getValue())).append("</code></td></tr>");
    }
    out.append("</tbody></table></details></section>");
  }

  /** Escaped, with line-break opportunities after each {@code |} of a list such as {@code statuses=}. */
  private static String breakable(String policy) {
    return e(policy).replace("|", "|<wbr>");
  }

  private static String e(String s) {
    return Html.escape(s);
  }
}
