package org.pagecache.spring;

import jakarta.servlet.http.HttpServletRequest;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.web.servlet.LocaleResolver;
import org.springframework.web.servlet.i18n.AcceptHeaderLocaleResolver;

/**
 * {@code vary=language} without {@code languages=}: the languages are the application's own, from
 * its {@link AcceptHeaderLocaleResolver} ({@code getSupportedLocales()}, its default locale first
 * when it has one: the language a visitor whose {@code Accept-Language} matches none gets). The
 * site's languages then stay in step with what the application can render, with no second list to
 * keep. Another resolver (a cookie's, a session's, a fixed one) does not decide by
 * {@code Accept-Language}: nothing is filled in, and a policy that names no languages fails at
 * start-up as it does without the starter.
 */
final class LocaleLanguages {
  private LocaleLanguages() {}

  private static final Pattern VARY = Pattern.compile("(?i)(?:^|,)\\s*vary\\s*=\\s*([^,]*)");
  private static final Pattern LANGUAGES = Pattern.compile("(?i)(?:^|,)\\s*languages\\s*=");

  /** The resolver's languages as a policy's {@code languages=} value; empty when it gives none. */
  static String of(LocaleResolver resolver) {
    if (!(resolver instanceof AcceptHeaderLocaleResolver accept) || accept.getSupportedLocales().isEmpty()) {
      return "";
    }
    List<String> tags = new ArrayList<>();
    Locale first = defaultLocale(accept);
    if (first != null) {
      tags.add(first.toLanguageTag());
    }
    for (Locale l : accept.getSupportedLocales()) {
      String tag = l.toLanguageTag();
      if (!tags.contains(tag)) {
        tags.add(tag);
      }
    }
    return String.join("|", tags);
  }

  /**
   * The resolver's default locale (its getter is protected): what it answers a request without
   * {@code Accept-Language}; null when it answers the request's own locale, i.e. it has none. The
   * request asked is a stand-in that carries nothing else.
   */
  static Locale defaultLocale(AcceptHeaderLocaleResolver resolver) {
    Locale none = new Locale.Builder().setLanguage("und").setRegion("ZZ").build();
    HttpServletRequest asked = (HttpServletRequest) Proxy.newProxyInstance(LocaleLanguages.class.getClassLoader(),
        new Class<?>[] {HttpServletRequest.class}, (proxy, method, args) -> switch (method.getName()) {
          case "getLocale" -> none;
          case "getLocales" -> Collections.enumeration(List.of(none));
          case "hashCode" -> System.identityHashCode(proxy);
          case "equals" -> proxy == args[0];
          case "toString" -> "a request without Accept-Language";
          default -> null;
        });
    Locale answered = resolver.resolveLocale(asked);
    return answered == null || answered.equals(none) ? null : answered;
  }

  /**
   * The policies text with {@code languages=} added to every entry whose {@code vary=} declares
   * {@code language} and that names no languages of its own.
   *
   * @param languages the application's languages ({@link #of}); empty: the text unchanged
   */
  static String fill(String policies, String languages) {
    if (languages.isEmpty()) {
      return policies;
    }
    StringBuilder out = new StringBuilder(policies.length() + 32);
    for (String entry : policies.split(";", -1)) {
      out.append(out.length() == 0 && !policies.startsWith(";") ? "" : ";").append(entry);
      int colon = entry.indexOf(':');
      if (colon > 0 && declaresLanguage(entry.substring(colon + 1))) {
        out.append(", languages=").append(languages);
      }
    }
    return out.toString();
  }

  private static boolean declaresLanguage(String spec) {
    if (LANGUAGES.matcher(spec).find()) {
      return false;
    }
    Matcher vary = VARY.matcher(spec);
    while (vary.find()) {
      for (String item : vary.group(1).split("[|\\s]+")) {
        if (item.equalsIgnoreCase("language")) {
          return true;
        }
      }
    }
    return false;
  }
}
