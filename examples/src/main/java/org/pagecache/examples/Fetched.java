package org.pagecache.examples;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * One request as the examples print it: {@code GET /slow → 200 MISS in 304 ms}.
 *
 * @param xCache the filter's {@code X-Cache} header: MISS (built now), HIT, STALE or BYPASS
 */
public record Fetched(String method, String path, int status, String xCache, long millis, String body) {
  private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  /** Sends {@code method} (GET, or POST with an empty body) to {@code base + path}, timing it. */
  static Fetched send(String method, URI base, String path, String... headers) {
    HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(30))
        .method(method, HttpRequest.BodyPublishers.noBody());
    if (headers.length > 0) {
      request.headers(headers);
    }
    long start = System.nanoTime();
    try {
      HttpResponse<String> r = CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
      return new Fetched(method, path, r.statusCode(), r.headers().firstValue("X-Cache").orElse("-"),
          (System.nanoTime() - start) / 1_000_000, r.body());
    } catch (IOException e) {
      throw new UncheckedIOException(method + " " + path + " failed", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  @Override
  public String toString() {
    return String.format("%-4s %-32s → %d %-6s in %4d ms", method, path, status, xCache, millis);
  }
}
