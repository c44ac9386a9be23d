package org.pagecache;

import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Collections;
import java.util.Enumeration;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.pagecache.internal.key.RequestParts;
import org.pagecache.internal.stats.HandlerRecorder;
import org.pagecache.internal.store.StoredPage;
import org.pagecache.stats.Refresh;
import org.pagecache.stats.TagInvalidation;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stale pages rebuilt off the visitor's request ({@code rebuild.background}, docs/freshness.md): the
 * request that found a page stale and won its rebuild lock is answered with the stale copy at once,
 * as the requests that lost the lock are, and hands the lease over here. The container recycles that
 * request once it is answered, so the build gets a request of its own: a GET of the same URL sent by
 * this JVM to its own connector, with the visitor's site headers (the key holds them) and no cookie
 * or credentials, carrying {@link #HEADER}: the hand-off's number and a secret only this JVM knows.
 * The filter recognises it ({@link #claim}), hides the header from everything after it, and builds
 * under the lease it was handed through the same filters a visitor's request runs. Its answer goes to
 * the background thread, which reads it to the end and drops it.
 *
 * <p>Bounded: at most {@code rebuild.background} rebuilds in flight per JVM, and as many more waiting
 * for one of them to end, in order, each holding its lease (renewed as any lock); past that the
 * stale page is served, the lease given back and a later request tries again. A rebuild that built
 * the page but could not store it (memcached failing) or was refused leaves its page to the next
 * visitor of this JVM, who builds it in the foreground and gets the new page, as before background
 * rebuilds (docs/failures.md, "Background rebuilds under faults"). Where the build cannot be sent
 * this way (a signed-in visitor's group page, a keyed cookie, a TLS connector, no local port), the
 * request builds in the foreground as before.
 */
final class BackgroundRebuilds implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(BackgroundRebuilds.class);
  /** The request header that names a hand-off; hidden from the filters and the handler after PageCache. */
  static final String HEADER = "PageCache-Rebuild";
  private static final int CONNECT_MILLIS = 2000;
  /** Headers never sent with a background rebuild: credentials, cookies, the connection's, conditions, ours. */
  private static final Set<String> NOT_SENT = Set.of("cookie", "authorization", "proxy-authorization", "connection",
      "keep-alive", "proxy-connection", "transfer-encoding", "te", "trailer", "upgrade", "content-length",
      "content-type", "expect", "http2-settings", "if-none-match", "if-modified-since", "if-match",
      "if-unmodified-since", "if-range", "range", "host", HEADER.toLowerCase(Locale.ROOT));

  private static final int HANDED = 0;
  private static final int CLAIMED = 1;
  private static final int BUILDING = 2;
  private static final int ENDED = 3;

  private final int bound;
  private final Edits edits;
  private final int readTimeoutMillis;
  /** 32 random bytes, hex: made when the cache starts, known to this JVM only. */
  private final String secretHex;
  private final AtomicLong ids = new AtomicLong();
  private final Map<Long, HandOff> inFlight = new ConcurrentHashMap<>();
  /** Builds whose request's answer never came (a timeout, the server stopping): their leases, until given back. */
  private final Set<HandOff> unanswered = ConcurrentHashMap.newKeySet();
  /**
   * Pages whose background build did not leave a new page in memcached: refused (it turned out
   * personal: it made a session, read a cookie...) or not stored (memcached failed to take it). Their
   * next visitor on this JVM builds them in the foreground, with what that visitor carries: a
   * background request would be refused the same way, and a visitor who builds gets the new page
   * even when memcached fails again, where every reader of a background rebuild kept the old one.
   * The mark ({@link System#nanoTime} when made) holds for {@code lock.ttl}: a request that won the
   * lock between the build's end and its answer may have handed the page off again, and a mark left
   * so must not make a visitor wait at the page's next expiry, long after the fault.
   */
  private final Map<String, Long> foregroundNext = new ConcurrentHashMap<>();
  private final long foregroundMarkNanos;
  /** Handlers whose background requests got another key than their visitors' (a TLS connector): foreground only. */
  private final Set<String> foregroundOnly = ConcurrentHashMap.newKeySet();
  /** {@code bound} threads, and a queue of as many rebuilds waiting for one; null when off. */
  private final ThreadPoolExecutor threads;
  private volatile boolean closed;

  /**
   * @param bound   {@code rebuild.background}: rebuilds in flight at once; 0 turns them off
   * @param lockTtl {@code lock.ttl}: how long the background thread waits for its build's answer
   */
  BackgroundRebuilds(int bound, Duration lockTtl, Edits edits) {
    this.bound = bound;
    this.edits = edits;
    this.readTimeoutMillis = (int) Math.min(Integer.MAX_VALUE, lockTtl.toMillis() + 5000);
    this.foregroundMarkNanos = lockTtl.toNanos();
    byte[] secret = new byte[32];
    new SecureRandom().nextBytes(secret);
    this.secretHex = HexFormat.of().formatHex(secret);
    AtomicInteger n = new AtomicInteger();
    this.threads = bound == 0 ? null : new ThreadPoolExecutor(bound, bound, 60, TimeUnit.SECONDS,
        new ArrayBlockingQueue<>(bound), r -> {
          Thread t = new Thread(r, "pagecache-rebuild-" + n.incrementAndGet());
          t.setDaemon(true);
          return t;
        });
    if (threads != null) {
      threads.allowCoreThreadTimeOut(true); // an idle site keeps no rebuild threads
    }
  }

  /**
   * The request {@code p} won the lock of a stale page whose copy may still be served: hands the
   * rebuild to the background and returns true (the copy is served), or returns false when the
   * request must build in the foreground (also when an edit made in this JVM condemned the page:
   * {@link Edits}, and when the last background build of the page left no new page in memcached).
   * Past the bound and its queue, gives the lease back and returns true.
   */
  boolean takeOver(PageRequest p, Found found, Lease lease) {
    // Under declared classes the request sent carries the class's representative headers, so it is of the class
    // whatever the visitor's own headers were (one a socket cannot carry would otherwise land under another key).
    HttpServletRequest req = p.notes().presented != null ? p.notes().presented : p.req();
    if (bound == 0 || closed || p.notes().background || p.notes().visitor != null
        || edits.condemned(p.handler(), found.page())
        || !foregroundNext.isEmpty() && markedForForeground(found.key())
        || foregroundOnly.contains(p.handler()) || keyedCookie(p.parts()) || req.getLocalPort() <= 0
        || req.getLocalAddr() == null || "https".equalsIgnoreCase(req.getScheme()) && !siteHeaders(req)) {
      return false;
    }
    if (!unanswered.isEmpty()) {
      unanswered.removeIf(h -> h.lease.given());
    }
    HandOff h = new HandOff(ids.incrementAndGet(), p.handler(), req.getRequestURI(), lease, p.stats());
    try {
      byte[] request = request(req, h.id + "." + secretHex);
      InetSocketAddress to = new InetSocketAddress(req.getLocalAddr(), req.getLocalPort());
      inFlight.put(h.id, h);
      // Said before it can start: its end is logged by another thread, always after this line.
      if (log.isDebugEnabled()) {
        log.debug("pagecache: background rebuild {} of a {} page {}: handed over, its lock won {} ms before", h.id,
            h.handler, h.path, lease.heldMillis());
      }
      threads.execute(() -> send(h, to, request));
    } catch (RejectedExecutionException e) {
      inFlight.remove(h.id);
      log.debug("pagecache: background rebuild {} of a {} page {}: ended, {}", h.id, h.handler, h.path,
          closed ? "not sent, shutting down" : "skipped, " + bound + " under way and as many waiting");
      if (closed) {
        return false; // shutting down: build it here
      }
      p.stats().skippedBackgroundRebuild();
      lease.giveBack(); // the queue is full too: a later request tries again
      return true;
    } catch (IllegalArgumentException e) {
      return false; // a request line that cannot be sent: build it here
    }
    p.stats().rebuiltInBackground();
    return true;
  }

  /**
   * The hand-off a request's {@link #HEADER} names, claimed by that request, or null: unknown,
   * already claimed or ended, or a wrong secret (then the request is an ordinary one).
   */
  HandOff claim(String value) {
    int dot = value == null ? -1 : value.indexOf('.');
    if (dot <= 0) {
      return null;
    }
    byte[] given = value.substring(dot + 1).getBytes(StandardCharsets.US_ASCII);
    if (!MessageDigest.isEqual(given, secretHex.getBytes(StandardCharsets.US_ASCII))) {
      return null; // constant-time: the secret never leaks through timing
    }
    long id;
    try {
      id = Long.parseLong(value.substring(0, dot));
    } catch (NumberFormatException e) {
      return null;
    }
    HandOff h = inFlight.get(id);
    return h != null && h.state.compareAndSet(HANDED, CLAIMED) ? h : null;
  }

  /** True, once, when the page's last background build left no new page within {@code lock.ttl}. */
  private boolean markedForForeground(String pageKey) {
    Long marked = foregroundNext.remove(pageKey);
    return marked != null && System.nanoTime() - marked < foregroundMarkNanos;
  }

  /** The request as the filters and handler after PageCache see it: without {@link #HEADER}. */
  static HttpServletRequest withoutHeader(HttpServletRequest req) {
    return new HttpServletRequestWrapper(req) {
      @Override
      public String getHeader(String name) {
        return HEADER.equalsIgnoreCase(name) ? null : super.getHeader(name);
      }

      @Override
      public Enumeration<String> getHeaders(String name) {
        return HEADER.equalsIgnoreCase(name) ? Collections.emptyEnumeration() : super.getHeaders(name);
      }

      @Override
      public Enumeration<String> getHeaderNames() {
        List<String> names = Collections.list(super.getHeaderNames());
        names.removeIf(HEADER::equalsIgnoreCase);
        return Collections.enumeration(names);
      }
    };
  }

  /** Rebuilds handed to the background and not ended yet, building or waiting for a thread (tests, the admin page). */
  int inFlight() {
    return inFlight.size();
  }

  /**
   * Stops: no more hand-offs, and every lease of a rebuild still in flight is given back now, so no
   * page stays locked past this JVM (its builds, if the container still runs them, store nothing that
   * matters: the lock is free for the next frontend).
   */
  @Override
  public void close() {
    closed = true;
    if (threads != null) {
      threads.shutdownNow(); // the rebuilds still waiting are dropped; their leases are given back below
    }
    for (HandOff h : inFlight.values()) {
      h.state.set(ENDED);
      h.lease.giveBack(h.stats);
      h.closeSocket();
    }
    inFlight.clear();
    for (HandOff h : unanswered) {
      h.lease.giveBack(h.stats);
    }
    unanswered.clear();
  }

  /** One rebuild handed to the background: its lease, from the winner to the build, and its request's socket. */
  final class HandOff {
    private final long id;
    private final String handler;
    /** The page's path, without its query (which may carry what logs must not): for the debug log only. */
    private final String path;
    private final Lease lease;
    private final HandlerRecorder stats;
    private final AtomicInteger state = new AtomicInteger(HANDED);
    private volatile Socket socket;

    private HandOff(long id, String handler, String path, Lease lease, HandlerRecorder stats) {
      this.id = id;
      this.handler = handler;
      this.path = path;
      this.lease = lease;
      this.stats = stats;
    }

    /**
     * The lease for the build of {@code found}, once, when it is the page the lease was taken for;
     * null otherwise (the request then goes its own way and the lease is given back at its end).
     */
    Lease lease(Found found) {
      if (!found.key().equals(lease.pageKey())) {
        if (foregroundOnly.add(handler)) {
          log.warn("pagecache: a background rebuild of a {} page reached the container under another key (a TLS-only"
              + " connector, or a proxy header it does not get back): its stale pages are rebuilt in the foreground",
              handler);
        }
        return null;
      }
      return state.compareAndSet(CLAIMED, BUILDING) ? lease : null;
    }

    /** The background request's end: gives the lease back unless a build took it (the build gives it back). */
    void end() {
      if (state.compareAndSet(CLAIMED, ENDED)) {
        lease.giveBack(stats);
      }
    }

    private void closeSocket() {
      Socket s = socket;
      if (s != null) {
        try {
          s.close();
        } catch (IOException e) {
          // closing anyway
        }
      }
    }
  }

  /** Sends the background request and reads its answer to the end; the lease is given back if nobody claimed it. */
  private void send(HandOff h, InetSocketAddress to, byte[] request) {
    Answer answer = Answer.FAILED;
    try (Socket s = new Socket()) {
      h.socket = s;
      if (closed) {
        return;
      }
      s.connect(to, CONNECT_MILLIS);
      s.setSoTimeout(readTimeoutMillis);
      OutputStream out = s.getOutputStream();
      out.write(request);
      out.flush();
      answer = answer(new BufferedInputStream(s.getInputStream()));
      if (answer == Answer.REFUSED || answer == Answer.NOT_STORED) {
        if (foregroundNext.size() >= 10_000) {
          foregroundNext.clear();
        }
        foregroundNext.put(h.lease.pageKey(), System.nanoTime());
      }
    } catch (IOException | RuntimeException e) {
      if (!closed) {
        log.warn("pagecache: background rebuild of a {} page did not get through ({}); the stale copy stays",
            h.handler, e.toString());
      }
    } finally {
      if (!h.lease.given()) {
        unanswered.add(h); // its build goes on: the lease stays within reach of close()
      }
      inFlight.remove(h.id);
      if (h.state.compareAndSet(HANDED, ENDED)) {
        h.lease.giveBack(h.stats); // it never reached the filter
        answer = Answer.FAILED;
      }
      if (!closed) {
        if (answer == Answer.FAILED) {
          h.stats.backgroundRebuildFailed();
        } else if (answer == Answer.NOT_STORED) {
          h.stats.backgroundRebuildNotStored();
        }
      }
      log.debug("pagecache: background rebuild {} of a {} page {}: ended, {}", h.id, h.handler, h.path, answer.said);
    }
  }

  /** What a background build came to, as its answer says. */
  private enum Answer {
    DONE("done"), FAILED("failed"), REFUSED("refused"), NOT_STORED("not stored");

    /** As the debug log says it. */
    private final String said;

    Answer(String said) {
      this.said = said;
    }
  }

  /**
   * Reads the answer to its end: a failure when it is a 5xx or the stale copy standing in for one
   * ({@code Cache-Status: ...; detail=stale-if-error}), not stored when memcached failed the build
   * (it did not take the page, {@code stored=0}, or its lookup failed: {@code store-unavailable}),
   * refused when the build was not stored
   * ({@code fwd=bypass}: it turned out personal).
   */
  private static Answer answer(InputStream in) throws IOException {
    String status = line(in);
    String[] parts = status.split(" ", 3);
    if (parts.length < 2) {
      throw new IOException("no status line");
    }
    Answer answer = Integer.parseInt(parts[1]) >= 500 ? Answer.FAILED : Answer.DONE;
    for (String header = line(in); !header.isEmpty(); header = line(in)) {
      if (header.regionMatches(true, 0, "Cache-Status:", 0, 13)) {
        answer = header.contains("stale-if-error") || answer == Answer.FAILED ? Answer.FAILED
            : header.contains("store-unavailable") ? Answer.NOT_STORED // memcached failed the build
            : header.contains("fwd=bypass") ? Answer.REFUSED // not stored: it turned out personal
            : header.contains("stored=0") ? Answer.NOT_STORED : answer;
      }
    }
    in.transferTo(OutputStream.nullOutputStream()); // Connection: close
    return answer;
  }

  private static String line(InputStream in) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream(64);
    for (int c = in.read(); c != '\n'; c = in.read()) {
      if (c < 0) {
        throw new IOException("the answer ended early");
      }
      if (c != '\r') {
        b.write(c);
      }
    }
    return b.toString(StandardCharsets.ISO_8859_1);
  }

  /**
   * The background request: a GET of the visitor's URL with the visitor's headers but for cookies,
   * credentials, conditions and the connection's own, so it has the visitor's key (Host, the site
   * headers, the varied ones) and is an anonymous visitor's request. Written on a plain socket:
   * {@code java.net.http.HttpClient} refuses to send a {@code Host} of the caller's choosing (a
   * restricted header), and the key holds the visitor's.
   */
  private static byte[] request(HttpServletRequest req, String handOff) {
    String target = req.getRequestURI() + (req.getQueryString() == null ? "" : "?" + req.getQueryString());
    if (!target.startsWith("/") || !sendable(target) || target.indexOf(' ') >= 0) {
      throw new IllegalArgumentException("target");
    }
    String host = req.getHeader("Host");
    if (host == null || !sendable(host)) {
      String name = req.getServerName();
      host = (name.indexOf(':') >= 0 ? "[" + name + "]" : name) + ":" + req.getServerPort();
    }
    StringBuilder sb = new StringBuilder(512).append("GET ").append(target).append(" HTTP/1.1\r\nHost: ")
        .append(host).append("\r\n");
    for (String name : Collections.list(req.getHeaderNames())) {
      if (NOT_SENT.contains(name.toLowerCase(Locale.ROOT)) || name.startsWith(":") || !sendable(name)) {
        continue;
      }
      for (String value : Collections.list(req.getHeaders(name))) {
        if (sendable(value)) {
          sb.append(name).append(": ").append(value).append("\r\n");
        }
      }
    }
    sb.append(HEADER).append(": ").append(handOff).append("\r\nConnection: close\r\n\r\n");
    return sb.toString().getBytes(StandardCharsets.ISO_8859_1);
  }

  /** No line breaks or NULs (the container parsed them already; this is the second line of defence). */
  private static boolean sendable(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '\r' || c == '\n' || c == 0 || c > 0xff) {
        return false;
      }
    }
    return true;
  }

  /** A cookie the page is keyed on ({@code cookies=vary:}) that the visitor sent: the background request has none. */
  private static boolean keyedCookie(RequestParts parts) {
    for (String[] part : parts.keyParts()) {
      if (part[0].startsWith("cookie:") && part[1] != null) {
        return true;
      }
    }
    return false;
  }

  /** The request carries a header that names its scheme or site: the background request carries it too. */
  private static boolean siteHeaders(HttpServletRequest req) {
    for (String name : RequestParts.SITE_HEADERS) {
      if (req.getHeader(name) != null) {
        return true;
      }
    }
    return false;
  }

  /**
   * Invalidations an edit made through the application in this JVM: a refresh or tag invalidation
   * made while a write (POST, PUT...) runs through the filter, on its thread (a handler's {@code
   * refreshed-by=}, an editor's save calling {@code invalidateTag}), unless the write says it changes
   * no page (the admin servlet's actions do). A page such an edit condemned is rebuilt in the
   * foreground by its next request, so the editor sees the change at once (README "What to click",
   * step 4); every other stale page (expiry, a Refresh, an invalidation from a script or a CMS
   * process) is served stale and rebuilt in the background. Other JVMs learn the versions from
   * memcached, not that they were edits: there the page is rebuilt in the background.
   */
  static final class Edits {
    /** Handlers and tags remembered; past this the memory starts again (an edit then rebuilds in the background). */
    private static final int MAX = 10_000;

    private final ThreadLocal<HttpServletRequest> writing = new ThreadLocal<>();
    private final Map<String, Long> tokens = new ConcurrentHashMap<>();
    private final Map<String, Long> tags = new ConcurrentHashMap<>();

    /** A write's handler run through the filter: what it invalidates on this thread is an edit. */
    interface Write {
      void run() throws IOException, ServletException;
    }

    void during(HttpServletRequest req, Write write) throws IOException, ServletException {
      HttpServletRequest outer = writing.get();
      writing.set(req);
      try {
        write.run();
      } finally {
        if (outer == null) {
          writing.remove();
        } else {
          writing.set(outer);
        }
      }
    }

    void refreshed(Refresh refresh) {
      if (editing()) {
        remember(tokens, refresh.handler(), refresh.token());
      }
    }

    void invalidated(TagInvalidation invalidation) {
      if (editing()) {
        remember(tags, invalidation.tag(), invalidation.version());
      }
    }

    /** True when an edit made in this JVM condemned this page (it was built before the version the edit wrote). */
    boolean condemned(String handler, StoredPage page) {
      if (page == null || tokens.isEmpty() && tags.isEmpty()) {
        return false;
      }
      Long token = tokens.get(handler);
      if (token != null && page.token() < token) {
        return true;
      }
      for (StoredPage.TagVersion t : page.tags()) {
        Long version = tags.get(t.tag());
        if (version != null && t.version() < version) {
          return true;
        }
      }
      return false;
    }

    private boolean editing() {
      HttpServletRequest req = writing.get();
      return req != null && req.getAttribute(PageCache.CHANGES_NO_PAGE_ATTRIBUTE) == null;
    }

    private static void remember(Map<String, Long> versions, String name, long version) {
      if (versions.size() >= MAX) {
        versions.clear();
      }
      versions.merge(name, version, Math::max);
    }
  }
}
