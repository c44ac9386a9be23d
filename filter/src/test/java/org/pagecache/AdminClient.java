package org.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.CookieManager;
import java.net.CookiePolicy;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.StringJoiner;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An HTTP client with its own cookie jar: what a browser does for the admin servlet (FORM sign-in,
 * session cookie, forms with the CSRF token), without a browser. Redirects are not followed, so
 * tests see the 303 of POST-redirect-GET.
 *
 * <pre>
 *   AdminClient editor = AdminClient.signIn(site, "editor", "editor");
 *   editor.postForm(site.admin("/refresh"), Map.of("handler", "article", "csrf", editor.csrf()));
 * </pre>
 */
final class AdminClient {
  private static final Pattern CSRF_META = Pattern.compile("<meta name=\"csrf-token\" content=\"([^\"]+)\">");

  private final AdminSite site;
  private final HttpClient http;

  private AdminClient(AdminSite site) {
    this.site = site;
    this.http = HttpClient.newBuilder()
        .version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(5))
        .cookieHandler(new CookieManager(null, CookiePolicy.ACCEPT_ALL))
        .followRedirects(HttpClient.Redirect.NEVER)
        .build();
  }

  /** A client with no session and no credentials. */
  static AdminClient anonymous(AdminSite site) {
    return new AdminClient(site);
  }

  /** Signs in through the container's FORM authentication, as a browser would. */
  static AdminClient signIn(AdminSite site, String user, String password) {
    AdminClient c = new AdminClient(site);
    HttpResponse<String> protectedPage = c.get(site.admin("/"));
    assertTrue(redirect(protectedPage), "the container sends signed-out users to the sign-in page");
    assertTrue(protectedPage.headers().firstValue("Location").orElse("").contains("/login"));
    HttpResponse<String> signedIn = c.postForm(site.uri("/j_security_check"), Map.of("j_username", user, "j_password", password));
    assertTrue(redirect(signedIn), "sign-in redirects back");
    assertTrue(!signedIn.headers().firstValue("Location").orElse("").contains("error"), "sign-in of " + user + " failed");
    return c;
  }

  static boolean redirect(HttpResponse<?> r) {
    return r.statusCode() == 302 || r.statusCode() == 303;
  }

  /** The CSRF token of this client's session, read from the admin page like a script would. */
  String csrf() {
    HttpResponse<String> page = get(site.admin("/"));
    assertEquals(200, page.statusCode(), page.body());
    Matcher m = CSRF_META.matcher(page.body());
    assertTrue(m.find(), "the admin page carries <meta name=\"csrf-token\">");
    return m.group(1);
  }

  HttpResponse<String> get(URI uri, String... headers) {
    return send(HttpRequest.newBuilder(uri).GET(), headers);
  }

  /** An empty POST (API calls). */
  HttpResponse<String> post(URI uri, String... headers) {
    return send(HttpRequest.newBuilder(uri).POST(HttpRequest.BodyPublishers.noBody()), headers);
  }

  /** A POST of an HTML form (application/x-www-form-urlencoded, UTF-8). */
  HttpResponse<String> postForm(URI uri, Map<String, String> fields, String... headers) {
    StringJoiner body = new StringJoiner("&");
    fields.forEach((k, v) -> body.add(URLEncoder.encode(k, StandardCharsets.UTF_8) + "=" + URLEncoder.encode(v, StandardCharsets.UTF_8)));
    HttpRequest.Builder b = HttpRequest.newBuilder(uri)
        .header("Content-Type", "application/x-www-form-urlencoded")
        .POST(HttpRequest.BodyPublishers.ofString(body.toString()));
    return send(b, headers);
  }

  HttpResponse<String> send(String method, URI uri, String... headers) {
    return send(HttpRequest.newBuilder(uri).method(method, HttpRequest.BodyPublishers.noBody()), headers);
  }

  private HttpResponse<String> send(HttpRequest.Builder b, String... headers) {
    b.timeout(Duration.ofSeconds(30));
    if (headers.length > 0) {
      b.headers(headers);
    }
    HttpRequest request = b.build();
    try {
      return http.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new IllegalStateException(request.method() + " " + request.uri() + " failed: " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
