package org.pagecache;

import jakarta.servlet.FilterChain;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.pagecache.internal.key.RequestParts;
import org.pagecache.internal.near.HandlerConfirmations;
import org.pagecache.internal.near.NearCache;
import org.pagecache.internal.near.WaitingList;
import org.pagecache.internal.stats.HandlerRecorder;
import org.pagecache.internal.stats.PageTrace;
import org.pagecache.internal.store.IdentityCopies;
import org.pagecache.internal.store.StoredPage;

/**
 * The request for a page being handled: what every step needs (handler, policy, stats, key parts),
 * and in {@link #notes} what one step learns for a later one. This object, not request attributes,
 * carries it, one per request.
 *
 * <p>{@code requestUri} and {@code queryString} are the URL the visitor asked for, read when the
 * request arrived. A step after the build reads them here, not from {@code req}: a container may
 * re-point the request object it gave the filter at an async dispatch's target (Jetty 10 does, for
 * {@code startAsync().dispatch("/view")}), and the page is stored under the URL that was asked for.
 */
record PageRequest(HttpServletRequest req, HttpServletResponse res, FilterChain chain,
    String handler, CachePolicy policy, HandlerRecorder stats, RequestParts parts, String requestUri,
    String queryString, Notes notes, PageTrace trace) {

  /** @param trace what the request tells a tracer ({@link PageTrace#NONE} when nothing observes it) */
  PageRequest(HttpServletRequest req, HttpServletResponse res, FilterChain chain, String handler, CachePolicy policy,
      HandlerRecorder stats, RequestParts parts, PageTrace trace) {
    this(req, res, chain, handler, policy, stats, parts, req.getRequestURI(), req.getQueryString(), new Notes(),
        trace);
  }

  /** The same request keyed by other parts (a build that read parameters its key did not hold: {@code Build}). */
  PageRequest withParts(RequestParts wider) {
    return new PageRequest(req, res, chain, handler, policy, stats, wider, requestUri, queryString, notes, trace);
  }

  boolean isHead() {
    return "HEAD".equals(req.getMethod());
  }

  /** Nobody views what this request is sent: a HEAD, or a background rebuild's request (its answer is dropped). */
  boolean viewsNothing() {
    return isHead() || notes.background;
  }

  /**
   * What the steps of one request learn for the later ones. Used by one thread at a time (an async
   * build's end comes after the request's own thread has left it).
   */
  static final class Notes {
    /** The near cache entry the lookup served this request from; null when memcached was asked. */
    NearCache.Entry nearEntry;
    /** The lookup waited lock.wait in the JVM for another request's build already. */
    boolean waitedInJvm;
    /**
     * The keys the lookup read from memcached in its one round trip; null when it did not ask
     * memcached. The rebuild lock's add reads them again with it: the build's second look.
     */
    java.util.List<String> lookupKeys;
    /** The vary record the lookup found under the page's URL, reused when the build stores a variant. */
    StoredPage varyRecord;
    /**
     * The request a build of this page sees when its handler declares classes of visitors
     * ({@code vary=device}, {@code language}, {@code format}): the visitor's, with the headers the
     * classes are read from holding the class's representative values; null without classes.
     */
    HttpServletRequest presented;
    /** The signed-in visitor this request is served as (its group's pages); null for an anonymous one. */
    SignedInVisitors.Visitor visitor;
    /** This request's place in the JVM's waiting list, closed once its answer is sent; null when it never joined. */
    WaitingList.Ticket ticket;
    /** A background rebuild's request ({@code BackgroundRebuilds}), not a visitor's: it never hands its build on, counts no view. */
    boolean background;
    /** The page this request built and the identity body it was made from: served without inflating it again. */
    StoredPage built;
    byte[] builtIdentity;
    /**
     * For a client without gzip (IdentityCopies): the handler's evictions value the lookup knew
     * before it read the page ({@code HandlerConfirmations.UNKNOWN}: it looked for no copy), the
     * copy it read, and the copy to make when the page it found is served (written as the page is
     * inflated for this request).
     */
    long copyStamp = HandlerConfirmations.UNKNOWN;
    IdentityCopies.Copy copyRead;
    IdentityCopies.Wanted copyWanted;

    /** Ends this request's wait in the JVM: a leader's close releases whoever still waits with it. */
    void leaveWaitingList() {
      if (ticket != null) {
        ticket.close();
        ticket = null;
      }
    }
  }
}
