package org.pagecache.internal.key;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.pagecache.CookieRule;

class IgnoredCookiesTest {
  @Test
  void theBuiltInListCoversAnalyticsConsentStickinessAndBotManagement() {
    IgnoredCookies ignored = IgnoredCookies.builtIn();
    for (String name : List.of("_ga", "_ga_ABC123", "_gid", "_gat_UA-1", "__utmz", "_gcl_au", "_fbp", "_hjSessionUser_1",
        "_pk_id.1.abcd", "mp_abc_mixpanel", "ajs_anonymous_id", "OptanonConsent", "euconsent-v2", "AWSALB",
        "AWSALBCORS", "__cf_bm", "cf_clearance")) {
      assertTrue(ignored.ignored(name), name);
    }
    for (String name : List.of("JSESSIONID", "lang", "XSRF-TOKEN", "auth", "remember-me", "_GA", "ga")) {
      assertFalse(ignored.ignored(name), name);
    }
  }

  @Test
  void cookiesIgnoreAddsNamesAndPrefixPatterns() {
    IgnoredCookies ignored = IgnoredCookies.parse("cookies.ignore", "XSRF-TOKEN, ab_test_*|theme");
    assertTrue(ignored.ignored("XSRF-TOKEN"));
    assertTrue(ignored.ignored("ab_test_42"));
    assertTrue(ignored.ignored("theme"));
    assertTrue(ignored.ignored("_ga"), "the built-in list stays");
    assertFalse(ignored.ignored("ab_tes"));
    assertEquals(List.of("XSRF-TOKEN", "ab_test_*", "theme"), ignored.extra());
  }

  @Test
  void aBadNameFailsNamingTheSetting() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> IgnoredCookies.parse("cookies.ignore", "good, bad;name"));
    assertEquals("cookies.ignore: 'bad;name' is not a cookie name or prefix* pattern (e.g. XSRF-TOKEN, _myanalytics_*)",
        e.getMessage());
  }

  @Test
  void cookieHeadersAreReadAsAnApplicationsParserWouldNamesOnlyForInvalidOnes() {
    Map<String, List<String>> c = CookieNames.parse(List.of("a=1; b = 2 ;;c", "a=3; bad name=4"));
    assertEquals(List.of("1", "3"), c.get("a"));
    assertEquals(List.of("2"), c.get("b"));
    assertEquals(List.of(""), c.get("c"));
    assertEquals(List.of("4"), c.get(CookieNames.INVALID));
  }

  @Test
  void aCookieRuleIsParsedWithClearErrors() {
    assertEquals(CookieRule.BYPASS, CookieRule.parse("p", "bypass"));
    assertEquals(CookieRule.Mode.IGNORE, CookieRule.parse("p", "Ignore").mode());
    assertEquals(List.of("lang", "theme"), CookieRule.parse("p", "vary:lang|theme").vary());
    assertEquals("vary:lang|theme", CookieRule.parse("p", "vary:lang|theme").spec());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CookieRule.parse("p", "keep"));
    assertEquals("p: 'keep' is not bypass, ignore or vary:NAME|NAME (e.g. vary:lang|theme)", e.getMessage());
  }
}
