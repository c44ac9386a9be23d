package org.pagecache.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.pagecache.testing.Http;

/** Spring Security's form login over real HTTP, for the starter's tests: the session cookie and the CSRF token. */
public final class SecurityForms {
  private static final Pattern SESSION_COOKIE = Pattern.compile("^(JSESSIONID=[^;]+)");
  private static final Pattern CSRF_FIELD = Pattern.compile("name=\"_csrf\"[^>]*value=\"([^\"]+)\"");

  private SecurityForms() {}

  /** Signs in at {@code base/login} with the form's CSRF token; returns the signed-in session's cookie. */
  public static String signIn(URI base, String user, String password) {
    HttpResponse<byte[]> form = Http.get(base.resolve("/login"));
    String body = "username=" + user + "&password=" + password + "&_csrf="
        + URLEncoder.encode(csrfToken(Http.text(form)), StandardCharsets.UTF_8);
    HttpResponse<byte[]> signedIn = Http.post(base.resolve("/login"), body, "Cookie", sessionCookie(form),
        "Content-Type", "application/x-www-form-urlencoded");
    assertEquals(302, signedIn.statusCode());
    assertFalse(signedIn.headers().firstValue("Location").orElse("").contains("error"), "signed in");
    return sessionCookie(signedIn);
  }

  /** The {@code JSESSIONID=...} pair the response sets. */
  public static String sessionCookie(HttpResponse<byte[]> r) {
    for (String c : r.headers().allValues("Set-Cookie")) {
      Matcher m = SESSION_COOKIE.matcher(c);
      if (m.find()) {
        return m.group(1);
      }
    }
    throw new AssertionError("no session cookie in " + r.headers().map());
  }

  /** The value of the page's {@code _csrf} field. */
  public static String csrfToken(String html) {
    Matcher m = CSRF_FIELD.matcher(html);
    assertTrue(m.find(), html);
    return m.group(1);
  }
}
