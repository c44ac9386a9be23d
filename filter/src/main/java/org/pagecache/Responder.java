package org.pagecache;

import jakarta.servlet.ServletException;
import java.io.IOException;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.pagecache.internal.capture.CacheStatus;
import org.pagecache.internal.capture.WatchedRequest;
import org.pagecache.internal.capture.CapturedResponse;
import org.pagecache.internal.capture.CapturingResponse;
import org.pagecache.internal.capture.PageSender.Label;
import org.pagecache.internal.capture.PageSender;
import org.pagecache.internal.capture.TagsHeaderHidden;
import org.pagecache.internal.capture.BodyEncoding;
import org.pagecache.internal.fragments.GzipShell;
import org.pagecache.internal.fragments.GzipShells;
import org.pagecache.internal.fragments.Placeholders;
import org.pagecache.internal.fragments.Placeholders.Placeholder;
import org.pagecache.internal.near.NearCache;
import org.pagecache.internal.store.IdentityCopies;
import org.pagecache.internal.store.StoredPage;

/**
 * Sends the answer: a stored page, a captured response that is not stored, or the handler's own
 * response past the cache; each with its live counters filled in and its {@link CacheStatus}
 * rendered once.
 */
final class Responder {
  private final LiveCounts live;
  private final NearCache near;
  private final IdentityCopies copies;
  private final Clock clock;
  private final String cacheHeader;
  private final int maxEntrySize;
  private final GzipShells shells = new GzipShells(GzipShells.DEFAULT_MAX_BYTES);

  /**
   * @param cacheHeader  the name of the X-Cache header ({@code header})
   * @param maxEntrySize {@code max.entry.size}: the capture's bound
   */
  Responder(LiveCounts live, NearCache near, IdentityCopies copies, Clock clock, String cacheHeader, int maxEntrySize) {
    this.live = live;
    this.near = near;
    this.copies = copies;
    this.clock = clock;
    this.cacheHeader = cacheHeader;
    this.maxEntrySize = maxEntrySize;
  }

  /** Serves a stored page, counting its views and filling its counters in: live even on a hit. */
  void serve(PageRequest p, StoredPage page, CacheStatus status) throws IOException {
    IdentityCopies.Wanted copy = p.notes().copyWanted;
    if (copy != null && copy.page() == page && !page.gzipped()) { // stored uncompressed: the copy is the page itself
      copies.write(copy.pageKey(), copy.evictions(), page, page.body(), clock.millis());
    }
    Map<String, Long> counts = p.viewsNothing() || page.viewKeys().isEmpty() ? Map.of() : live.count(page.viewKeys());
    PageSender.send(p.req(), p.res(), page, clock.millis(), label(status),
        page.placeholders() && !p.notes().background ? fill(p, page, counts, status) : null, identity(p, page),
        maxEntrySize * 8);
  }

  /**
   * The page's identity body: the one this request built it from, or the near cache's; for a
   * gzipped page this request's lookup found fresh in memcached, inflated and kept beside it as its
   * identity copy for the next client without gzip ({@link IdentityCopies}).
   */
  private Supplier<byte[]> identity(PageRequest p, StoredPage page) {
    byte[] built = p.notes().built == page ? p.notes().builtIdentity : null;
    if (built != null) {
      return () -> built;
    }
    Supplier<byte[]> inflated = near.identityBody(p.notes().nearEntry, page);
    IdentityCopies.Wanted copy = p.notes().copyWanted;
    if (copy == null || copy.page() != page) {
      return inflated;
    }
    return () -> {
      byte[] body = inflated.get();
      copies.write(copy.pageKey(), copy.evictions(), page, body, clock.millis());
      return body;
    };
  }

  /**
   * A page with placeholders filled in for this visitor: identity as stored, or for a gzip client
   * one gzip member made of the page's static text deflated once ({@link GzipShell}) and the parts.
   */
  private PageSender.Filled fill(PageRequest p, StoredPage page, Map<String, Long> counts, CacheStatus status) {
    String type = contentType(page);
    byte[] body = page.body();
    boolean compressible = BodyEncoding.compressible(type, body.length);
    GzipShell shell = compressible && PageSender.acceptsGzip(p.req().getHeader("Accept-Encoding"))
        ? shells.of(page.etag(), body) : null;
    List<Placeholder> found = shell != null ? shell.placeholders() : Placeholders.find(body);
    LiveCounts.Filled filled = live.fill(p.req(), p.stats(), found, page.etag(), type, counts, status.xCache());
    return new PageSender.Filled(filled.etag(), () -> filled.identity(body), !compressible ? null
        : () -> (shell != null ? shell : shells.of(page.etag(), body)).gzip(body, filled.parts()));
  }

  /** Sends a response that was captured but not stored, with its counters live too. */
  void replay(PageRequest p, CapturedResponse c, CacheStatus status) throws IOException {
    List<String> declared = LiveCounts.declared(p.req());
    Map<String, Long> counts = p.viewsNothing() || declared.isEmpty() ? Map.of() : live.count(declared);
    List<String> type = c.headerValues("Content-Type");
    CapturedResponse out = Placeholders.contains(c.body())
        ? c.withBody(live.render(p.req(), p.stats(), c.body(), type.isEmpty() ? null : type.get(0), counts,
            status.xCache()))
        : c;
    PageSender.replay(p.req(), p.res(), out, label(status));
  }

  private static String contentType(StoredPage page) {
    for (StoredPage.Header h : page.headers()) {
      if (h.name().equalsIgnoreCase("Content-Type")) {
        return h.value();
      }
    }
    return null;
  }

  /** The status rendered once, for the X-Cache header (under its configured name) and Cache-Status. */
  Label label(CacheStatus status) {
    return new Label(cacheHeader, status.xCache(), status.render());
  }

  /**
   * Runs the handler without the engine. A GET is still captured (never stored) so its counter
   * placeholders are filled in and its declared views counted, durably even while memcached is
   * down; bodies past max.entry.size and async responses stream straight through as usual. HEAD
   * goes straight through: the container's HEAD handling computes the length itself.
   */
  void bypass(PageRequest p, String reason) throws IOException, ServletException {
    p.stats().bypass(reason);
    CacheStatus status = CacheStatus.bypass(reason);
    Label label = label(status);
    if (p.isHead()) {
      label.apply(p.res());
      WatchedRequest watched = WatchedRequest.watching(p.req());
      p.chain().doFilter(watched, new TagsHeaderHidden(p.res()));
      recordCookieBypass(p, watched);
      return;
    }
    CapturingResponse capture = newCapture(p);
    capture.onPassThrough(label::apply);
    WatchedRequest watched = WatchedRequest.asSent(p.req(), capture);
    p.chain().doFilter(watched, capture);
    recordCookieBypass(p, watched);
    CapturedResponse c = capture.finish();
    if (c.passedThrough()) {
      live.count(LiveCounts.declared(p.req()));
      return;
    }
    replay(p, c, status);
  }

  /** The evidence an operator opens the cache up with: which cookies bypassed, and whether the handler read one. */
  private static void recordCookieBypass(PageRequest p, WatchedRequest watched) {
    if (!p.parts().cookies().isEmpty()) {
      p.stats().cookieBypass(p.parts().cookies(), watched.reads().readCookies());
    }
  }

  CapturingResponse newCapture(PageRequest p) {
    return new CapturingResponse(p.req(), p.res(), maxEntrySize, p.req().getServletContext().getResponseCharacterEncoding());
  }

  long ttlLeft(StoredPage page) {
    return (page.freshUntilMillis() - clock.millis()) / 1000;
  }
}
