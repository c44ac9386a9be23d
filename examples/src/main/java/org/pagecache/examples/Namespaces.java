package org.pagecache.examples;

/** Namespaces for the examples' keys. */
final class Namespaces {
  private Namespaces() {}

  /**
   * A namespace of its own for each run, e.g. {@code slow-mfz3k2a1}: a second run against the same
   * long-lived memcached starts from an empty cache (its first request is a MISS again), and two
   * examples never see each other's pages. Old runs' keys simply expire.
   */
  static String fresh(String example) {
    return example + "-" + Long.toString(System.currentTimeMillis(), 36) + Long.toString(System.nanoTime() % 1296, 36);
  }
}
