package org.pagecache.internal.key;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Cookies that applications read to render a page are never on the built-in ignore list, by name or
 * by a pattern: ignoring one would serve one visitor's session, sign-in, language, currency or cart
 * page to others. The names come from the servlet containers and the common frameworks.
 */
class CookiesApplicationsReadTest {
  static final List<String> READ_BY_APPLICATIONS = List.of(
      // sessions: servlet containers, Spring Session, PHP, Node, Rails, Django, Laravel, ASP.NET, others
      "JSESSIONID", "JSESSIONIDSSO", "SESSION", "SESSIONID", "PHPSESSID", "__Secure-PHPSESSID", "connect.sid",
      "sessionid", "session", "session_id", "sid", "_session_id", "_rails_session", "rack.session", "laravel_session",
      "ci_session", "ASP.NET_SessionId", ".AspNetCore.Session", "PLAY_SESSION", "CGISESSID", "frontend",
      "KEYCLOAK_SESSION", "AUTH_SESSION_ID", "xf_session", "wires",
      // sign-in and remember-me
      "remember-me", "remember_me", "rememberMe", "SPRING_SECURITY_REMEMBER_ME_COOKIE", "remember_user_token",
      "auth", "auth_token", "access_token", "id_token", "refresh_token", "jwt", "token", "user", "user_id",
      "userid", "login", "logged_in", ".ASPXAUTH", ".AspNetCore.Cookies", "KEYCLOAK_IDENTITY",
      "wordpress_logged_in_0123abcd", "wordpress_sec_0123abcd", "next-auth.session-token",
      "__Secure-next-auth.session-token", "sb-access-token", "sb-refresh-token", "_gig_lt", "glt_4_abc",
      "ab.storage.userId.abc", "NOPCOMMERCE.AUTH", "bbuserid", "bbpassword",
      // CSRF
      "XSRF-TOKEN", "X-XSRF-TOKEN", "csrftoken", "_csrf", "csrf_token", "CSRF-TOKEN", "__RequestVerificationToken",
      ".AspNetCore.Antiforgery.abc", "__Host-next-auth.csrf-token", "form_key", "xf_csrf", "matomo_sessid",
      // language, locale, currency, country, theme
      "lang", "language", "locale", "LOCALE", "NEXT_LOCALE", "django_language", "PLAY_LANG", "KEYCLOAK_LOCALE",
      "org.springframework.web.servlet.i18n.CookieLocaleResolver.LOCALE", "wp_lang", "pll_language",
      "wp-wpml_current_language", "aws_lang", "currency", "cb-currency", "country", "region", "timezone",
      "theme", "_shopify_country", "localization",
      // cart, checkout, wishlist, recently viewed
      "cart", "cart_id", "cart_ver", "basket", "checkout_session_token", "persistent_shopping_cart", "wishlist",
      "recently_viewed_product", "Nop.customer", "store", "cc-12345",
      // server-side personalisation and state
      "private_content_version", "X-Magento-Vary", "_dyid_server", "CurrentContact", "_ALGOLIA", "renderid",
      // short words an application may use
      "id", "i", "s", "t", "v", "sp", "ref", "test", "visitor_id", "SearchTerm", "_GA", "ga");

  @Test
  void noCookieAnApplicationReadsIsIgnored() {
    IgnoredCookies builtIn = IgnoredCookies.builtIn();
    Set<String> ignored = new TreeSet<>();
    for (String name : READ_BY_APPLICATIONS) {
      if (builtIn.ignored(name)) {
        ignored.add(name);
      }
    }
    assertEquals(Set.of(), ignored);
  }
}
