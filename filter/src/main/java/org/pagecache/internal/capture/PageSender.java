package org.pagecache.internal.capture;

import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Supplier;
import org.pagecache.internal.store.StoredPage;
import org.pagecache.internal.store.StoredPage.Header;

/**
 * Writes a stored page, or a captured response that is not stored, to the client. Takes care of
 * the details older page caches got wrong: Content-Length exactly once (never with
 * Transfer-Encoding), a 304 with setStatus (not sendError) carrying ETag/Vary/Cache-Control,
 * {@code Vary: Accept-Encoding} whenever the body may be gzipped, HEAD without a body, the
 * stored {@code Date} and an {@code Age} that goes on from the age on arrival, the application's
 * own {@code ETag} and {@code Last-Modified} ({@link Conditional}), one {@code Range} as a 206
 * ({@link ByteRange}).
 */
public final class PageSender {
  /** Headers a 304 repeats (RFC 9110 15.4.5); the rest describe a body that is not sent. */
  private static final Set<String> NOT_MODIFIED_HEADERS =
      Set.of("cache-control", "content-location", "expires", "vary", "last-modified");

  private PageSender() {}

  /** How the cache labels a response: {@code X-Cache} value and RFC 9211 {@code Cache-Status}. */
  public record Label(String cacheHeader, String xCache, String cacheStatus) {
    public void apply(HttpServletResponse res) {
      if (cacheHeader != null) {
        res.setHeader(cacheHeader, xCache);
      }
      res.setHeader("Cache-Status", cacheStatus);
    }
  }

  /**
   * Serves a stored page.
   *
   * @param rendered the identity body after placeholder substitution, or null to send the stored one
   */
  public static void send(HttpServletRequest req, HttpServletResponse res, StoredPage page,
      long nowMillis, Label label, byte[] rendered, int maxBodyBytes) throws IOException {
    send(req, res, page, nowMillis, label, rendered, null, maxBodyBytes);
  }

  /**
   * Serves a stored page; {@code identity}, when given, supplies the inflated body of a gzipped
   * page for clients without gzip (the near cache inflates it once per entry, not once per hit).
   */
  public static void send(HttpServletRequest req, HttpServletResponse res, StoredPage page,
      long nowMillis, Label label, byte[] rendered, Supplier<byte[]> identity, int maxBodyBytes) throws IOException {
    send(req, res, page, nowMillis, label, rendered, null, identity, maxBodyBytes);
  }

  /**
   * As above; {@code renderedTag}, when given, is the entity tag of {@code rendered} (the stored
   * page's tag combined with the parts filled in: a hash of a few bytes rather than of the body).
   */
  public static void send(HttpServletRequest req, HttpServletResponse res, StoredPage page, long nowMillis,
      Label label, byte[] rendered, String renderedTag, Supplier<byte[]> identity, int maxBodyBytes) throws IOException {
    Filled filled = rendered == null ? null
        : new Filled(renderedTag != null ? renderedTag : BodyEncoding.etag(rendered), () -> rendered, null);
    send(req, res, page, nowMillis, label, filled, identity, maxBodyBytes);
  }

  /**
   * A stored page with placeholders, filled in for one serve: a new representation each time.
   *
   * @param etag     its entity tag (identity; the gzip answer's is this with {@code -gz})
   * @param identity builds the filled-in body, called only if it is sent
   * @param gzip     builds the same as one gzip member, called only if it is sent; null when the
   *                 page is not worth compressing (then every client gets identity)
   */
  public record Filled(String etag, Supplier<byte[]> identity, Supplier<byte[]> gzip) {}

