package org.pagecache.internal.capture;

import jakarta.servlet.http.Cookie;

/**
 * A request cookie handed to a signed-in visitor's build while it is watched: reading its value
 * makes the build the visitor's own ({@code cookies} in {@link SessionReads}), as the value is not
 * in the page's key. Its name is free to read: finding a keyed cookie means looking at every name,
 * and which names are there is covered by the key (a keyed cookie is keyed as absent too), by the
 * ignore list (cookies declared never to change a page) or is the session cookie of the sign-in.
 */
final class WatchedCookie extends Cookie {
  private static final long serialVersionUID = 1L;
  private final transient SessionReads reads;

  private WatchedCookie(Cookie cookie, SessionReads reads) {
    super(cookie.getName(), cookie.getValue());
    this.reads = reads;
    if (cookie.getDomain() != null) {
      setDomain(cookie.getDomain());
    }
    if (cookie.getPath() != null) {
      setPath(cookie.getPath());
    }
  }

  /** The cookie, watched; a name the constructor refuses (a container's own leniency) counts as read at once. */
  static Cookie of(Cookie cookie, SessionReads reads) {
    try {
      return new WatchedCookie(cookie, reads);
    } catch (IllegalArgumentException e) {
      reads.used("cookies");
      return cookie;
    }
  }

  @Override
  public String getValue() {
    if (reads != null) {
      reads.used("cookies");
    }
    return super.getValue();
  }
}
