package org.pagecache.internal.nodes;

import org.pagecache.store.Namespace;

/**
 * What a key is for, read from its kind letter (see {@link Namespace}), which decides where it may
 * live while its node is down.
 */
enum KeyKind {
  /** Pages, their identity copies and rebuild locks: short-lived in the gutter while their node is down. */
  GUTTERABLE,
  /**
   * Update tokens, tag versions and the backlogs kept for other clusters: values that lead with a
   * number that only grows, kept on every node.
   */
  CONTROL,
  /** Counters and anything else: on their node only; they fail while it is down. */
  NODE_ONLY;

  /** Classifies keys of one namespace. */
  static final class Classifier {
    private final String prefix;

    Classifier(Namespace namespace) {
      this.prefix = namespace.name() + Namespace.FORMAT + ":";
    }

    /**
     * The handler part of a page key ({@code ns:p:handler:request}) or of its identity copy's
     * ({@code ns:i:...}, placed as the page is), null for any other key.
     */
    String handlerPartOfPage(String key) {
      int at = prefix.length();
      if (key.length() <= at + 2 || !key.startsWith(prefix) || (key.charAt(at) != 'p' && key.charAt(at) != 'i')
          || key.charAt(at + 1) != ':') {
        return null;
      }
      int end = key.indexOf(':', at + 2);
      return end < 0 ? null : key.substring(at + 2, end);
    }

    KeyKind of(String key) {
      if (key.length() <= prefix.length() + 1 || !key.startsWith(prefix) || key.charAt(prefix.length() + 1) != ':') {
        return NODE_ONLY;
      }
      return switch (key.charAt(prefix.length())) {
        case 'p', 'i', 'l' -> GUTTERABLE;
        case 't', 'g', 'b' -> CONTROL;
        default -> NODE_ONLY;
      };
    }
  }
}
