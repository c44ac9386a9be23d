package org.pagecache.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/** A real HTTP client for tests: java.net.http for ordinary requests, a raw socket for hostile ones. */
public final class Http {
  private static final HttpClient CLIENT = HttpClient.newBuilder()
      .version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(5))
      .followRedirects(HttpClient.Redirect.NEVER)
      .build();

  private Http() {}

  public static HttpResponse<byte[]> get(URI uri, String... headers) {
    return send("GET", uri, headers);
  }

  public static HttpResponse<byte[]> head(URI uri, String... headers) {
    return send("HEAD", uri, headers);
  }

  public static HttpResponse<byte[]> post(URI uri, String body, String... headers) {
    HttpRequest.Builder b = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30))
        .POST(HttpRequest.BodyPublishers.ofString(body));
    if (headers.length > 0) {
      b.headers(headers);
    }
    return call(b.build());
  }

  /** A request with name/value header pairs. */
  public static HttpResponse<byte[]> send(String method, URI uri, String... headers) {
    HttpRequest.Builder b = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30))
        .method(method, HttpRequest.BodyPublishers.noBody());
    if (headers.length > 0) {
      b.headers(headers);
    }
    return call(b.build());
  }

  /** A request built by the caller (a GET with a body, say). */
  public static HttpResponse<byte[]> send(HttpRequest request) {
    return call(request);
  }

  private static HttpResponse<byte[]> call(HttpRequest request) {
    try {
      return CLIENT.send(request, HttpResponse.BodyHandlers.ofByteArray());
    } catch (IOException e) {
      throw new IllegalStateException(request.method() + " " + request.uri() + " failed: " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  public static String text(HttpResponse<byte[]> response) {
    return new String(response.body(), StandardCharsets.UTF_8);
  }

  /** The raw response (status line, headers, body) to a request written byte for byte. */
  public static String raw(int port, String requestHead) {
    try (Socket socket = new Socket("127.0.0.1", port)) {
      socket.setSoTimeout(10_000);
      OutputStream out = socket.getOutputStream();
      out.write(requestHead.getBytes(StandardCharsets.ISO_8859_1));
      out.flush();
      InputStream in = socket.getInputStream();
      ByteArrayOutputStream got = new ByteArrayOutputStream();
      in.transferTo(got);
      return got.toString(StandardCharsets.ISO_8859_1);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The raw response to raw request bytes (for non-ASCII request lines). */
  public static String raw(int port, byte[] request) {
    return raw(port, new String(request, StandardCharsets.ISO_8859_1));
  }
}
