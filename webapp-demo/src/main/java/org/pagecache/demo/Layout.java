package org.pagecache.demo;

import jakarta.servlet.http.HttpServletRequest;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import org.pagecache.PageCache;

/**
 * The frame of every HTML page: navigation, content, and a footer that tells honestly whether the
 * page came from the cache.
 *
 * <p>The body of a cached page is the one built on the miss, so it can only say when it was built
 * and how many CMS calls the site had made by then. A small script adds what only the browser
 * knows: when the page reached it (the gap to the build time is the page's age: seconds mean the
 * cache served it) and the CMS call count now, read from {@code /cms/stats}, which is never cached.
 * It does not send a HEAD for the same URL: that would be one more request, and one more view.
 * The response's own {@code X-Cache} header is in the browser's developer tools or {@code curl -I}.
 */
final class Layout {
  private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss 'UTC'", Locale.ROOT)
      .withZone(ZoneOffset.UTC);
  static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("d MMM yyyy, HH:mm 'UTC'", Locale.ENGLISH)
      .withZone(ZoneOffset.UTC);

  private static final String STYLE = """
      body{font-family:system-ui,sans-serif;max-width:52rem;margin:0 auto;padding:0 1rem;color:#222;line-height:1.5}
      header{display:flex;gap:1rem;align-items:baseline;border-bottom:2px solid #222;padding:.6rem 0;flex-wrap:wrap}
      header .brand{font-weight:700;font-size:1.3rem;text-decoration:none;color:#222}
      nav a{margin-right:.8rem}
      .who{margin-left:auto;font-size:.85rem} .who form{display:inline}
      .tools{font-size:.85rem}
      .meta{color:#666;font-size:.85rem}
      ul.articles{list-style:none;padding:0} ul.articles li{margin:.7rem 0}
      footer{margin:2rem 0;padding-top:.6rem;border-top:1px solid #ccc;font-size:.85rem;color:#444}
      .served,#pc-live{display:block;margin-top:.3rem}
      .notice{background:#eef6ee;border:1px solid #9c9;padding:.5rem .8rem}
      .error{background:#fbeeee;border:1px solid #c99;padding:.5rem .8rem}
      textarea,input[type=text]{width:100%;box-sizing:border-box;font:inherit}
      """;

  /** Adds the CMS calls as they are now (the page may be older than the count it was built with). */
  private static final String SCRIPT = """
      (function () {
        var footer = document.getElementById('pc-footer');
        var live = document.getElementById('pc-live');
        fetch(footer.getAttribute('data-stats'), {cache: 'no-store'})
            .then(function (r) { return r.json(); })
            .then(function (s) { live.textContent = 'CMS calls now: ' + s.total + '.'; })
            .catch(function () {});
      })();
      """;

  /** The header's fragment: "Signed in as NAME" with a sign-out button, or a sign-in link. */
  static final String GREETING = "greeting";

  private Layout() {}

  /**
   * The greeting of the visitor of {@code req}, rendered on every serve (registered by
   * {@link DemoSite}). Reads the principal and the session: it is the visitor's own part.
   */
  static String greeting(HttpServletRequest req) {
    String ctx = Html.escape(req.getContextPath());
    if (req.getUserPrincipal() == null) {
      return "<a href=\"" + ctx + "/signin\">Sign in</a>";
    }
    String signOut = req.isUserInRole(Readers.ROLE)
        ? " <form class=\"signout\" method=\"post\" action=\"" + ctx + "/signout\"><input type=\"hidden\" name=\""
            + CsrfToken.FIELD + "\" value=\"" + CsrfToken.of(req.getSession(true)) + "\"><button>Sign out</button></form>"
        : "";
    return "Signed in as <b>" + Html.escape(req.getUserPrincipal().getName()) + "</b>" + signOut;
  }

  /** What the footer says about how the page was built. */
  record Build(String handler, Instant builtAt, long buildMillis, long cmsCallsSoFar, Long invalidatedAgoMillis) {}

  static Build build(HttpServletRequest req, String handler, long startNanos, Cms cms) {
    Object ago = req.getAttribute(PageCache.INVALIDATED_AGO_ATTRIBUTE);
    return new Build(handler, Instant.now(), (System.nanoTime() - startNanos) / 1_000_000,
        cms.calls().total(), ago instanceof Long l ? l : null);
  }

  static String page(HttpServletRequest req, String title, String content, Build build) {
    String ctx = Html.escape(req.getContextPath());
    StringBuilder nav = new StringBuilder();
    for (Section s : Section.values()) {
      nav.append("<a href=\"").append(ctx).append("/section/").append(s.slug()).append("\">")
          .append(s.title()).append("</a>");
    }
    return "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
        + "<title>" + Html.escape(title) + " · PageCache News</title><style>" + STYLE + "</style></head><body>\n"
        + "<header><a class=\"brand\" href=\"" + ctx + "/\">PageCache News</a><nav>" + nav + "</nav>"
        // who is reading: filled in for each reader on every serve; the stored page keeps the placeholder
        + "<span class=\"who\">" + PageCache.fragment(GREETING) + "</span>"
        + "<span class=\"tools\"><a href=\"" + ctx + "/cms/\">Editor</a> · <a href=\"" + ctx + "/cache-admin/\">Cache admin</a>"
        + " · <a href=\"" + ctx + "/cms/stats\">CMS stats</a></span></header>\n"
        + "<main>\n" + content + "\n</main>\n"
        + footer(ctx, build)
        + "</body></html>\n";
  }

  private static String footer(String ctx, Build b) {
    String rebuilt = b.invalidatedAgoMillis() == null ? ""
        : " Rebuilt " + b.invalidatedAgoMillis() + " ms after an editor's change or a Refresh.";
    return "<footer id=\"pc-footer\" data-built-at=\"" + b.builtAt().toEpochMilli() + "\" data-stats=\"" + ctx
        + "/cms/stats\">Built by handler <b>" + Html.escape(b.handler()) + "</b> at <time datetime=\""
        + b.builtAt() + "\">" + TIME.format(b.builtAt()) + "</time> in " + b.buildMillis() + " ms."
        + " CMS calls when it was built: " + b.cmsCallsSoFar() + "." + rebuilt
        // filled in by the PageCache filter each time it sends the page, hit or not
        + "<span class=\"served\">This copy was served as <b id=\"pc-served\"><!--pagecache:cache--></b>"
        + " (HIT: from memcached, without calling the CMS; MISS: built for this request; STALE: the"
        + " previous copy, while one request rebuilds it; BYPASS: not cached).</span>"
        + "<span id=\"pc-live\"></span></footer>\n<script>" + SCRIPT + "</script>\n";
  }
}
