package org.pagecache.internal.key;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The built-in list of ignored query parameters against the tidy-url rules it is derived from. */
class DerivedParameterListTest {
  private final String rules = DerivedParameterList.rulesJs();

  @Test
  void theCommittedListIsInStepWithTheRulesAndTheChoice() throws IOException {
    String committed;
    try (InputStream in = getClass().getResourceAsStream(BuiltInList.PARAMETERS)) {
      committed = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    assertEquals(DerivedParameterList.text(rules), committed,
        "ignored-parameters.txt is out of step with tidy-url's rules or DerivedParameterList: run scripts/ignored-parameters.sh");
    assertEquals(DerivedParameterList.patterns(rules), IgnoredParameters.BUILT_IN, "BUILT_IN is the file's patterns in order");
  }

  @Test
  void everyNameOfTheGlobalRuleIsIgnoredButTheOnesLeftOut() {
    IgnoredParameters builtIn = IgnoredParameters.builtIn();
    List<String> global = DerivedParameterList.globalNames(rules);
    assertTrue(global.size() > 100, "the Global rule has " + global.size() + " names: did its shape change?");
    for (String name : global) {
      assertEquals(!DerivedParameterList.LEFT_OUT.containsKey(name), builtIn.ignored(name), name);
    }
  }

  @Test
  void theIssuesParametersAreIgnoredAndMeaningfulOnesAreNot() {
    IgnoredParameters builtIn = IgnoredParameters.builtIn();
    for (String name : List.of("utm_source", "utm_medium", "utm_campaign", "utm_anything_new", "fbclid", "gclid",
        "msclkid", "mc_eid", "mc_cid", "_hsenc", "mkt_tok")) {
      assertTrue(builtIn.ignored(name), name);
    }
    for (String name : List.of("page", "q", "id", "sort", "lang", "ref", "source", "s", "p", "utm")) {
      assertFalse(builtIn.ignored(name), name);
    }
  }
}
