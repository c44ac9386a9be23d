package org.pagecache.internal.capture;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.pagecache.internal.store.StoredPage;
import org.pagecache.internal.text.TagLists;
import org.pagecache.internal.store.StoredPage.Header;
import org.pagecache.internal.store.StoredPage.TagVersion;

/**
 * Turns a captured, cacheable response into the entry to store: strips what must never be
 * replayed, compresses what is worth compressing (once, at build time, so a hit costs no
 * compression work) and computes the strong ETag.
 */
public final class PageBuilder {
  /** Never stored: per-connection, per-response or per-user headers, and those the filter sets itself. */
  private static final Set<String> NOT_STORED = Set.of("set-cookie", "set-cookie2", "age",
      "content-length", "transfer-encoding", "connection", "keep-alive", "proxy-authenticate",
      "proxy-authorization", "te", "trailer", "upgrade", "cache-status", "x-cache-tags", "pagecache-control");

  private PageBuilder() {}

  /** What the build knows besides the captured response. */
  public record Context(long builtAtMillis, long freshMillis, long buildMillis, long token,
      List<TagVersion> tags, List<String> viewKeys, boolean placeholders, List<Header> vary, String cacheHeader,
      boolean mustRevalidate, long ageSeconds) {}

  public static StoredPage build(CapturedResponse c, Context ctx) {
    List<Header> headers = new ArrayList<>();
    String contentType = null;
    Set<String> connectionListed = connectionOptions(c);
    for (Header h : c.headers()) {
      String name = h.name().toLowerCase(Locale.ROOT);
      if (NOT_STORED.contains(name) || connectionListed.contains(name)
          || (ctx.cacheHeader != null && name.equalsIgnoreCase(ctx.cacheHeader))
          || (name.equals("date") && HttpDates.parse(h.value()) == null)) { // the container's Date then stands
        continue;
      }
      if (name.equals("content-type")) {
        contentType = h.value();
      }
      headers.add(h);
    }
    if (ctx.ageSeconds > 0) {
      headers.add(new Header("Age", Long.toString(ctx.ageSeconds))); // the age on arrival; PageSender adds the time stored
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

  /** The fields a {@code Connection} header names: hop-by-hop, never stored (RFC 9111 3.1). */
  private static Set<String> connectionOptions(CapturedResponse c) {
    Set<String> names = new HashSet<>();
    for (String v : c.headerValues("Connection")) {
      for (String n : v.split(",")) {
        names.add(n.trim().toLowerCase(Locale.ROOT));
      }
    }
    return names;
  }

  /** True for the response headers addressed to the cache alone: X-Cache-Tags and PageCache-Control. */
  public static boolean forTheCacheOnly(String name) {
    return TAGS_HEADER.equalsIgnoreCase(name) || Lifetime.OWN_FIELD.equalsIgnoreCase(name);
  }

  /** Response header in which a handler may declare the page's tags; never sent to the client. */
  static final String TAGS_HEADER = "X-Cache-Tags";

  /**
   * The tags a handler declared in an {@code X-Cache-Tags} response header, or in the surrogate-key
   * headers CDNs read ({@link SurrogateKeys}: {@code Surrogate-Key}, {@code Cache-Tag}, {@code xkey});
   * comma or space separated.
   */
  public static List<String> headerTags(CapturedResponse c) {
    List<String> tags = new ArrayList<>();
    addTags(tags, c.headerValues(TAGS_HEADER));
    for (String header : SurrogateKeys.CDN_HEADERS) {
      addTags(tags, c.headerValues(header));
    }
    return tags;
  }

  private static void addTags(List<String> tags, List<String> values) {
    for (String v : values) {
      tags.addAll(TagLists.split(v));
    }
  }
}
