package org.pagecache.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.springframework.web.servlet.i18n.AcceptHeaderLocaleResolver;
import org.springframework.web.servlet.i18n.FixedLocaleResolver;

/** Which policies get the resolver's languages, and in which order. */
class LocaleLanguagesTest {
  @Test
  void theResolversLocalesDefaultFirst() {
    AcceptHeaderLocaleResolver resolver = new AcceptHeaderLocaleResolver();
    resolver.setSupportedLocales(List.of(Locale.GERMAN, Locale.CANADA_FRENCH, Locale.ENGLISH));
    assertEquals("de|fr-CA|en", LocaleLanguages.of(resolver));
    resolver.setDefaultLocale(Locale.ENGLISH);
    assertEquals("en|de|fr-CA", LocaleLanguages.of(resolver));
    assertEquals("", LocaleLanguages.of(new AcceptHeaderLocaleResolver()), "no supported locales: none");
    assertEquals("", LocaleLanguages.of(new FixedLocaleResolver(Locale.GERMAN)), "not decided by Accept-Language");
    assertEquals("", LocaleLanguages.of(null));
  }

  @Test
  void onlyPoliciesThatVaryByLanguageAndNameNoneGetThem() {
    String text = "default: enabled=false; news: enabled=true, vary=language|X-Theme; home: vary=language, languages=en;"
        + " other: vary=Accept-Language";
    assertEquals("default: enabled=false; news: enabled=true, vary=language|X-Theme, languages=en|de; home:"
        + " vary=language, languages=en; other: vary=Accept-Language", LocaleLanguages.fill(text, "en|de"));
    assertEquals(text, LocaleLanguages.fill(text, ""));
  }
}
