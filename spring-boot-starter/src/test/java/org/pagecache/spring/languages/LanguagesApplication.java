package org.pagecache.spring.languages;

import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import org.pagecache.spring.CachedPage;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.context.i18n.LocaleContextHolder;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.LocaleResolver;
import org.springframework.web.servlet.i18n.AcceptHeaderLocaleResolver;

/**
 * A news site in English, German and French: Spring MVC picks the language with its
 * {@link AcceptHeaderLocaleResolver}, and {@code @CachedPage(vary = "language")} names no languages:
 * the starter takes them from the resolver.
 */
@SpringBootApplication
public class LanguagesApplication {
  static final AtomicInteger BUILDS = new AtomicInteger();

  /** How many pages the controller built. */
  public static int builds() {
    return BUILDS.get();
  }

  @RestController
  public static class News {
    @GetMapping(path = "/news/{id}", produces = "text/plain")
    @CachedPage(handler = "news", vary = "language")
    public String news(@PathVariable String id) {
      BUILDS.incrementAndGet();
      return switch (LocaleContextHolder.getLocale().getLanguage()) {
        case "de" -> "Nachricht " + id + " |de|";
        case "fr" -> "Nouvelle " + id + " |fr|";
        default -> "News " + id + " |en|";
      };
    }
  }

  @Bean
  LocaleResolver localeResolver() {
    AcceptHeaderLocaleResolver resolver = new AcceptHeaderLocaleResolver();
    resolver.setSupportedLocales(List.of(Locale.ENGLISH, Locale.GERMAN, Locale.FRENCH));
    resolver.setDefaultLocale(Locale.ENGLISH);
    return resolver;
  }

  @Bean
  SecurityFilterChain security(HttpSecurity http) throws Exception {
    http.authorizeHttpRequests(auth -> auth.anyRequest().permitAll());
    return http.build();
  }
}
