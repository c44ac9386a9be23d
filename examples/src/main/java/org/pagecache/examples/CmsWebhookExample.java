package org.pagecache.examples;

import org.pagecache.stats.TagInvalidation;
import org.pagecache.stats.Refresh;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import org.pagecache.PageCache;
import org.pagecache.PageCacheConfig;

/**
 * A CMS tells the site what changed, and the site tells the cache: a webhook servlet calls
 * {@code invalidateTag("article:7")} when article 7 is published, and {@code refreshHandler("article")}
 * when the article template changes. Only the pages concerned are rebuilt, each on its next request.
 *
 * <pre>
 *   POST /cms-webhook/article/{id}    X-Webhook-Secret: ...   → invalidateTag("article:{id}")
 *   POST /cms-webhook/handler/{name}  X-Webhook-Secret: ...   → refreshHandler("{name}")
 * </pre>
 * (The admin servlet's JSON API does the same with a Bearer token; a webhook of your own lets the
 * CMS speak in its terms, "article 7 changed", and keeps the mapping to tags in your code.)
 */
public final class CmsWebhookExample {
  static final String SECRET = "example-webhook-secret";

  private CmsWebhookExample() {}

  public static void main(String[] args) throws Exception {
    run(args.length > 0 ? args[0] : "127.0.0.1:11211", System.out);
  }

  /** Warms three pages, then plays the CMS's two webhooks and a forged one; returns every response. */
  public static List<Fetched> run(String memcachedServers, PrintStream out) throws Exception {
    PageCacheConfig config = PageCacheConfig.builder()
        .set("memcached.servers", memcachedServers)
        // generous: a busy laptop should show caching, not fail-open misses (the default is 200ms)
        .set("memcached.op.timeout", "1s")
        .set("namespace", Namespaces.fresh("hook"))
        .set("policies", "article: ttl=10m; section: ttl=10m")
        .ignoreEnvironment()
        .build();
    List<Fetched> fetched = new ArrayList<>();
    List<String> pages = List.of("/article/7", "/article/8", "/section/sport");
    try (ExampleServer server = new ExampleServer(config)
        .servlet("article", new TaggedPage("article"), "/article/*")
        .servlet("section", new TaggedPage("section"), "/section/*")
        .servlet("webhook", new WebhookServlet(SECRET), "/cms-webhook/*")
        .start()) {
      out.println("-- pages cached");
      for (String path : pages) {
        server.get(path);
        fetched.add(print(out, server.get(path)));
      }

      out.println("-- the CMS publishes article 7");
      fetched.add(print(out, server.post("/cms-webhook/article/7", "X-Webhook-Secret", SECRET)));
      for (String path : pages) {
        fetched.add(print(out, server.get(path)));
      }

      out.println("-- the CMS changes the article template");
      fetched.add(print(out, server.post("/cms-webhook/handler/article", "X-Webhook-Secret", SECRET)));
      for (String path : pages) {
        fetched.add(print(out, server.get(path)));
      }

      out.println("-- someone without the secret");
      fetched.add(print(out, server.post("/cms-webhook/handler/section", "X-Webhook-Secret", "guess")));
      fetched.add(print(out, server.get("/section/sport")));
    }
    return fetched;
  }

  private static Fetched print(PrintStream out, Fetched f) {
    out.println(f + (f.method().equals("POST") ? "  " + f.body().trim() : ""));
    return f;
  }

  /**
   * The webhook: checks the CMS's shared secret, then turns "article 7 changed" into a tag
   * invalidation and "the article template changed" into a handler refresh.
   */
  static final class WebhookServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;
    private final byte[] secret;

    WebhookServlet(String secret) {
      this.secret = secret.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    protected void doPost(HttpServletRequest req, HttpServletResponse res) throws IOException {
      String given = req.getHeader("X-Webhook-Secret");
      if (given == null || !MessageDigest.isEqual(secret, given.getBytes(StandardCharsets.UTF_8))) {
        reply(res, 403, "{\"error\":\"wrong X-Webhook-Secret\"}");
        return;
      }
      PageCache cache = PageCache.from(getServletContext());
      String path = req.getPathInfo() == null ? "" : req.getPathInfo();
      if (path.matches("/article/[0-9]{1,9}")) {
        TagInvalidation done = cache.invalidateTag("article:" + path.substring("/article/".length()));
        reply(res, 200, "{\"invalidated\":\"" + done.tag() + "\"}");
      } else if (path.matches("/handler/[a-z-]{1,40}")) {
        Refresh done = cache.refreshHandler(path.substring("/handler/".length()), "cms-webhook");
        reply(res, 200, "{\"refreshed\":\"" + done.handler() + "\"}");
      } else {
        reply(res, 404, "{\"error\":\"use /article/{id} or /handler/{name}\"}");
      }
    }

    private static void reply(HttpServletResponse res, int status, String json) throws IOException {
      res.setStatus(status);
      res.setContentType("application/json");
      res.getWriter().print(json);
    }
  }

  /** {@code /article/{id}}, tagged {@code article:{id}}, and {@code /section/{name}}, which shows (and is tagged with) article 7. */
  static final class TaggedPage extends HttpServlet {
    private static final long serialVersionUID = 1L;
    private final String kind;

    TaggedPage(String kind) {
      this.kind = kind;
    }

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException {
      String name = req.getPathInfo() == null ? "" : req.getPathInfo().substring(1);
      PageCache.tag(req, kind.equals("article") ? "article:" + name : "article:7");
      res.setContentType("text/html;charset=UTF-8");
      res.getWriter().print("<p>" + kind + " " + name + "</p>");
    }
  }
}
