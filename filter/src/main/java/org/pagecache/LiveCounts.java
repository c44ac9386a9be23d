package org.pagecache;

import jakarta.servlet.ServletRequest;
import jakarta.servlet.http.HttpServletRequest;
import java.nio.charset.Charset;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.StandardCharsets;
import java.nio.charset.UnsupportedCharsetException;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.pagecache.counters.Counters;
import org.pagecache.internal.fragments.Fragments;
import org.pagecache.internal.fragments.Placeholders;
import org.pagecache.internal.fragments.Placeholders.Placeholder;
import org.pagecache.internal.stats.HandlerRecorder;

/**
 * Fills in what a cached page shows live, each time it is served, through the one placeholder
 * mechanism ({@link Placeholders}): counts the views a page declared (hit or miss), and replaces its
 * placeholders in page order with the counts (one multi-get), how this copy was served, and the
 * application's fragments for this visitor ({@link Fragments}). The stored page keeps them.
 */
final class LiveCounts {
  private final Counters counters;
  private final Fragments fragments;

  LiveCounts(Counters counters, Fragments fragments) {
    this.counters = counters;
    this.fragments = fragments;
  }

  /** Counts one view of each object; returns the new counts (reused when rendering the page). */
  Map<String, Long> count(Collection<String> objectKeys) {
    Map<String, Long> counts = new LinkedHashMap<>();
    for (String key : objectKeys) {
      counts.put(key, counters.viewed(key));
    }
    return counts;
  }

  /** The views a handler declared with {@link PageCache#countView} while it ran. */
  static List<String> declared(ServletRequest request) {
    Object declared = request.getAttribute(Declared.VIEWS_ATTRIBUTE);
    if (!(declared instanceof List<?> list)) {
      return List.of();
    }
    synchronized (list) {
      return list.stream().map(String::valueOf).distinct().limit(Names.MAX_TAGS).toList();
    }
  }

  /**
   * A stored page's parts for one serve: one per placeholder in page order (null keeps the
   * placeholder's own text), and the entity tag of the page they fill in.
   */
  record Filled(List<Placeholder> placeholders, byte[][] parts, String etag) {
    /** The identity body: {@code body} with the parts in place. */
    byte[] identity(byte[] body) {
      int[] next = {0};
      return Placeholders.render(body, placeholders, p -> parts[next[0]++]);
    }
  }

  /**
   * The parts of a stored page for the visitor of {@code req} (as {@link #render}, without building
   * the body): its entity tag is the SHA-256 of the stored page's own tag and the parts filled in
   * (each with its length), so it differs exactly when what is sent differs, without hashing the
   * whole body on every serve.
   *
   * @param found the page's placeholders, as {@link Placeholders#find} gives them
   */
  Filled fill(HttpServletRequest req, HandlerRecorder stats, List<Placeholder> found, String storedTag,
      String contentType, Map<String, Long> known, String cache) {
    MessageDigest digest = sha256();
    digest.update(storedTag.getBytes(StandardCharsets.US_ASCII));
    byte[][] parts = parts(req, stats, found, contentType, known, cache);
    for (byte[] part : parts) {
      digest.update(ByteBuffer.allocate(4).putInt(part == null ? -1 : part.length).array());
      if (part != null) {
        digest.update(part);
      }
    }
    return new Filled(found, parts,
        Base64.getUrlEncoder().withoutPadding().encodeToString(Arrays.copyOf(digest.digest(), 16)));
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e); // every JVM has SHA-256
    }
  }

  /**
   * The body with current values in its placeholders, for the visitor of {@code req}.
   *
   * @param contentType the page's Content-Type: fragments are written in its charset (UTF-8 when it names none)
   * @param known counts already at hand
   * @param cache how this response is served (HIT, MISS, ...)
   */
  byte[] render(HttpServletRequest req, HandlerRecorder stats, byte[] body, String contentType,
      Map<String, Long> known, String cache) {
    List<Placeholder> found = Placeholders.find(body);
    if (found.isEmpty()) {
      return body;
    }
    return new Filled(found, parts(req, stats, found, contentType, known, cache), null).identity(body);
  }

  /** Each placeholder's current value, in page order: one multi-get for the counts, each renderer once. */
  private byte[][] parts(HttpServletRequest req, HandlerRecorder stats, List<Placeholder> found, String contentType,
      Map<String, Long> known, String cache) {
    byte[][] parts = new byte[found.size()][];
    if (found.isEmpty()) {
      return parts;
    }
    Map<String, Long> views = new LinkedHashMap<>(known);
    List<String> missing = Placeholders.viewKeys(found).stream().filter(k -> !views.containsKey(k)).toList();
    if (!missing.isEmpty()) {
      views.putAll(counters.views(missing));
    }
    long online = Placeholders.wantsOnline(found) ? counters.online() : -1;
    Charset charset = charset(contentType);
    for (int i = 0; i < parts.length; i++) {
      Placeholder p = found.get(i);
      parts[i] = switch (p.kind()) {
        case VIEWS -> digits(views.get(p.arg()));
        case ONLINE -> digits(online);
        case CACHE -> cache == null ? null : cache.getBytes(StandardCharsets.US_ASCII);
        case FRAGMENT -> fragments.render(p.arg(), req, charset, stats);
      };
    }
    return parts;
  }

  /** A count as plain digits; an unknown or unavailable one as nothing, so a page never shows a broken value. */
  private static byte[] digits(Long value) {
    return value == null || value < 0 ? new byte[0] : Long.toString(value).getBytes(StandardCharsets.US_ASCII);
  }

  static Charset charset(String contentType) {
    if (contentType != null) {
      for (String param : contentType.split(";")) {
        String p = param.trim();
        if (p.toLowerCase(Locale.ROOT).startsWith("charset=")) {
          try {
            return Charset.forName(p.substring("charset=".length()).replace("\"", "").trim());
          } catch (IllegalCharsetNameException | UnsupportedCharsetException e) {
            return StandardCharsets.UTF_8;
          }
        }
      }
    }
    return StandardCharsets.UTF_8;
  }
}
