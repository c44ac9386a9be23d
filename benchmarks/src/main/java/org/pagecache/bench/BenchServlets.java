package org.pagecache.bench;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicLong;
import org.pagecache.internal.capture.BodyEncoding;
import org.pagecache.store.MemcachedStore;
import org.pagecache.store.Store;

/**
 * The two servlets every benchmark compares PageCache with: the backend it protects (a handler of
 * fixed cost) and the limit (the same bytes written straight from memory, which is as fast as any
 * cache inside this container can ever be).
 */
final class BenchServlets {
  private BenchServlets() {}

  /** {@code count} distinct HTML pages of {@code bytes} each, identity and gzip, addressed {@code .../<index>}. */
  static final class Pages {
    final byte[][] identity;
    final byte[][] gzip;

    Pages(int count, int bytes) {
      identity = new byte[count][];
      gzip = new byte[count][];
      for (int i = 0; i < count; i++) {
        identity[i] = BenchPages.html(bytes, i);
        gzip[i] = BodyEncoding.gzip(identity[i]);
      }
    }

    int count() {
      return identity.length;
    }

    /** The page of a request: the number after the last slash (0 when there is none). */
    int index(HttpServletRequest req) {
      String uri = req.getRequestURI();
      try {
        return Math.floorMod(Integer.parseInt(uri.substring(uri.lastIndexOf('/') + 1)), identity.length);
      } catch (NumberFormatException e) {
        return 0;
      }
    }
  }

  /** One backend call: counted, then {@code costMillis} of work (a database, templates...). */
  static void pay(AtomicLong calls, long costMillis) {
    calls.incrementAndGet();
    if (costMillis > 0) {
      try {
        Thread.sleep(costMillis);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** The backend: sleeps {@code costMillis} (a database, templates...), then writes the page. Counts its calls. */
  static final class Backend extends HttpServlet {
    final AtomicLong calls = new AtomicLong();
    private final Pages pages;
    private final long costMillis;

    Backend(Pages pages, long costMillis) {
      this.pages = pages;
      this.costMillis = costMillis;
    }

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException {
      pay(calls, costMillis);
      byte[] body = pages.identity[pages.index(req)];
      res.setContentType("text/html;charset=UTF-8");
      res.setContentLength(body.length);
      res.getOutputStream().write(body);
    }
  }

  /**
   * The limit: what a cache hit sends (the gzip body to clients that accept gzip, else identity),
   * written from memory with no lookup, no decoding and no headers beyond the necessary.
   */
  static final class FromMemory extends HttpServlet {
    private final Pages pages;

    FromMemory(Pages pages) {
      this.pages = pages;
    }

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException {
      int i = pages.index(req);
      String accept = req.getHeader("Accept-Encoding");
      boolean gzip = accept != null && accept.contains("gzip");
      byte[] body = gzip ? pages.gzip[i] : pages.identity[i];
      res.setContentType("text/html;charset=UTF-8");
      res.setHeader("Vary", "Accept-Encoding");
      if (gzip) {
        res.setHeader("Content-Encoding", "gzip");
      }
      res.setContentLength(body.length);
      res.getOutputStream().write(body);
    }
  }

  /**
   * The reference for a hit beyond the near cache (issue 38): each request answered with one
   * memcached {@code get} of the page's plain bytes, through the same client as PageCache
   * (xmemcached, {@link MemcachedStore}, one connection, PageCache's default), written as
   * {@link FromMemory} writes them. What a memcached-backed page cache cannot beat on this machine.
   */
  static final class OneGet extends HttpServlet {
    private final Pages pages;
    private final Store store;
    private final String prefix;
    private final boolean bothCodings;

    /** @param prefix the keys' prefix; {@link #load} stores every page's plain bytes under it first */
    OneGet(Pages pages, Store store, String prefix) {
      this(pages, store, prefix, false);
    }

    /**
     * @param bothCodings also store each page's gzip, and answer a client that takes gzip with it
     *                    (one get of the bytes the client takes); else every client gets the plain bytes
     */
    OneGet(Pages pages, Store store, String prefix, boolean bothCodings) {
      this.pages = pages;
      this.store = store;
      this.prefix = prefix;
      this.bothCodings = bothCodings;
    }

    /** Every page's plain bytes (and gzip, when both codings) into memcached, never expiring. */
    void load() {
      for (int i = 0; i < pages.count(); i++) {
        store.set(prefix + i, pages.identity[i], 0);
        if (bothCodings) {
          store.set(prefix + "gz:" + i, pages.gzip[i], 0);
        }
      }
    }

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException {
      String accept = req.getHeader("Accept-Encoding");
      boolean gzip = bothCodings && accept != null && accept.contains("gzip");
      byte[] body = store.get(prefix + (gzip ? "gz:" : "") + pages.index(req));
      if (body == null) {
        res.sendError(HttpServletResponse.SC_NOT_FOUND); // evicted: counted by wrk as a non-2xx answer
        return;
      }
      res.setContentType("text/html;charset=UTF-8");
      if (bothCodings) {
        res.setHeader("Vary", "Accept-Encoding");
      }
      if (gzip) {
        res.setHeader("Content-Encoding", "gzip");
      }
      res.setContentLength(body.length);
      res.getOutputStream().write(body);
    }
  }

  /**
   * The application behind nginx and Varnish: the backend's cost, then the page with
   * {@code Cache-Control: public, max-age=600} so a proxy stores it, gzipped for clients that take
   * gzip ({@code Vary: Accept-Encoding}), as PageCache serves it.
   */
  static final class Origin extends HttpServlet {
    final AtomicLong calls = new AtomicLong();
    private final Pages pages;
    private final long costMillis;
    private final String cacheControl;

    Origin(Pages pages, long costMillis) {
      this(pages, costMillis, 600);
    }

    /** With {@code max-age=maxAgeSeconds}: how long a proxy keeps the page fresh. */
    Origin(Pages pages, long costMillis, int maxAgeSeconds) {
      this.pages = pages;
      this.costMillis = costMillis;
      this.cacheControl = "public, max-age=" + maxAgeSeconds;
    }

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException {
      pay(calls, costMillis);
      int i = pages.index(req);
      String accept = req.getHeader("Accept-Encoding");
      boolean gzip = accept != null && accept.contains("gzip");
      byte[] body = gzip ? pages.gzip[i] : pages.identity[i];
      res.setContentType("text/html;charset=UTF-8");
      res.setHeader("Cache-Control", cacheControl);
      res.setHeader("Vary", "Accept-Encoding");
      if (gzip) {
        res.setHeader("Content-Encoding", "gzip");
      }
      res.setContentLength(body.length);
      res.getOutputStream().write(body);
    }
  }
}
