package org.pagecache.internal.key;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class CookiePrefixesTest {
  @Test
  void aNameMatchesWhenItStartsWithAnyPrefixNestedOrNot() {
    CookiePrefixes prefixes = new CookiePrefixes();
    for (String p : new String[] {"_gat_gtag_", "_gat", "_ga_", "AMCV_", "_pk_id."}) {
      prefixes.add(p);
    }
    for (String name : new String[] {"_gat", "_gat_UA-1", "_gat_gtag_UA_1", "_ga_XYZ", "_ga_", "AMCV_1%40Adobe", "_pk_id.1.ab"}) {
      assertTrue(prefixes.matches(name), name);
    }
    for (String name : new String[] {"_ga", "_g", "", "_GA_X", "AMCV", "_pk_id", "x_gat", "amcv_1"}) {
      assertFalse(prefixes.matches(name), name);
    }
  }

  @Test
  void anEmptySetMatchesNothing() {
    assertFalse(new CookiePrefixes().matches("_ga"));
    assertFalse(new CookiePrefixes().matches(""));
  }
}
