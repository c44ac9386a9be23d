package org.pagecache.admin;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.pagecache.stats.TagInvalidation;
import org.pagecache.stats.Refresh;
import org.pagecache.stats.Eviction;
import org.pagecache.PageCache;
import org.pagecache.internal.json.Json;
import org.pagecache.internal.text.TagLists;
import org.pagecache.store.StoreException;

/**
 * Everything behind {@code org.pagecache.admin.PageCacheAdminServlet}: one request goes through
 * <pre>
 *   headers (no-store, ...) → access (role or Bearer token) → route (404/405) → CSRF for
 *   state changes not made with a Bearer token → the action → HTML, JSON or a redirect
 * </pre>
 * Refusals anywhere are {@link HttpError}s, answered as {@code {"error":"..."}} below {@code /api}
 * and as a page elsewhere. A refresh memcached did not store is a 503, never a success.
 */
final class AdminEndpoint {
  static final String NOT_CONFIGURED = "the PageCacheFilter is not configured in this web application:"
      + " register org.pagecache.PageCacheFilter (web.xml <filter> and <filter-mapping>) so the admin servlet has a cache to show";
  private static final SecureRandom RANDOM = new SecureRandom();

  private final String servletName;

  /** @param servletName the admin servlet's own name, left out of the handler list (the filter sees its requests too) */
  AdminEndpoint(String servletName) {
    this.servletName = servletName;
  }

  /** Answers one request; {@code cache} is null when no PageCacheFilter published one. */
  void handle(PageCache cache, HttpServletRequest req, HttpServletResponse res) throws IOException {
    res.setHeader("Cache-Control", "no-store");
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("Referrer-Policy", "no-referrer");
    res.setHeader("X-Frame-Options", "DENY");
    if (req.getCharacterEncoding() == null) {
      req.setCharacterEncoding("UTF-8");
    }
    String rawPath = rawPathInfo(req);
    try {
      if (cache == null) {
        throw HttpError.of(503, NOT_CONFIGURED);
      }
      Access.Caller caller = Access.check(req, cache.config().adminToken(), cache.config().adminRole());
      Routes.Route route = Routes.match(req.getMethod(), rawPath);
      if (route.endpoint().changesState() && !caller.bearer()) {
        CsrfTokens.check(req);
      }
      new Call(cache, req, res, caller).run(route);
    } catch (HttpError e) {
      refuse(req, res, Routes.isApi(rawPath), e);
    }
  }

  /** One request being answered, with what every action needs. */
  private final class Call {
    private final PageCache cache;
    private final HttpServletRequest req;
    private final HttpServletResponse res;
    private final Access.Caller caller;

    Call(PageCache cache, HttpServletRequest req, HttpServletResponse res, Access.Caller caller) {
      this.cache = cache;
      this.req = req;
      this.res = res;
      this.caller = caller;
    }

