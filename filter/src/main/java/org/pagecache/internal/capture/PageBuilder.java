package org.pagecache.internal.capture;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.pagecache.internal.store.StoredPage;
import org.pagecache.internal.store.StoredPage.Header;
import org.pagecache.internal.store.StoredPage.TagVersion;

/**
 * Turns a captured, cacheable response into the entry to store: strips what must never be
 * replayed, compresses what is worth compressing (once, at build time, so a hit costs no
 * compression work) and computes the strong ETag.
 */
public final class PageBuilder {
  /** Never stored: per-connection, per-response or per-user headers, and those the filter sets itself. */
  private static final Set<String> NOT_STORED = Set.of("set-cookie", "set-cookie2", "date", "age",
      "content-length", "transfer-encoding", "connection", "keep-alive", "proxy-authenticate",
      "proxy-authorization", "te", "trailer", "upgrade", "etag", "cache-status", "x-cache-tags");

  private PageBuilder() {}

  /** What the build knows besides the captured response. */
  public record Context(long builtAtMillis, long freshMillis, long buildMillis, long token,
      List<TagVersion> tags, List<String> viewKeys, boolean placeholders, List<Header> vary, String cacheHeader,
      boolean mustRevalidate) {}

  public static StoredPage build(CapturedResponse c, Context ctx) {
    List<Header> headers = new ArrayList<>();
    String contentType = null;
    for (Header h : c.headers()) {
      String name = h.name().toLowerCase(Locale.ROOT);
      if (NOT_STORED.contains(name) || (ctx.cacheHeader != null && name.equalsIgnoreCase(ctx.cacheHeader))) {
        continue;
      }
      if (name.equals("content-type")) {
        contentType = h.value();
      }
      headers.add(h);
    }
    byte[] identity = c.body();
    boolean gzip = !ctx.placeholders && BodyEncoding.compressible(contentType, identity.length);
    byte[] stored = gzip ? BodyEncoding.gzip(identity) : identity;
    if (gzip && stored.length >= identity.length) {
      gzip = false; // incompressible after all
      stored = identity;
    }
    return new StoredPage(c.status(), headers, stored, gzip, BodyEncoding.etag(identity), ctx.builtAtMillis,
        ctx.builtAtMillis + ctx.freshMillis, ctx.buildMillis, ctx.token, ctx.tags, ctx.viewKeys,
        ctx.placeholders, ctx.vary, null, ctx.mustRevalidate, 0);
  }

  /** Response header in which a handler may declare the page's tags; never sent to the client. */
  static final String TAGS_HEADER = "X-Cache-Tags";

  /** The tags a handler declared in an {@code X-Cache-Tags} response header (comma or space separated). */
  public static List<String> headerTags(CapturedResponse c) {
    List<String> tags = new ArrayList<>();
    for (String v : c.headerValues(TAGS_HEADER)) {
      for (String t : v.split("[,\\s]+")) {
        if (!t.isEmpty()) {
          tags.add(t);
        }
      }
    }
    return tags;
  }
}
