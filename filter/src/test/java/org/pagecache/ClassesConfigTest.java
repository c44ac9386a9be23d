package org.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The policy syntax of declared classes, and start-up failures that name the parameter, the value and what is accepted. */
class ClassesConfigTest {
  private static PageCacheConfig config(String policies, String... params) {
    PageCacheConfig.Builder b = PageCacheConfig.builder().ignoreEnvironment().set("policies", policies);
    for (int i = 0; i + 1 < params.length; i += 2) {
      b.set(params[i], params[i + 1]);
    }
    return b.build();
  }

  private static String failure(String policies, String... params) {
    return assertThrows(IllegalArgumentException.class, () -> config(policies, params)).getMessage();
  }

  @Test
  void classesAndHeadersMixInOneVaryList() {
    CachePolicy p = config("page: vary=Device|X-Theme|language|format, languages=en|de-CH, formats=text/html|application/json")
        .policies.policy("page");
    assertEquals(List.of("device", "language", "format"), p.classes());
    assertEquals(List.of("x-theme"), p.vary());
    assertEquals(List.of("en", "de-CH"), p.languages());
    assertEquals(List.of("x-theme", "user-agent", "sec-ch-ua-mobile", "accept-language", "accept"), p.keyedHeaders());
    assertTrue(p.spec().contains("vary=device|language|format|x-theme, languages=en|de-CH,"
        + " formats=text/html|application/json"), p.spec());
    assertEquals(p, CachePolicy.defaults("page", p.ttl(), p.grace()).with(p.spec()));
  }

  @Test
  void misconfiguredClassesStopStartUpNamingWhatIsWrong() {
    assertTrue(failure("page: vary=language").contains("policies[page].languages: vary=language needs the site's"
        + " languages, the default first; add e.g. languages=en|de|fr"));
    assertTrue(failure("page: vary=format").contains("policies[page].formats: vary=format needs"));
    assertTrue(failure("page: languages=en|de").contains("policies[page].languages: 'en|de' is given without"
        + " vary=language"));
    assertTrue(failure("page: vary=device|User-Agent").contains("policies[page].vary: 'user-agent' is what a declared"
        + " class of this vary= is read from"));
    assertTrue(failure("page: vary=language, languages=en|x!").contains("policies[page].languages: 'x!' is not a"
        + " language tag"));
    assertTrue(failure("", "device.mobile", "iphone|(").contains("device.mobile: 'iphone|(' is not a regular"
        + " expression"));
    assertTrue(failure("", "device.bots", "robot").contains("device.bots: 'robot' is not accepted"));
  }

  @Test
  void aDefaultPolicyMayGiveTheLanguagesItsHandlersVaryOn() {
    PageCacheConfig c = config("default: vary=language, languages=en|fr; page: ttl=5m; other: vary=X-Foo");
    assertEquals(List.of("en", "fr"), c.policies.policy("page").languages());
    assertEquals(List.of(), c.policies.policy("other").classes(), "a vary= of its own replaces the default's");
  }
}
