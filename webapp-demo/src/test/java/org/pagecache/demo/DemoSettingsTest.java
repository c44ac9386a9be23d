package org.pagecache.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class DemoSettingsTest {
  private static final Function<String, String> NONE = name -> null;

  @Test
  void defaultsAreThreeHundredMillisecondsAndFiveArticlesPerPage() {
    assertEquals(new DemoSettings(300, 5), DemoSettings.from(NONE, NONE, NONE));
  }

  @Test
  void aSystemPropertyBeatsTheEnvironmentWhichBeatsTheContextParam() {
    Function<String, String> context = Map.of("demo.delay.ms", "10", "demo.page.size", "7")::get;
    Function<String, String> env = Map.of("DEMO_DELAY_MS", "20")::get;
    Function<String, String> sysProps = Map.of("demo.delay.ms", "30")::get;

    assertEquals(new DemoSettings(10, 7), DemoSettings.from(context, NONE, NONE));
    assertEquals(new DemoSettings(20, 7), DemoSettings.from(context, NONE, env));
    assertEquals(new DemoSettings(30, 7), DemoSettings.from(context, sysProps, env));
  }

  @Test
  void aBadValueNamesTheSettingAndWhereToSetIt() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> DemoSettings.from(NONE, NONE, Map.of("DEMO_DELAY_MS", "fast")::get));

    assertTrue(e.getMessage().contains("demo.delay.ms: 'fast' is not a whole number"), e.getMessage());
    assertTrue(e.getMessage().contains("DEMO_DELAY_MS"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> new DemoSettings(-1, 5));
  }
}
