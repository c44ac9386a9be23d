package org.pagecache.internal.capture;

import java.io.IOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Base64;
import java.util.Locale;
import org.pagecache.internal.gzip.Gzip;

/** How a stored body is encoded: which types are worth compressing, gzip both ways, its strong validator. */
public final class BodyEncoding {
  /** Below this size gzip saves too little to be worth the header and the work. */
  static final int MIN_GZIP_BYTES = 256;

  private BodyEncoding() {}

  public static boolean compressible(String contentType, int length) {
    if (contentType == null || length < MIN_GZIP_BYTES) {
      return false;
    }
    String t = contentType.toLowerCase(Locale.ROOT);
    int semi = t.indexOf(';');
    if (semi >= 0) {
      t = t.substring(0, semi).trim();
    }
    return t.startsWith("text/") || t.endsWith("+xml") || t.endsWith("+json")
        || t.equals("application/json") || t.equals("application/javascript")
        || t.equals("application/xml") || t.equals("image/svg+xml");
  }

  public static byte[] gzip(byte[] body) {
    return Gzip.compress(body);
  }

  /** Decompresses; the size bound keeps a hostile entry from inflating without limit. */
  public static byte[] gunzip(byte[] body, int maxBytes) throws IOException {
    return Gzip.decompress(body, maxBytes);
  }

  /** A strong validator of the identity body: 128 bits of SHA-256, URL-safe base64. */
  public static String etag(byte[] identity) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(identity);
      return Base64.getUrlEncoder().withoutPadding().encodeToString(Arrays.copyOf(digest, 16));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
