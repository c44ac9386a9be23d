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

  /**
   * Why a page naming these tags may not be stored ({@code too-many-tags}, {@code tag-too-long},
   * {@code invalid-tag}), or null when every one can be recorded: a page is stored only if a purge
   * of any tag it named reaches it.
   */
  static String tagRefusal(java.util.Collection<String> tags) {
    if (tags.size() > MAX_TAGS) {
      return "too-many-tags";
    }
    for (String tag : tags) {
      if (tag != null && tag.length() > MAX_TAG_LENGTH) {
        return "tag-too-long";
      }
    }
    return tags.stream().allMatch(Names::validTag) ? null : "invalid-tag";
  }

  /** What {@link #tagRefusal} found, for the log: counts and lengths, never a tag. */
  static String tagRefusalDetail(String reason, java.util.Collection<String> tags) {
    return switch (reason) {
      case "too-many-tags" -> tags.size() + " tags, more than " + MAX_TAGS;
      case "tag-too-long" -> "a tag of " + tags.stream().mapToInt(t -> t == null ? 0 : t.length()).max().orElse(0)
          + " characters, more than " + MAX_TAG_LENGTH;
      default -> "a tag that is empty or holds a space, comma, control or invisible formatting character";
    };
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
