package org.pagecache.internal.vary;

import java.util.ArrayList;
import java.util.IllformedLocaleException;
import java.util.List;
import java.util.Locale;

/**
 * The languages of {@code vary=language} ({@code languages=en|de|fr}): a visitor's class is the best
 * match of their {@code Accept-Language} among the site's languages by RFC 4647 lookup (section
 * 3.4: the ranges in order of weight, each shortened from the right until a language matches;
 * {@code de-CH} finds {@code de}), the first language when none matches, the header is absent, or
 * it cannot be read. The lookup is the JDK's ({@link Locale#lookupTag}), over ranges parsed by
 * {@link Locale.LanguageRange#parse}, which drops {@code q=0} and orders by weight.
 *
 * @param tags the site's language tags, as configured (BCP 47), the default first
 */
public record Languages(List<String> tags) {
  /** The longest {@code Accept-Language} read; a longer one is the default language's. */
  static final int MAX_HEADER = 1024;

  public Languages {
    tags = List.copyOf(tags);
  }

  /**
   * The languages of a policy's {@code languages=} value, {@code |}-separated.
   *
   * @throws IllegalArgumentException naming {@code param}, the value and what is accepted
   */
  public static Languages parse(String param, String value) {
    List<String> tags = new ArrayList<>();
    for (String s : value.split("[|\\s]+")) {
      if (s.isEmpty()) {
        continue;
      }
      String tag;
      try {
        tag = new Locale.Builder().setLanguageTag(s).build().toLanguageTag();
      } catch (IllformedLocaleException e) {
        throw new IllegalArgumentException(param + ": '" + s + "' is not a language tag; use BCP 47 tags such as"
            + " en|de|fr or en|de-CH|pt-BR, the default first");
      }
      if (tag.equals("und") || tags.stream().anyMatch(tag::equalsIgnoreCase)) {
        throw new IllegalArgumentException(param + ": '" + s + "' is " + (tag.equals("und") ? "not a language" : "listed twice")
            + "; use BCP 47 tags such as en|de|fr, the default first");
      }
      tags.add(tag);
    }
    if (tags.isEmpty()) {
      throw new IllegalArgumentException(param + ": '" + value + "' names no language; use e.g. languages=en|de|fr");
    }
    return new Languages(tags);
  }

  /** The site's language for this {@code Accept-Language} value (null: absent). */
  public String classify(String acceptLanguage) {
    if (acceptLanguage == null || acceptLanguage.isBlank() || acceptLanguage.length() > MAX_HEADER) {
      return tags.get(0);
    }
    String found;
    try {
      found = Locale.lookupTag(Locale.LanguageRange.parse(acceptLanguage), tags);
    } catch (IllegalArgumentException e) {
      return tags.get(0); // not a list of language ranges: nobody's language, the default
    }
    if (found != null) {
      for (String tag : tags) {
        if (tag.equalsIgnoreCase(found)) {
          return tag;
        }
      }
    }
    return tags.get(0);
  }

  /** The locale a page of this language is built for ({@code getLocale()}, {@code getLocales()}). */
  public static Locale localeOf(String tag) {
    return Locale.forLanguageTag(tag);
  }
}
