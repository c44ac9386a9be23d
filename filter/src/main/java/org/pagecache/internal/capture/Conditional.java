package org.pagecache.internal.capture;

/**
 * Whether a GET or HEAD for a stored page may be answered 304 Not Modified (RFC 9110 13.1.2,
 * 13.1.3, 13.2.2): {@code If-None-Match} against the page's entity tag (weak comparison), else
 * {@code If-Modified-Since} against its {@code Last-Modified}. Pure.
 */
public final class Conditional {
  private Conditional() {}

  /**
   * @param ifNoneMatch     the request's If-None-Match, or null
   * @param ifModifiedSince the request's If-Modified-Since, or null
   * @param etags           the entity tags the page answers to, quoted as sent (the first is the one sent)
   * @param lastModified    the page's Last-Modified, or null
   */
  public static boolean notModified(String ifNoneMatch, String ifModifiedSince, java.util.List<String> etags,
      String lastModified) {
    if (ifNoneMatch != null) {
      return anyMatches(ifNoneMatch, etags);
    }
    if (ifModifiedSince == null || lastModified == null) {
      return false;
    }
    Long since = HttpDates.parse(ifModifiedSince);
    Long modified = HttpDates.parse(lastModified);
    return since != null && modified != null && modified <= since;
  }

  /** Weak comparison: {@code W/"a"} matches {@code "a"}; {@code *} matches any. */
  static boolean anyMatches(String ifNoneMatch, java.util.List<String> etags) {
    for (String candidate : splitTags(ifNoneMatch)) {
      if (candidate.equals("*")) {
        return true;
      }
      String opaque = opaque(candidate);
      for (String tag : etags) {
        if (opaque.equals(opaque(tag))) {
          return true;
        }
      }
    }
    return false;
  }

  private static String opaque(String tag) {
    String t = tag.trim();
    return t.startsWith("W/") ? t.substring(2) : t;
  }

  /** Entity tags of a list; a comma inside a quoted tag does not split it. */
  private static java.util.List<String> splitTags(String header) {
    java.util.List<String> tags = new java.util.ArrayList<>();
    StringBuilder current = new StringBuilder();
    boolean quoted = false;
    for (char ch : header.toCharArray()) {
      if (ch == '"') {
        quoted = !quoted;
      }
      if (ch == ',' && !quoted) {
        tags.add(current.toString().trim());
        current.setLength(0);
      } else {
        current.append(ch);
      }
    }
    tags.add(current.toString().trim());
    tags.removeIf(String::isEmpty);
    return tags;
  }
}