    void run(Routes.Route route) throws IOException {
      switch (route.endpoint()) {
        case PAGE -> page(takeFlash(), 200);
        case STATS -> json(200, StatsJson.stats(Snapshot.of(cache, servletName)));
        case REFRESH -> json(200, refresh(route.argument()));
        case INVALIDATE -> json(200, route.argument() != null ? StatsJson.invalidation(invalidate(route.argument()))
            : StatsJson.invalidations(invalidate(tags(), false)));
        case PURGE -> json(200, route.argument() != null ? StatsJson.invalidation(invalidate(List.of(route.argument()), true).get(0))
            : StatsJson.invalidations(invalidate(tags(), true)));
        case EVICT -> json(200, StatsJson.eviction(evict(required("url"))));
        case FORM_REFRESH -> form(() -> {
          String name = known(required("handler"));
          Refresh r = perform("refresh of handler '" + name + "'", () -> cache.refreshHandler(name, caller.name()));
          return Flash.done("Refreshed handler \u201c" + r.handler() + "\u201d: new token " + r.token()
              + ". Its pages are rebuilt on their next request; the row counts how many so far."
              + ClustersSection.note(r.clusters()), r.handler());
        });
        case FORM_INVALIDATE -> form(() -> {
          boolean hard = req.getParameter("hard") != null;
          List<TagInvalidation> done = invalidate(tags(), hard);
          TagInvalidation t = done.get(done.size() - 1);
          String names = String.join("\u201d, \u201c", done.stream().map(TagInvalidation::tag).toList());
          return Flash.done((hard ? "Purged every page tagged \u201c" + names + "\u201d: never served again, not even stale"
              : "Refreshed every page tagged \u201c" + names + "\u201d") + " (tag version " + t.version() + ")."
              + ClustersSection.note(t.clusters()), null);
        });
        case FORM_EVICT -> form(() -> {
          Eviction ev = evict(required("url"));
          return Flash.done((ev.existed() ? "Evicted " + ev.url() + " (handler " + ev.handler() + ")."
              : "No stored page for " + ev.url() + " (handler " + ev.handler() + "): nothing to evict.")
              + ClustersSection.note(ev.clusters()), ev.handler());
        });
      }
    }

    private String refresh(String name) {
      known(name);
      Refresh r = perform("refresh of handler '" + name + "'", () -> cache.refreshHandler(name, caller.name()));
      return StatsJson.refresh(r, true, caller.name(), cache.config().clock().instant());
    }

    /**
     * The name, when the cache knows it or a servlet of this application has it (handlers are
     * servlet names); a 404 otherwise, before anything is written: a script with a typo fails.
     */
    private String known(String handler) {
      boolean knows = perform("refresh of handler '" + handler + "'", () -> cache.knowsHandler(handler)); // 400 for a bad name
      if (!knows && req.getServletContext().getServletRegistration(handler) == null) {
        throw HttpError.of(404, "no handler named '" + handler + "': no policy names it, no servlet has that name"
            + " and this server has not served its pages; see the handlers on the admin page or in api/stats");
      }
      return handler;
    }

    private TagInvalidation invalidate(String tag) {
      return perform("invalidation of tag '" + tag + "'", () -> cache.invalidateTag(tag));
    }

    private List<TagInvalidation> invalidate(List<String> tags, boolean hard) {
      return perform((hard ? "purge" : "invalidation") + " of tags " + tags,
          () -> hard ? cache.purgeTags(tags) : cache.invalidateTags(tags));
    }

    /**
     * The request's {@code tag} parameters, each of which may hold several tags separated by spaces
     * or commas (no tag contains either).
     */
    private List<String> tags() {
      List<String> tags = new ArrayList<>();
      String[] values = req.getParameterValues("tag");
      for (String v : values == null ? new String[0] : values) {
        tags.addAll(TagLists.split(v));
      }
      if (tags.isEmpty()) {
        throw HttpError.of(400, "tag: missing; e.g. tag=article:42 (several: tag=article:42&tag=section:sport, or separated by spaces or commas)");
      }
      return tags;
    }

    private Eviction evict(String url) {
      return perform("eviction of " + url, () -> cache.evict(url));
    }

    /**
     * A form action: POST, redirect, GET with the message in the session. When the action fails,
     * the page is shown at once with the error and its status (nothing to repeat on reload).
     */
    private void form(Supplier<Flash> action) throws IOException {
      Flash done;
      try {
        done = action.get();
      } catch (HttpError e) {
        page(Flash.failed(e.getMessage()), e.status);
        return;
      }
      HttpSession session = req.getSession(false);
      if (session == null) {
        page(done, 200); // a Bearer caller has no session to carry the message
        return;
      }
      session.setAttribute(Flash.SESSION_ATTRIBUTE, done);
      res.setStatus(HttpServletResponse.SC_SEE_OTHER);
      res.setHeader("Location", base(req) + "/");
    }

