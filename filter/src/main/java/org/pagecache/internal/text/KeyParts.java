package org.pagecache.internal.text;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

/**
 * Turns arbitrary text (handler names, URLs, tags, object keys) into a piece of a memcached key
 * that is always valid. Safe short text stays readable ({@code r.} prefix); anything else is a
 * SHA-256 hash in URL-safe base64 ({@code h.} prefix). The prefixes keep the two forms apart, so
 * no raw text can ever equal the hash of another.
 */
public final class KeyParts {
  /** Longest text kept readable; longer text is hashed (43 chars), keeping whole keys far under 250 bytes. */
  public static final int MAX_READABLE = 64;

  private KeyParts() {}

  /** A valid key part for {@code text}: readable when short and plain, hashed otherwise. */
  public static String part(String text) {
    if (isReadable(text)) {
      return "r." + text;
    }
    return "h." + sha256(text);
  }

  /** Always the hash form; for long canonical strings that are never meant to be read. */
  public static String hashed(String text) {
    return "h." + sha256(text);
  }

  /** SHA-256 of the UTF-8 text, URL-safe base64 without padding (43 characters). */
  public static String sha256(String text) {
    return Base64.getUrlEncoder().withoutPadding().encodeToString(digest(text.getBytes(StandardCharsets.UTF_8)));
  }

  static byte[] digest(byte[] bytes) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(bytes);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required by every Java platform", e);
    }
  }

  private static boolean isReadable(String text) {
    if (text == null || text.isEmpty() || text.length() > MAX_READABLE) {
      return false;
    }
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      boolean plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
          || c == '-' || c == '_' || c == '.' || c == '/' || c == ':' || c == '=' || c == '&' || c == ',';
      if (!plain) {
        return false;
      }
    }
    return true;
  }
}
