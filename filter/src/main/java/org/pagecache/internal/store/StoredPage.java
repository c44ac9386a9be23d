package org.pagecache.internal.store;

import java.util.ArrayList;
import java.util.List;

/**
 * One stored page with what decides whether it may still be served. Immutable; stored through
 * {@link PageCodec}.
 *
 * @param status        HTTP status of the captured response
 * @param headers       response headers to replay (never Set-Cookie, hop-by-hop, Date, Content-Length)
 * @param body          the body as stored: gzip when {@code gzipped}, else identity
 * @param gzipped       whether {@code body} is gzip-compressed
 * @param etag          strong validator of the identity body, without quotes
 * @param builtAtMillis when the page was built
 * @param freshUntilMillis soft expiry: after it the page is STALE (memcached keeps it for the grace)
 * @param buildMillis   how long the build took (for probabilistic early refresh)
 * @param token         the handler's update token the page was built under
 * @param tags          tags with the versions this page was built against
 * @param viewKeys      objects whose view counters are incremented on every serve
 * @param placeholders  whether the body holds counter placeholders to substitute at serve time
 * @param vary          request headers outside the policy that the response varied on, with the
 *                      values this page was built for
 * @param uncacheableReason non-null for a marker: "the last build of this page was refused, for this reason"
 * @param mustRevalidate the handler forbade serving the page stale ({@code must-revalidate})
 * @param refusals      for a marker: how many builds in a row were refused (see {@code HitForMiss})
 */
public record StoredPage(
    int status,
    List<Header> headers,
    byte[] body,
    boolean gzipped,
    String etag,
    long builtAtMillis,
    long freshUntilMillis,
    long buildMillis,
    long token,
    List<TagVersion> tags,
    List<String> viewKeys,
    boolean placeholders,
    List<Header> vary,
    String uncacheableReason,
    boolean mustRevalidate,
    int refusals) {

  public StoredPage {
    headers = List.copyOf(headers);
    tags = List.copyOf(tags);
    viewKeys = List.copyOf(viewKeys);
    vary = List.copyOf(vary);
  }

  /** A page as stored before must-revalidate and refusal counts were recorded. */
  public StoredPage(int status, List<Header> headers, byte[] body, boolean gzipped, String etag,
      long builtAtMillis, long freshUntilMillis, long buildMillis, long token, List<TagVersion> tags,
      List<String> viewKeys, boolean placeholders, List<Header> vary, String uncacheableReason) {
    this(status, headers, body, gzipped, etag, builtAtMillis, freshUntilMillis, buildMillis, token, tags,
        viewKeys, placeholders, vary, uncacheableReason, false, 0);
  }

  /** A small entry remembering that a page's first refused build, so nobody waits on its lock. */
  public static StoredPage uncacheable(String reason, long nowMillis, long untilMillis) {
    return uncacheable(reason, 1, nowMillis, untilMillis);
  }

  /** A small entry remembering that the last {@code refusals} builds of a page were refused. */
  public static StoredPage uncacheable(String reason, int refusals, long nowMillis, long untilMillis) {
    return new StoredPage(0, List.of(), new byte[0], false, "", nowMillis, untilMillis, 0, 0,
        List.of(), List.of(), false, List.of(), reason, false, refusals);
  }

  /**
   * The record stored under a URL's key when its responses vary: it names the request headers, and
   * each variant lives under its own key (see {@code VaryRecord}). Never served; a page has a status.
   */
  public static StoredPage varyRecord(List<String> names, long nowMillis) {
    return new StoredPage(0, List.of(), new byte[0], false, "", nowMillis, nowMillis, 0, 0, List.of(), List.of(),
        false, names.stream().map(n -> new Header(n, "")).toList(), null, false, 0);
  }

  /**
   * The same page with {@code identity}, its gzipped body inflated, as its body and one more
   * header: the answer still varies on Accept-Encoding, as the gzipped page's does.
   */
  public StoredPage withIdentityBody(byte[] identity) {
    List<Header> withVary = new ArrayList<>(headers.size() + 1);
    withVary.addAll(headers);
    withVary.add(new Header("Vary", "Accept-Encoding"));
    return new StoredPage(status, withVary, identity, false, etag, builtAtMillis, freshUntilMillis, buildMillis, token,
        tags, viewKeys, placeholders, vary, uncacheableReason, mustRevalidate, refusals);
  }

  /** True for the record of a URL whose responses vary (no status, not a refusal marker). */
  public boolean isVaryRecord() {
    return status == 0 && uncacheableReason == null;
  }

  /** For a vary record: the request headers its URL's responses vary on. */
  public List<String> varyNames() {
    return vary.stream().map(Header::name).toList();
  }

  public boolean isUncacheableMarker() {
    return uncacheableReason != null;
  }

  /** One header line. */
  public record Header(String name, String value) {}

  /** A tag and the version it had when the page was built. */
  public record TagVersion(String tag, long version) {}
}
