package org.pagecache.internal.text;

import java.nio.charset.StandardCharsets;

/**
 * Numbers as memcached holds them (decimal ASCII, as incr needs): update tokens, tag versions.
 * Shared by the freshness rules and the per-node store, which both read them back.
 */
public final class StoredNumbers {
  private StoredNumbers() {}

  /** The decimal form memcached stores. */
  public static byte[] encode(long value) {
    return Long.toString(value).getBytes(StandardCharsets.US_ASCII);
  }

  /** A stored number; nothing or garbage reads as 0, the lowest (incr may pad with spaces). */
  public static long parse(byte[] value) {
    if (value == null) {
      return 0;
    }
    try {
      return Long.parseLong(new String(value, StandardCharsets.US_ASCII).trim());
    } catch (NumberFormatException e) {
      return 0;
    }
  }
}
