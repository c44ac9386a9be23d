package org.pagecache.examples;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.pagecache.PageCache;
import org.pagecache.PageCacheConfig;

/**
 * Two handlers with their own policies, and tags. Article pages are fresh for 10 minutes, the
 * front page (a list of articles) for 2 seconds. Each page tags itself with the articles it shows,
 * so {@code invalidateTag("article:1")} after an edit rebuilds exactly the pages showing article 1.
 *
 * <pre>
 *   policies = article: ttl=10m, grace=1h; front: ttl=2s, grace=1m
 *
 *   -- first visits, then again from the cache
 *   GET  /article/1 → MISS, /article/2 → MISS, /front → MISS, then HIT, HIT, HIT
 *   -- article 1 edited; invalidateTag("article:1")
 *   GET  /article/1 → STALE, /front → STALE (the previous page at once, rebuilt in the background), /article/2 → HIT
 *   -- once the background rebuilds are done
 *   GET  /article/1 → HIT (new title), /front → HIT (new title)
 *   -- 2 s later: the front page's TTL is over, the articles' is not
 *   GET  /front → STALE (rebuilt in the background), /article/2 → HIT
 * </pre>
 */
public final class PoliciesAndTagsExample {
  static final String POLICIES = "article: ttl=10m, grace=1h; front: ttl=2s, grace=1m";

  private PoliciesAndTagsExample() {}

  public static void main(String[] args) throws Exception {
    run(args.length > 0 ? args[0] : "127.0.0.1:11211", System.out);
  }

  /** Runs the three steps above (about 3 s); returns every response in order. */
  public static List<Fetched> run(String memcachedServers, PrintStream out) throws Exception {
    Map<Integer, String> titles = new ConcurrentHashMap<>(Map.of(1, "Harbour opens", 2, "Trains return", 3, "Otters are back"));
    PageCacheConfig config = PageCacheConfig.builder()
        .set("memcached.servers", memcachedServers)
        // generous: a busy laptop should show caching, not fail-open misses (the default is 200ms)
        .set("memcached.op.timeout", "1s")
        .set("namespace", Namespaces.fresh("tags"))
        .set("policies", POLICIES)
        .ignoreEnvironment()
        .build();
    List<Fetched> fetched = new ArrayList<>();
    try (ExampleServer server = new ExampleServer(config)
        .servlet("article", new ArticleServlet(titles), "/article/*")
        .servlet("front", new FrontServlet(titles), "/front")
        .start()) {
      out.println("policies = " + POLICIES);
      out.println("-- first visits, then again from the cache");
      for (String path : List.of("/article/1", "/article/2", "/front", "/article/1", "/article/2", "/front")) {
        fetched.add(print(out, server.get(path)));
      }

      out.println("-- article 1 edited; invalidateTag(\"article:1\")");
      titles.put(1, "Harbour opens a floating library");
      server.pageCache().invalidateTag("article:1");
      for (String path : List.of("/article/1", "/front", "/article/2")) {
        fetched.add(print(out, server.get(path)));
      }

      out.println("-- once the background rebuilds are done");
      awaitRebuilds(server, 2);
      for (String path : List.of("/article/1", "/front")) {
        fetched.add(print(out, server.get(path)));
      }

      out.println("-- 2 s later: the front page's TTL is over, the articles' is not");
      Thread.sleep(2_100);
      for (String path : List.of("/front", "/article/2")) {
        fetched.add(print(out, server.get(path)));
      }
    }
    return fetched;
  }

  /**
   * Waits (at most 10 s) until {@code count} background rebuilds have ended: an invalidation made
   * outside a request (a CMS job, this program) leaves the previous page served while one request
   * per page rebuilds it off the visitor's connection (docs/freshness.md).
   */
  private static void awaitRebuilds(ExampleServer server, long count) throws InterruptedException {
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (System.nanoTime() < deadline) {
      long done = server.pageCache().inspect().stats("article").backgroundRebuilds()
          + server.pageCache().inspect().stats("front").backgroundRebuilds();
      if (done >= count) {
        return;
      }
      Thread.sleep(20);
    }
    throw new IllegalStateException("the background rebuilds did not end within 10 s");
  }

  private static Fetched print(PrintStream out, Fetched f) {
    out.println(f + "  " + f.body().replaceAll("<[^>]+>", " ").trim());
    return f;
  }

  /** {@code /article/{id}}: one article, tagged {@code article:{id}}. */
  static final class ArticleServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;
    private final transient Map<Integer, String> titles;

    ArticleServlet(Map<Integer, String> titles) {
      this.titles = titles;
    }

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException {
      String id = req.getPathInfo() == null ? "" : req.getPathInfo().substring(1);
      String title = id.matches("[0-9]{1,3}") ? titles.get(Integer.parseInt(id)) : null;
      if (title == null) {
        res.sendError(404);
        return;
      }
      PageCache.tag(req, "article:" + id);
      res.setContentType("text/html;charset=UTF-8");
      res.getWriter().print("<h1>" + title + "</h1>");
    }
  }

  /** {@code /front}: every article's title, tagged with each of them. */
  static final class FrontServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;
    private final transient Map<Integer, String> titles;

    FrontServlet(Map<Integer, String> titles) {
      this.titles = titles;
    }

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException {
      StringBuilder html = new StringBuilder("<ul>");
      titles.keySet().stream().sorted().forEach(id -> {
        PageCache.tag(req, "article:" + id);
        html.append("<li>").append(titles.get(id)).append("</li>");
      });
      res.setContentType("text/html;charset=UTF-8");
      res.getWriter().print(html.append("</ul>"));
    }
  }
}