  /**
   * Serves a stored page, filled in when {@code filled} is given ({@code identity} then unused): a
   * gzip client gets {@link Filled#gzip} when there is one, unless it asked for a range.
   */
  public static void send(HttpServletRequest req, HttpServletResponse res, StoredPage page, long nowMillis,
      Label label, Filled filled, Supplier<byte[]> identity, int maxBodyBytes) throws IOException {
    boolean ranged = page.status() == 200 && req.getHeader("Range") != null;
    boolean offersGzip = filled != null ? filled.gzip() != null : page.gzipped();
    boolean gzip = !ranged && offersGzip && acceptsGzip(req.getHeader("Accept-Encoding"));
    // The application's own validators stand (a page with substituted counters is a new
    // representation on every serve: only its own tag then); the body hash only when it sent none.
    String appEtag = filled == null ? firstValue(page, "ETag") : null;
    String lastModified = filled == null ? firstValue(page, "Last-Modified") : null;
    String identityTag = filled != null ? filled.etag() : page.etag();
    String etag = gzip ? identityTag + "-gz" : identityTag;
    String sentTag = appEtag != null ? appEtag : "\"" + etag + "\"";
    // Both codings of the same content answer each other's validator, as for a page without placeholders.
    List<String> answersTo = appEtag != null ? List.of(appEtag)
        : List.of(sentTag, "\"" + identityTag + "\"", "\"" + identityTag + "-gz\"");

    List<Header> headers = new ArrayList<>();
    Set<String> vary = new LinkedHashSet<>();
    String contentType = null;
    long ageOnArrival = 0;
    for (Header h : page.headers()) {
      if (h.name().equalsIgnoreCase("Vary")) {
        for (String v : h.value().split(",")) {
          if (!v.isBlank()) {
            vary.add(v.trim());
          }
        }
      } else if (h.name().equalsIgnoreCase("Content-Type")) {
        contentType = h.value();
      } else if (h.name().equalsIgnoreCase("Age")) {
        ageOnArrival = parseAge(h.value());
      } else if (!h.name().equalsIgnoreCase("ETag") && !h.name().equalsIgnoreCase("Date")) {
        headers.add(h);
      }
    }
    if (offersGzip) {
      vary.add("Accept-Encoding");
    }

    boolean notModified = page.status() == 200
        && Conditional.notModified(req.getHeader("If-None-Match"), req.getHeader("If-Modified-Since"), answersTo, lastModified);
    res.setStatus(notModified ? HttpServletResponse.SC_NOT_MODIFIED : page.status());
    String date = firstValue(page, "Date");
    if (date != null) {
      res.setHeader("Date", date); // the stored response's own Date, never renewed (RFC 9110 6.6.1)
    }
    for (Header h : headers) {
      if (!notModified || NOT_MODIFIED_HEADERS.contains(h.name().toLowerCase(Locale.ROOT))) {
        res.addHeader(h.name(), h.value());
      }
    }
    if (!vary.isEmpty()) {
      res.setHeader("Vary", String.join(", ", vary));
    }
    res.setHeader("ETag", sentTag);
    res.setHeader("Age", Long.toString(ageOnArrival + Math.max(0, (nowMillis - page.builtAtMillis()) / 1000)));
    label.apply(res);
    if (notModified) {
      return;
    }
    if (contentType != null) {
      res.setContentType(contentType);
    }
    byte[] body;
    if (gzip) {
      res.setHeader("Content-Encoding", "gzip");
      body = filled != null ? filled.gzip().get() : page.body();
    } else if (filled != null) {
      body = filled.identity().get();
    } else if (page.gzipped()) {
      body = identity != null ? identity.get() : BodyEncoding.gunzip(page.body(), maxBodyBytes);
    } else {
      body = page.body();
    }
    ByteRange range = ranged ? ByteRange.select(req.getHeader("Range"), req.getHeader("If-Range"), sentTag, lastModified,
        body.length) : null;
    if (range == ByteRange.UNSATISFIABLE) {
      res.setStatus(HttpServletResponse.SC_REQUESTED_RANGE_NOT_SATISFIABLE);
      res.setHeader("Content-Range", "bytes */" + body.length);
      res.setContentLength(0);
      return;
    }
    int offset = 0;
    int length = body.length;
    if (range != null) {
      res.setStatus(HttpServletResponse.SC_PARTIAL_CONTENT);
      res.setHeader("Content-Range", "bytes " + range.first() + "-" + range.last() + "/" + body.length);
      offset = (int) range.first();
      length = (int) range.length();
    }
    res.setContentLength(length);
    if (!"HEAD".equals(req.getMethod())) {
      res.getOutputStream().write(body, offset, length);
    }
  }

  private static String firstValue(StoredPage page, String name) {
    for (Header h : page.headers()) {
      if (h.name().equalsIgnoreCase(name)) {
        return h.value();
      }
    }
    return null;
  }

  private static long parseAge(String value) {
    try {
      return Math.max(0, Long.parseLong(value.trim()));
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  /** Sends a captured response as the handler wrote it (not stored, or not storable). */
  public static void replay(HttpServletRequest req, HttpServletResponse res, CapturedResponse c, Label label)
      throws IOException {
    if (c.passedThrough()) {
      return; // already on its way to the client
    }
    label.apply(res);
    if (c.sentError()) {
      res.sendError(c.status(), c.errorMessage().isEmpty() ? null : c.errorMessage());
      return;
    }
    res.setStatus(c.status());
    for (Header h : c.headers()) {
      if (h.name().equalsIgnoreCase("Content-Type")) {
        res.setContentType(h.value());
      } else if (c.redirect() != null && h.name().equalsIgnoreCase("Location")) {
        continue; // the container's sendRedirect below sets it, as it would have without PageCache
      } else if (!PageBuilder.forTheCacheOnly(h.name())) {
        res.addHeader(h.name(), h.value());
      }
    }
    for (Cookie cookie : c.cookies()) {
      res.addCookie(cookie);
    }
    if (c.redirect() != null) {
      if (!c.redirect().clearBuffer() && c.body().length > 0 && !"HEAD".equals(req.getMethod())) {
        res.getOutputStream().write(c.body()); // kept in the buffer by sendRedirect(location, sc, false)
      }
      c.redirect().sendTo(res, c.status());
      return;
    }
    res.setContentLength(c.body().length);
    if (!"HEAD".equals(req.getMethod()) && c.body().length > 0) {
      res.getOutputStream().write(c.body());
    }
  }

  /** Whether the client takes gzip: a gzip (or *) coding with a q-value above 0. */
  public static boolean acceptsGzip(String acceptEncoding) {
    if (acceptEncoding == null) {
      return false;
    }
    Boolean gzip = null;
    boolean star = false;
    for (String part : acceptEncoding.split(",")) {
      String[] bits = part.trim().split(";");
      String coding = bits[0].trim().toLowerCase(Locale.ROOT);
      boolean ok = true;
      for (int i = 1; i < bits.length; i++) {
        String p = bits[i].trim().toLowerCase(Locale.ROOT);
        if (p.startsWith("q=")) {
          try {
            ok = Double.parseDouble(p.substring(2)) > 0;
          } catch (NumberFormatException e) {
            ok = false;
          }
        }
      }
      if (coding.equals("gzip") || coding.equals("x-gzip")) {
        gzip = ok;
      } else if (coding.equals("*")) {
        star = ok;
      }
    }
    return gzip != null ? gzip : star;
  }
}
