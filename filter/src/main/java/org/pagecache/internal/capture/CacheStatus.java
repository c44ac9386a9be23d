package org.pagecache.internal.capture;

/**
 * How one response was served, as a value: rendered once into the {@code X-Cache} label and the
 * {@code Cache-Status} header (RFC 9211), e.g. {@code PageCache; hit; ttl=42} or
 * {@code PageCache; fwd=bypass; stored=0; detail=set-cookie}.
 *
 * @param xCache    the short label: HIT, STALE, MISS or BYPASS (also what {@code <!--pagecache:cache-->} shows)
 * @param hit       served from the cache ({@code hit}); otherwise forwarded to the handler ({@code fwd})
 * @param fwd       why it was forwarded: {@code uri-miss}, {@code stale}, {@code bypass}; null for a hit
 * @param collapsed a hit that waited for another request's build
 * @param ttl       seconds the served page stays fresh, when known
 * @param stored    whether the response was stored; null when no store was attempted
 * @param detail    a reason (a token, or quoted when it is not one)
 * @param fwdStatus the status the handler answered, when the cache served something else
 */
public record CacheStatus(String xCache, boolean hit, String fwd, boolean collapsed, Long ttl, Boolean stored,
    String detail, Integer fwdStatus) {

  /** A fresh page from the cache. */
  public static CacheStatus hit(long ttl) {
    return new CacheStatus("HIT", true, null, false, ttl, null, null, null);
  }

  /** A page another request built while this one waited for it. */
  public static CacheStatus collapsed(long ttl) {
    return new CacheStatus("HIT", true, null, true, ttl, null, null, null);
  }

  /** A page copied from the warm cluster and stored here (memcached.warm.from), instead of built. */
  public static CacheStatus warmCopy(long ttl) {
    return new CacheStatus("HIT", true, null, false, ttl, true, "warm-copy", null);
  }

  /** The stale copy, served while another request rebuilds it ({@code why}: expired, refreshed, tag ...). */
  public static CacheStatus stale(long ttl, String why) {
    return new CacheStatus("STALE", true, null, false, ttl, null, why, null);
  }

  /** The stale copy, served because the rebuild failed ({@code fwdStatus} when the handler answered 5xx). */
  public static CacheStatus staleIfError(Integer fwdStatus) {
    return new CacheStatus("STALE", true, null, false, null, null, "stale-if-error", fwdStatus);
  }

  /** Not looked up: the handler answered, for this reason. */
  public static CacheStatus bypass(String reason) {
    return new CacheStatus("BYPASS", false, "bypass", false, null, null, reason, null);
  }

  /** Built, and refused for this reason: the response goes to this client only. */
  public static CacheStatus refused(String reason) {
    return new CacheStatus("BYPASS", false, "bypass", false, null, false, reason, null);
  }

  /** Built because the page was missing ({@code replacedStale}: or stale) and stored, or not because memcached failed. */
  public static CacheStatus miss(boolean replacedStale, boolean stored) {
    return new CacheStatus("MISS", false, replacedStale ? "stale" : "uri-miss", false, null, stored,
        stored ? null : "store-unavailable", null);
  }

  /** The header value. */
  public String render() {
    StringBuilder sb = new StringBuilder(48).append("PageCache");
    sb.append(hit ? "; hit" : "; fwd=" + fwd);
    if (collapsed) {
      sb.append("; collapsed");
    }
    if (ttl != null) {
      sb.append("; ttl=").append(ttl);
    }
    if (stored != null) {
      sb.append(stored ? "; stored" : "; stored=0");
    }
    if (detail != null) {
      sb.append("; detail=").append(token(detail));
    }
    if (fwdStatus != null) {
      sb.append("; fwd-status=").append(fwdStatus);
    }
    return sb.toString();
  }

  /** A Cache-Status parameter value is a token or a quoted string: quote anything else. */
  private static String token(String s) {
    return s.matches("[A-Za-z0-9._-]+") ? s : "\"" + s.replace("\\", "\\\\").replace("\"", "'") + "\"";
  }
}
