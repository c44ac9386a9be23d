package org.pagecache;

/**
 * The names a user gives the cache (handlers, tags): what is accepted, checked where they come in.
 * Names and tags are shown to editors and key memcached entries: bounded, visible characters only.
 */
final class Names {
  static final int MAX_TAGS = 64;
  static final int MAX_TAG_LENGTH = 200;

  private Names() {}

  static void checkName(String what, String name) {
    if (name == null || name.isEmpty() || name.length() > 200 || name.codePoints().anyMatch(Names::invisible)) {
      throw new IllegalArgumentException(what + ": must be 1 to 200 characters without control or invisible formatting characters");
    }
  }

  static void checkTag(String tag) {
    if (!validTag(tag)) {
      throw new IllegalArgumentException("tag: must be 1 to " + MAX_TAG_LENGTH
          + " characters without spaces, commas, control or invisible formatting characters");
    }
  }

  static void checkTags(java.util.Collection<String> tags) {
    if (tags == null || tags.isEmpty()) {
      throw new IllegalArgumentException("tags: none given; e.g. article:42");
    }
    tags.forEach(Names::checkTag);
  }

  static boolean validTag(String tag) {
    return tag != null && !tag.isEmpty() && tag.length() <= MAX_TAG_LENGTH
        && tag.codePoints().noneMatch(c -> c == ' ' || c == ',' || invisible(c));
  }

  /**
   * Control characters (C0 and C1), and characters that change how the text around them is
   * shown (bidi overrides, zero-width space, soft hyphen, line separators, tag characters): a
   * name or tag shown to editors is what it looks like. The zero-width joiner and non-joiner are
   * letters' business in Persian, Hindi and emoji, and stay allowed.
   */
  private static boolean invisible(int codePoint) {
    int type = Character.getType(codePoint);
    return Character.isISOControl(codePoint)
        || type == Character.FORMAT && codePoint != 0x200C && codePoint != 0x200D
        || type == Character.LINE_SEPARATOR || type == Character.PARAGRAPH_SEPARATOR;
  }
}
