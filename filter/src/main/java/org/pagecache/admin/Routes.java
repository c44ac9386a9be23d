package org.pagecache.admin;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Which endpoint a request is for, from its method and its raw (still percent-encoded) path below
 * the servlet's path. Pure: no servlet API, so every route, 404 and 405 is unit-testable.
 *
 * <pre>
 *   GET  /                              the admin page          POST /refresh, /invalidate, /evict   its forms
 *   GET  /api/stats                     counters and memcached  POST /api/handlers/{name}/refresh
 *   POST /api/tags/{tag}/invalidate     POST /api/evict?url=...
 *   POST /api/tags/{tag}/purge          POST /api/tags/invalidate?tag=a&tag=b   POST /api/tags/purge?tag=a&tag=b
 * </pre>
 *
 * Path segments are split on the raw path and then percent-decoded (UTF-8), so a tag may contain
 * an encoded slash ({@code %2F}) without changing the route.
 */
final class Routes {
  static final String LIST = "GET /api/stats, POST /api/handlers/{name}/refresh, "
      + "POST /api/tags/{tag}/invalidate, POST /api/tags/{tag}/purge, POST /api/tags/invalidate?tag=..., "
      + "POST /api/tags/purge?tag=..., POST /api/evict?url=...";
  private static final String READ = "GET, HEAD";
  private static final String WRITE = "POST";

  private Routes() {}

  /** What a request asks for. */
  enum Endpoint {
    PAGE(false), FORM_REFRESH(false), FORM_INVALIDATE(false), FORM_EVICT(false),
    STATS(true), REFRESH(true), INVALIDATE(true), PURGE(true), EVICT(true);

    final boolean api;

    Endpoint(boolean api) {
      this.api = api;
    }

    boolean changesState() {
      return this != PAGE && this != STATS;
    }
  }

  /**
   * An endpoint and its path argument (the handler name or tag, decoded), or null when it has none
   * (for INVALIDATE and PURGE: the tags are the request's {@code tag} parameters).
   */
  record Route(Endpoint endpoint, String argument) {}

  /** Whether errors on this path are answered in JSON: everything below {@code /api}. */
  static boolean isApi(String rawPath) {
    return rawPath != null && (rawPath.equals("/api") || rawPath.startsWith("/api/"));
  }

  /**
   * The route of a request.
   *
   * @param rawPath the path below the servlet path, percent-encoded as sent; null or "" for the servlet's own path
   * @throws HttpError 404 for an unknown path, 405 for a known path with the wrong method, 400 for
   *     a segment that is not valid percent-encoded UTF-8
   */
  static Route match(String method, String rawPath) {
    String path = rawPath == null || rawPath.isEmpty() ? "/" : rawPath;
    String[] s = path.substring(1).split("/", -1);
    if (path.equals("/")) {
      return allow(method, READ, Endpoint.PAGE, null);
    }
    if (s.length == 1) {
      switch (s[0]) {
        case "refresh" -> {
          return allow(method, WRITE, Endpoint.FORM_REFRESH, null);
        }
        case "invalidate" -> {
          return allow(method, WRITE, Endpoint.FORM_INVALIDATE, null);
        }
        case "evict" -> {
          return allow(method, WRITE, Endpoint.FORM_EVICT, null);
        }
        default -> throw notFound(method, path);
      }
    }
    if (!s[0].equals("api")) {
      throw notFound(method, path);
    }
    if (s.length == 2 && s[1].equals("stats")) {
      return allow(method, READ, Endpoint.STATS, null);
    }
    if (s.length == 2 && s[1].equals("evict")) {
      return allow(method, WRITE, Endpoint.EVICT, null);
    }
    if (s.length == 4 && s[1].equals("handlers") && s[3].equals("refresh")) {
      return allow(method, WRITE, Endpoint.REFRESH, decode(s[2]));
    }
    if (s.length == 4 && s[1].equals("tags") && s[3].equals("invalidate")) {
      return allow(method, WRITE, Endpoint.INVALIDATE, decode(s[2]));
    }
    if (s.length == 4 && s[1].equals("tags") && s[3].equals("purge")) {
      return allow(method, WRITE, Endpoint.PURGE, decode(s[2]));
    }
    if (s.length == 3 && s[1].equals("tags") && (s[2].equals("invalidate") || s[2].equals("purge"))) {
      return allow(method, WRITE, s[2].equals("purge") ? Endpoint.PURGE : Endpoint.INVALIDATE, null);
    }
    throw notFound(method, path);
  }

  private static Route allow(String method, String allowed, Endpoint endpoint, String argument) {
    boolean ok = allowed.equals(WRITE) ? method.equals("POST") : method.equals("GET") || method.equals("HEAD");
    if (!ok) {
      throw HttpError.methodNotAllowed(method, allowed);
    }
    return new Route(endpoint, argument);
  }

  private static HttpError notFound(String method, String path) {
    String shown = path.length() > 200 ? path.substring(0, 200) + "..." : path;
    return HttpError.of(404, "no admin route " + method + " " + shown + "; routes: GET / (this page), " + LIST);
  }

  /** Strict percent-decoding of one path segment ('+' stays '+': that rule is for query strings). */
  static String decode(String segment) {
    if (segment.indexOf('%') < 0) {
      return segment;
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(segment.length());
    int i = 0;
    while (i < segment.length()) {
      int percent = segment.indexOf('%', i);
      int end = percent < 0 ? segment.length() : percent;
      bytes.writeBytes(segment.substring(i, end).getBytes(StandardCharsets.UTF_8));
      if (percent < 0) {
        break;
      }
      int hi = percent + 2 < segment.length() ? Character.digit(segment.charAt(percent + 1), 16) : -1;
      int lo = hi >= 0 ? Character.digit(segment.charAt(percent + 2), 16) : -1;
      if (lo < 0) {
        throw HttpError.of(400, "path: '%' must be followed by two hex digits (percent-encoding)");
      }
      bytes.write(hi * 16 + lo);
      i = percent + 3;
    }
    try {
      return StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes.toByteArray()))
          .toString();
    } catch (CharacterCodingException e) {
      throw HttpError.of(400, "path: a percent-encoded segment is not valid UTF-8");
    }
  }
}
