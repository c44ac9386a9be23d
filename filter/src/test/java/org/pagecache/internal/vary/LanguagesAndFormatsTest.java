package org.pagecache.internal.vary;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** RFC 4647 lookup over the site's languages, and Accept negotiated over the site's formats: pure functions. */
class LanguagesAndFormatsTest {
  private final Languages languages = Languages.parse("languages", "en|de|fr");
  private final Formats formats = Formats.parse("formats", "text/html|application/json");

  @Test
  void aLanguageIsFoundByLookupTheFirstIsTheDefault() {
    assertEquals("de", languages.classify("de-CH"));
    assertEquals("de", languages.classify("de-DE,de;q=0.9,en-US;q=0.8,en;q=0.7"));
    assertEquals("fr", languages.classify("pt-BR,pt;q=0.9,fr;q=0.8,en;q=0.7"));
    assertEquals("en", languages.classify("fr;q=0.5, en;q=0.9"), "weights, not order, decide");
    assertEquals("en", languages.classify("ja"));
    assertEquals("en", languages.classify(null));
    assertEquals("en", languages.classify("*"));
    assertEquals("en", languages.classify("de;q=0, *"), "q=0 refuses");
    assertEquals("en", languages.classify("de;q=x"), "unreadable: the default");
    assertEquals("de-CH", Languages.parse("languages", "en|de-CH").classify("de-CH-1996"));
  }

  @Test
  void aFormatIsNegotiatedByWeightThenSpecificityThenOrder() {
    assertEquals("text/html", formats.classify("text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"));
    assertEquals("application/json", formats.classify("application/json, text/plain, */*"));
    assertEquals("application/json", formats.classify("application/json, text/javascript, */*; q=0.01"));
    assertEquals("text/html", formats.classify("*/*"));
    assertEquals("text/html", formats.classify(null));
    assertEquals("text/html", formats.classify("image/png"), "none acceptable: the default");
    assertEquals("application/json", formats.classify("application/*"));
    assertEquals("application/json", formats.classify("text/html;q=0.5, application/json"));
    assertEquals("text/html", formats.classify("text/html;q=0, application/json;q=0"));
    assertEquals("text/html", formats.classify("application/json;q=NaN"));
  }

  @Test
  void badListsFailNamingTheParameterTheValueAndWhatIsAccepted() {
    IllegalArgumentException language = assertThrows(IllegalArgumentException.class,
        () -> Languages.parse("policies[a].languages", "en|d_e"));
    assertTrue(language.getMessage().startsWith("policies[a].languages: 'd_e' is not a language tag"), language.getMessage());
    IllegalArgumentException twice = assertThrows(IllegalArgumentException.class,
        () -> Languages.parse("policies[a].languages", "en|EN"));
    assertTrue(twice.getMessage().contains("'EN' is listed twice"), twice.getMessage());
    IllegalArgumentException format = assertThrows(IllegalArgumentException.class,
        () -> Formats.parse("policies[a].formats", "text/html|json"));
    assertTrue(format.getMessage().startsWith("policies[a].formats: 'json' is not a media type"), format.getMessage());
    assertEquals(List.of("text/html", "application/json"), formats.types());
  }
}
