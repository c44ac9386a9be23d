package org.pagecache.stats;

/**
 * What one cookie name did to a handler's requests (docs/safety.md: the evidence for an ignore rule).
 *
 * @param requests requests it made bypass
 * @param handlerReadCookies how many of them the handler read a cookie in
 */
public record CookieBypasses(long requests, long handlerReadCookies) {}
