package org.pagecache.store;

/** memcached's key rules, checked the same way by every store implementation. */
public final class Keys {
  /** memcached's longest key, in bytes (keys are ASCII, so also in characters). */
  public static final int MAX_KEY_BYTES = 250;

  private Keys() {}

  /** True when memcached's text protocol accepts the key as it is. */
  public static boolean isValid(String key) {
    if (key == null || key.isEmpty() || key.length() > MAX_KEY_BYTES) {
      return false;
    }
    for (int i = 0; i < key.length(); i++) {
      char c = key.charAt(i);
      if (c <= 0x20 || c >= 0x7f) {
        return false;
      }
    }
    return true;
  }

  /**
   * Throws with the offending key (shortened) when it breaks the rules.
   *
   * @return {@code key}, unchanged
   * @throws IllegalArgumentException when the key is null, empty, longer than
   *     {@link #MAX_KEY_BYTES}, or holds spaces, control or non-ASCII characters
   */
  public static String check(String key) {
    if (!isValid(key)) {
      String shown = key == null ? "null" : key.length() > 60 ? key.substring(0, 60) + "..." : key;
      throw new IllegalArgumentException("invalid memcached key (length "
          + (key == null ? 0 : key.length()) + "): '" + shown.replaceAll("\\p{Cntrl}", "?") + "'");
    }
    return key;
  }
}