    private Flash takeFlash() {
      HttpSession session = req.getSession(false);
      if (session == null) {
        return null;
      }
      Object flash = session.getAttribute(Flash.SESSION_ATTRIBUTE);
      session.removeAttribute(Flash.SESSION_ATTRIBUTE);
      return flash instanceof Flash f ? f : null;
    }

    private void page(Flash flash, int status) throws IOException {
      String csrf = caller.bearer() ? null : CsrfTokens.of(req);
      String nonce = nonce();
      AdminPage.View view = new AdminPage.View(base(req), caller.name(), csrf, flash, nonce, cache.config().values());
      html(res, req, status, nonce, AdminPage.render(Snapshot.of(cache, servletName), view));
    }

    private void json(int status, String body) throws IOException {
      send(res, req, status, "application/json;charset=UTF-8", body);
    }

    private String required(String param) {
      String value = req.getParameter(param);
      if (value == null || value.isEmpty()) {
        throw HttpError.of(400, param + ": missing; e.g. " + (param.equals("url")
            ? "url=https://www.example.com/article/42" : param + "=article"));
      }
      return value;
    }
  }

  /** Runs a cache operation, turning its failures into the statuses the API documents. */
  private static <T> T perform(String what, Supplier<T> op) {
    try {
      return op.get();
    } catch (IllegalArgumentException e) {
      throw HttpError.of(400, e.getMessage());
    } catch (StoreException e) {
      throw HttpError.of(503, what + " could not be saved: memcached is unreachable (" + e.getMessage()
          + "); nothing is refreshed, try again when memcached is back");
    } catch (IllegalStateException e) {
      // Versions.raise gave up (compare-and-set lost every round, or interrupted): nothing was written.
      throw HttpError.of(503, what + " could not be saved (" + e.getMessage() + "); nothing is refreshed, try again");
    }
  }

  private static void refuse(HttpServletRequest req, HttpServletResponse res, boolean api, HttpError e) throws IOException {
    if (e.allow != null) {
      res.setHeader("Allow", e.allow);
    }
    if (e.status == 401) {
      res.setHeader("WWW-Authenticate", "Bearer realm=\"PageCache admin\"");
    }
    if (api) {
      send(res, req, e.status, "application/json;charset=UTF-8", Json.error(e.getMessage()));
    } else {
      String nonce = nonce();
      html(res, req, e.status, nonce, AdminPage.message(e.status, e.getMessage(), base(req), nonce));
    }
  }

  private static void html(HttpServletResponse res, HttpServletRequest req, int status, String nonce, String body)
      throws IOException {
    res.setHeader("Content-Security-Policy", "default-src 'none'; style-src 'nonce-" + nonce + "'; script-src 'nonce-"
        + nonce + "'; connect-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'");
    send(res, req, status, "text/html;charset=UTF-8", body);
  }

  private static void send(HttpServletResponse res, HttpServletRequest req, int status, String type, String body)
      throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    res.setStatus(status);
    res.setContentType(type);
    res.setContentLength(bytes.length);
    if (!req.getMethod().equals("HEAD")) {
      res.getOutputStream().write(bytes);
    }
  }

  private static String nonce() {
    byte[] bytes = new byte[16];
    RANDOM.nextBytes(bytes);
    return Base64.getEncoder().encodeToString(bytes);
  }

  /** The servlet's own path, e.g. {@code /shop/cache-admin}: forms, links and redirects start from it. */
  static String base(HttpServletRequest req) {
    return req.getContextPath() + req.getServletPath();
  }

  /**
   * The path below the servlet's, still percent-encoded (so an encoded slash in a tag stays inside
   * its segment), without path parameters such as {@code ;jsessionid=}.
   */
  static String rawPathInfo(HttpServletRequest req) {
    String uri = req.getRequestURI().replaceAll(";[^/]*", "");
    String prefix = base(req);
    if (uri.startsWith(prefix)) {
      return uri.substring(prefix.length());
    }
    String info = req.getPathInfo(); // a servlet path with encoded characters: fall back to the decoded form
    return info == null ? "" : info;
  }
}
