package org.pagecache.internal.nodes;

import java.nio.charset.StandardCharsets;
import org.pagecache.internal.text.StoredNumbers;
import org.pagecache.store.Store;

/**
 * Control values lead with a decimal number that only grows (a token, a tag version, or the
 * version of a backlog kept for another cluster, followed by its entries); this raises one
 * replica of one.
 */
final class ControlValues {
  private static final int MAX_ATTEMPTS = 10;

  private ControlValues() {}

  /** How a conditional raise of one replica ended. */
  enum Raise { RAISED, OVERTAKEN }

  /**
   * Raises the node's value to {@code value} if it holds at most {@code expected} (or nothing: a
   * node that missed writes is raised with the others); OVERTAKEN when it holds more than
   * {@code expected}: another writer got there first, and each raise must be its own value.
   */
  static Raise raise(Store node, String key, byte[] value, long expected, int ttlSeconds) {
    for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      Store.Versioned current = node.gets(key);
      if (current == null) {
        if (node.add(key, value, ttlSeconds)) {
          return Raise.RAISED;
        }
        continue;
      }
      long held = parse(current.value());
      if (held > expected) {
        return Raise.OVERTAKEN; // another writer since the read: each write its own value
      }
      if (node.cas(key, value, current.casUnique(), ttlSeconds)) {
        return Raise.RAISED;
      }
    }
    return Raise.OVERTAKEN;
  }

  /**
   * The number a stored value leads with (up to the first space or line end); anything else reads
   * as 0 (the lowest, so it is raised over).
   */
  static long parse(byte[] value) {
    if (value == null) {
      return 0;
    }
    String first = new String(value, 0, lineEnd(value), StandardCharsets.US_ASCII).trim(); // incr pads with spaces
    int space = first.indexOf(' ');
    return StoredNumbers.parse((space < 0 ? first : first.substring(0, space)).getBytes(StandardCharsets.US_ASCII));
  }

  private static int lineEnd(byte[] value) {
    for (int i = 0; i < value.length; i++) {
      if (value[i] == '\n') {
        return i;
      }
    }
    return value.length;
  }
}
