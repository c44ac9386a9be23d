package org.pagecache.internal.capture;

/**
 * The one byte range a {@code Range} request asks of a stored body (RFC 9110 14.2), or null to send
 * the whole body with 200: no Range, another unit, several ranges (allowed: a server may ignore
 * Range), an unreadable one, or an {@code If-Range} that does not match the page. A range that
 * starts past the end is {@link #UNSATISFIABLE} (416). Pure.
 *
 * @param first the first byte sent
 * @param last  the last byte sent (inclusive)
 */
public record ByteRange(long first, long last) {
  /** A range none of whose bytes exist: answered 416 with {@code Content-Range: bytes *}{@code /length}. */
  public static final ByteRange UNSATISFIABLE = new ByteRange(-1, -1);

  /**
   * @param range   the request's Range, or null
   * @param ifRange the request's If-Range, or null
   * @param etag    the entity tag the page is sent with (quoted), or null
   * @param lastModified the page's Last-Modified, or null
   * @param length  the length of the body that would be sent
   */
  public static ByteRange select(String range, String ifRange, String etag, String lastModified, long length) {
    if (range == null || !range.regionMatches(true, 0, "bytes=", 0, 6)) {
      return null;
    }
    if (ifRange != null && !ifRangeMatches(ifRange.trim(), etag, lastModified)) {
      return null;
    }
    String spec = range.substring(6).trim();
    if (spec.contains(",")) {
      return null;
    }
    int dash = spec.indexOf('-');
    if (dash < 0) {
      return null;
    }
    String a = spec.substring(0, dash).trim();
    String b = spec.substring(dash + 1).trim();
    try {
      if (a.isEmpty()) {
        long suffix = Long.parseLong(b);
        if (suffix <= 0) {
          return suffix == 0 ? UNSATISFIABLE : null;
        }
        return length == 0 ? UNSATISFIABLE : new ByteRange(Math.max(0, length - suffix), length - 1);
      }
      long first = Long.parseLong(a);
      long last = b.isEmpty() ? length - 1 : Long.parseLong(b);
      if (first >= length) {
        return UNSATISFIABLE;
      }
      if (first < 0 || last < first) {
        return null;
      }
      return new ByteRange(first, Math.min(last, length - 1));
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /** If-Range holds a strong entity tag equal to the page's, or exactly its Last-Modified date. */
  private static boolean ifRangeMatches(String ifRange, String etag, String lastModified) {
    if (ifRange.startsWith("\"") || ifRange.startsWith("W/")) {
      return etag != null && !ifRange.startsWith("W/") && !etag.startsWith("W/") && ifRange.equals(etag);
    }
    return lastModified != null && ifRange.equals(lastModified.trim());
  }

  public long length() {
    return last - first + 1;
  }
}
