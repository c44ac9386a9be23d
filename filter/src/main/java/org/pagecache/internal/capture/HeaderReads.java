package org.pagecache.internal.capture;

import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The request headers a handler read while the filter watched (through {@link WatchedRequest}),
 * and whether it read a cookie: the evidence that tells an operator which inputs a page really
 * depends on. Only reads through the request object PageCache passes on are seen; a filter placed
 * before PageCache reads the container's request directly.
 */
public final class HeaderReads {
  private final Set<String> names = ConcurrentHashMap.newKeySet();
  private final Set<String> parameters = ConcurrentHashMap.newKeySet();
  private volatile boolean cookies;
  private volatile boolean body;
  private volatile boolean wholeQuery;
  private volatile boolean paused;

  void header(String name) {
    if (name == null || paused) {
      return;
    }
    String lower = name.toLowerCase(Locale.ROOT);
    if (lower.equals("cookie")) {
      cookies = true;
    } else {
      names.add(lower);
    }
  }

  void cookies() {
    if (!paused) {
      cookies = true;
    }
  }

  void parameter(String name) {
    if (!paused) {
      parameters.add(name);
    }
  }

  /**
   * The query parameters the page's key left out (tracking parameters; under {@code params=read} any
   * the handler's record does not hold yet) the handler asked for by name: evidence that its pages
   * depend on them.
   */
  public Set<String> parameters() {
    return parameters;
  }

  void wholeQuery() {
    if (!paused) {
      wholeQuery = true;
    }
  }

  /**
   * True when, under {@code params=read}, the handler read something that sees every parameter at
   * once: {@code getParameterMap}, {@code getParameterNames}, {@code getQueryString}, or a query string
   * attribute of a forward, include, async or error dispatch.
   */
  public boolean readWholeQuery() {
    return wholeQuery;
  }

  /** Counted even while paused: whoever reads a body during a build, the page may show it. */
  void body() {
    body = true;
  }

  /** True when the build read a byte (or a character) of a request body. */
  public boolean readBody() {
    return body;
  }

  /** Reads between an async dispatch and the filter (filters before PageCache's) are not the page's. */
  void pause(boolean paused) {
    this.paused = paused;
  }

  /** The names read, lower case; {@code Cookie} is not among them (see {@link #readCookies()}). */
  public Set<String> names() {
    return names;
  }

  /** True when the handler read the cookies ({@code getCookies()} or the {@code Cookie} header). */
  public boolean readCookies() {
    return cookies;
  }
}
