package org.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Which handler a path belongs to ({@link Policies#claim}) and the start-up refusal of an
 * {@code overrides=} that would undo the overridden handler's own safety settings.
 */
class PathsOverridesTest {
  private static final CachePolicy BASE = CachePolicy.defaults("x", Duration.ofMinutes(1), Duration.ZERO);

  private static Policies policies(String text) {
    return Policies.parse(text, BASE);
  }

  private static String refusal(String text) {
    return assertThrows(IllegalArgumentException.class, () -> policies(text)).getMessage();
  }

  @Test
  void aPatternClaimsOnlyWhereAtLeastAsSpecificAsTheServingMapping() {
    Policies p = policies("assets: paths=*.css; news: paths=/news/*; about: paths=/about");
    assertEquals("assets", p.claim("/x.css", "static", Policies.DEFAULT));
    assertEquals("assets", p.claim("/x.css", "css", Policies.mappingRank("*.css")), "a tie goes to the pattern");
    assertNull(p.claim("/account/x.css", "account", Policies.mappingRank("/account/*")));
    assertNull(p.claim("/blog/x.css", "front", Policies.mappingRank("/*")), "/* beats *.css");
    assertEquals("news", p.claim("/news/1", "front", Policies.mappingRank("/*")), "a longer prefix");
    assertNull(p.claim("/news/1", "one", Policies.mappingRank("/news/1")), "an exact mapping beats a prefix pattern");
    assertEquals("about", p.claim("/about", "one", Policies.mappingRank("/about")), "exact ties exact");
    assertNull(p.claim("/", "home", Policies.mappingRank("")), "the context root is exact");
  }

  @Test
  void anOverrideClaimsTheNamedHandlersUrlsOnly() {
    Policies p = policies("assets: paths=*.css, overrides=front|blog");
    assertEquals("assets", p.claim("/a/x.css", "front", Policies.mappingRank("/*")));
    assertEquals("assets", p.claim("/blog/x.css", "blog", Policies.EXACT));
    assertNull(p.claim("/account/x.css", "account", Policies.mappingRank("/account/*")));
  }

  @Test
  void anOverrideOfAHandlerThatTurnsCachingOffIsRefused() {
    assertEquals("policies[assets].overrides: 'settings' is refused: settings has enabled=false (never cached);"
        + " a pattern may override only a handler whose enabled, sessions, cookies and signed-in it keeps"
        + " (give assets the same settings, or drop the override so settings keeps its URLs)",
        refusal("settings: enabled=false; assets: paths=*.css, overrides=settings"));
    assertEquals("policies[assets].overrides: 'app' is refused: app has enabled=false (never cached);"
        + " a pattern may override only a handler whose enabled, sessions, cookies and signed-in it keeps"
        + " (give assets the same settings, or drop the override so app keeps its URLs)",
        refusal("default: enabled=false; assets: enabled=true, paths=*.css, overrides=app"),
        "a handler without a policy of its own has the defaults");
  }

  @Test
  void anOverrideThatLoosensSessionsCookiesOrSignedInIsRefused() {
    String sessions = refusal("wallet: sessions=off; scripts: paths=*.js, overrides=wallet");
    assertEquals("policies[scripts].overrides: 'wallet' is refused: wallet has sessions=off but scripts has"
        + " sessions=anonymous; a pattern may override only a handler whose enabled, sessions, cookies and signed-in"
        + " it keeps (give scripts the same settings, or drop the override so wallet keeps its URLs)", sessions);
    assertEquals("policies[assets].overrides: 'account' is refused: account has cookies=bypass but assets has"
        + " cookies=ignore; a pattern may override only a handler whose enabled, sessions, cookies and signed-in"
        + " it keeps (give assets the same settings, or drop the override so account keeps its URLs)",
        refusal("assets: paths=*.css, cookies=ignore, overrides=account"));
    assertEquals("policies[assets].overrides: 'account' is refused: account has signed-in=bypass but assets has"
        + " signed-in=shared; a pattern may override only a handler whose enabled, sessions, cookies and signed-in"
        + " it keeps (give assets the same settings, or drop the override so account keeps its URLs)",
        refusal("assets: paths=*.css, signed-in=shared, overrides=account"));
    // as strict or stricter is accepted
    policies("wallet: sessions=off; scripts: paths=*.js, sessions=off, overrides=wallet");
    policies("front: cookies=ignore, sessions=allow; assets: paths=*.css, overrides=front");
  }

  @Test
  void overridesNeedPathsAndHandlerNames() {
    assertEquals("policies[assets].overrides: 'front' needs paths= in the same policy; overrides names the handlers"
        + " whose URLs its paths claim", refusal("assets: overrides=front"));
    assertEquals("policies[assets].overrides: 'a/b' is not a handler name; use names of 1 to 64 characters of"
        + " A-Z a-z 0-9 _ . -, |-separated", refusal("assets: paths=*.css, overrides=a/b"));
  }
}
