package org.pagecache.demo;

import java.io.IOException;
import java.net.CookieManager;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.StringJoiner;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What an editor's browser does in the tests: signs in with Basic credentials, keeps the session
 * cookie, reads the CSRF token from the edit form and posts it back, as the form would.
 *
 * <pre>
 *   EditorClient editor = new EditorClient(site::uri, "editor", "editor");
 *   editor.save(35, "New headline", "New text.");   // 303 to /cms/edit?id=35&amp;saved=invalidated
 * </pre>
 */
final class EditorClient {
  private static final Pattern CSRF = Pattern.compile("name=\"csrf\" value=\"([^\"]+)\"");

  private final Function<String, URI> uri;
  private final String authorization;
  private final HttpClient client = HttpClient.newBuilder()
      .cookieHandler(new CookieManager())
      .followRedirects(HttpClient.Redirect.NEVER)
      .connectTimeout(Duration.ofSeconds(5))
      .build();

  EditorClient(Function<String, URI> uri, String user, String password) {
    this.uri = uri;
    this.authorization = user == null ? null
        : "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
  }

  HttpResponse<String> get(String path) {
    return send(request(path).GET().build());
  }

  HttpResponse<String> post(String path, Map<String, String> form) {
    StringJoiner body = new StringJoiner("&");
    form.forEach((k, v) -> body.add(URLEncoder.encode(k, StandardCharsets.UTF_8) + "=" + URLEncoder.encode(v, StandardCharsets.UTF_8)));
    return send(request(path).header("Content-Type", "application/x-www-form-urlencoded")
        .POST(HttpRequest.BodyPublishers.ofString(body.toString())).build());
  }

  /** The CSRF token of the edit form of article {@code id}. */
  String csrfToken(long id) {
    HttpResponse<String> form = get("/cms/edit?id=" + id);
    if (form.statusCode() != 200) {
      throw new IllegalStateException("GET /cms/edit?id=" + id + " answered " + form.statusCode());
    }
    Matcher m = CSRF.matcher(form.body());
    if (!m.find()) {
      throw new IllegalStateException("no csrf field in the edit form of article " + id);
    }
    return m.group(1);
  }

  /** Opens the edit form and saves new title and body, as the Save button does. */
  HttpResponse<String> save(long id, String title, String body) {
    Map<String, String> form = new LinkedHashMap<>();
    form.put("id", Long.toString(id));
    form.put("title", title);
    form.put("body", body);
    form.put("csrf", csrfToken(id));
    return post("/cms/edit", form);
  }

  private HttpRequest.Builder request(String path) {
    HttpRequest.Builder b = HttpRequest.newBuilder(uri.apply(path)).timeout(Duration.ofSeconds(30));
    if (authorization != null) {
      b.header("Authorization", authorization);
    }
    return b;
  }

  private HttpResponse<String> send(HttpRequest request) {
    try {
      return client.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new IllegalStateException(request.method() + " " + request.uri() + " failed: " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
