package org.pagecache.internal.text;

/**
 * Path parameters: the {@code ;name=value} a segment of a URL's path may carry, as in
 * {@code /owners/1;jsessionid=5F2A}. A servlet container maps a request without them (the session
 * id one is the container's own URL rewriting, RFC 3986 3.3 allows any), so {@code /owners/1;jsessionid=5F2A}
 * reaches the handler of {@code /owners/1}. An encoded {@code %3B} is not a separator. Pure.
 */
public final class PathParameters {
  private PathParameters() {}

  /** The raw path without the path parameters of any segment; the same string when it has none. */
  public static String strip(String rawPath) {
    if (rawPath == null || rawPath.indexOf(';') < 0) {
      return rawPath;
    }
    StringBuilder sb = new StringBuilder(rawPath.length());
    boolean inParameters = false;
    for (int i = 0; i < rawPath.length(); i++) {
      char c = rawPath.charAt(i);
      if (c == '/') {
        inParameters = false;
      } else if (c == ';') {
        inParameters = true;
      }
      if (!inParameters) {
        sb.append(c);
      }
    }
    return sb.toString();
  }
}
