package org.pagecache.store;

import org.pagecache.internal.text.KeyParts;

/**
 * Every key PageCache writes, under one namespace and one letter per kind, so that kinds never
 * collide whatever a URL or tag contains:
 * <pre>
 *   ns:p:handler:request   page entry          ns:t:handler   update token
 *   ns:g:tag               tag version         ns:l:page      rebuild lock
 *   ns:v:object            view counter        ns:o:bucket    online bucket
 *   ns:u:visitor           online visitor seen ns:e:handler   evictions of the handler's pages
 *   ns:b:cluster           invalidations waiting for another cluster (issue 37)
 *   ns:i:handler:request   a gzipped page's identity copy, for clients without gzip (issue 38)
 * </pre>
 * The namespace also carries the entry format version, so two application versions in a rolling
 * deploy never read each other's entries.
 *
 * @param name the {@code namespace} parameter, e.g. {@code pc}; keys start with it and
 *     {@link #FORMAT} ({@code pc2:p:...})
 */
public record Namespace(String name) {
  /** Bumped when the stored entry format changes incompatibly. */
  public static final int FORMAT = 2;

  /**
   * Checks the name.
   *
   * @throws IllegalArgumentException when {@code name} is not 1 to 32 characters of A-Z a-z 0-9 _ . -
   */
  public Namespace {
    if (name == null || !name.matches("[A-Za-z0-9_.-]{1,32}")) {
      throw new IllegalArgumentException("namespace: '" + name
          + "' is not a namespace; use 1 to 32 characters of A-Z a-z 0-9 _ . -, e.g. pc");
    }
  }

  private String prefix(char kind) {
    return name + FORMAT + ":" + kind + ":";
  }

  /** The key of one page of a handler; the canonical request is hashed. */
  public String page(String handler, String canonicalRequest) {
    return prefix('p') + KeyParts.part(handler) + ":" + KeyParts.hashed(canonicalRequest);
  }

  /** The key of a handler's update token (the time of its last refresh). */
  public String token(String handler) {
    return prefix('t') + KeyParts.part(handler);
  }

  /**
   * The key that changes whenever a page of the handler is evicted: the near caches of the other
   * JVMs read it with the handler's token, once per {@code near.trust}, instead of each page.
   */
  public String evictions(String handler) {
    return prefix('e') + KeyParts.part(handler);
  }

  /** {@link #evictions(String)} of the handler whose page key this is, or null when it is no page key. */
  public static String evictionsOfPage(String pageKey) {
    int colon = pageKey.indexOf(':');
    int end = pageKey.lastIndexOf(':');
    if (colon < 0 || !pageKey.startsWith("p:", colon + 1) || end <= colon + 3) {
      return null;
    }
    return pageKey.substring(0, colon + 1) + "e:" + pageKey.substring(colon + 3, end);
  }

  /**
   * The key of the identity copy of the page under {@code pageKey} (the same handler and request,
   * kind {@code i}); null when {@code pageKey} is not a page key.
   */
  public static String identityCopyOf(String pageKey) {
    int colon = pageKey.indexOf(':');
    if (colon < 0 || !pageKey.startsWith("p:", colon + 1)) {
      return null;
    }
    return pageKey.substring(0, colon + 1) + "i:" + pageKey.substring(colon + 3);
  }

  /** The key of a tag's version (the time of its last invalidation). */
  public String tag(String tag) {
    return prefix('g') + KeyParts.part(tag);
  }

  /** The lock of a page, derived from the page key so every page has exactly one. */
  public String lock(String pageKey) {
    return prefix('l') + KeyParts.hashed(pageKey);
  }

  /**
   * The key of a fragment's output kept for one user or group ({@code PageCache.fragment} with a
   * TTL); whom it is for is hashed, so no name reaches a key.
   */
  public String fragment(String name, String per) {
    return prefix('f') + KeyParts.part(name) + ":" + KeyParts.hashed(per);
  }

  /** The key of an object's live view counter. */
  public String views(String objectKey) {
    return prefix('v') + KeyParts.part(objectKey);
  }

  /** The key of one bucket of the online count, by the bucket's number. */
  public String onlineBucket(int bucket) {
    return prefix('o') + bucket;
  }

  /**
   * The key of one figure of a handler in one minute, summed over every frontend (the admin
   * page's cluster view); {@code minute} counts minutes since the epoch.
   */
  public String clusterMinute(String handler, String figure, long minute) {
    return prefix('c') + KeyParts.part(handler) + ":" + figure + ":" + minute;
  }

  /** The key counting a handler's pages rebuilt, on every frontend, since the refresh that gave it {@code token}. */
  public String clusterRebuiltSince(String handler, long token) {
    return prefix('r') + KeyParts.part(handler) + ":" + token;
  }

  /**
   * The key of the backlog this cluster keeps for another one ({@code memcached.remote}): the
   * invalidations it has not received yet, written on every node like update tokens, so that any
   * frontend of this cluster delivers them (issue 37).
   */
  public String backlog(String cluster) {
    return prefix('b') + KeyParts.part(cluster);
  }

  /**
   * The key, in a cluster that was emptied because its backlog overflowed or was lost, of the time
   * of the latest such emptying: a second delivery of the same emptying leaves the cluster alone.
   */
  public String emptiedAt() {
    return prefix('b') + "emptied"; // no cluster's key part reads like this: they start with r. or h.
  }

  /** The key that marks a visitor as counted; the visitor id is hashed. */
  public String visitor(String visitorId) {
    return prefix('u') + KeyParts.hashed(visitorId);
  }
}
