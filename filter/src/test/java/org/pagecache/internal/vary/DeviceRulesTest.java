package org.pagecache.internal.vary;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The default device rules held against public sets of real User-Agent strings (test resources
 * org/pagecache/vary/user-agents.tsv; sources and licences in user-agents.NOTICE): recent real
 * traffic (Intoli) must be classified as its data set says, every string of it; the older and
 * stranger devices Mobile-Detect collects (tablets known only by their model name) at least 93 %.
 */
class DeviceRulesTest {
  private final DeviceRules rules = DeviceRules.DEFAULTS;

  record Row(String source, String deviceClass, String userAgent) {}

  static List<Row> rows() throws IOException {
    List<Row> rows = new ArrayList<>();
    try (InputStream in = DeviceRulesTest.class.getResourceAsStream("/org/pagecache/vary/user-agents.tsv")) {
      BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
      for (String line = r.readLine(); line != null; line = r.readLine()) {
        if (!line.startsWith("#")) {
          String[] f = line.split("\t", 3);
          rows.add(new Row(f[0], f[1], f[2]));
        }
      }
    }
    return rows;
  }

  /** Googlebot Smartphone and Lighthouse, which Mobile-Detect counts as phones: bots are desktops by default. */
  private static boolean bot(Row row) {
    return row.userAgent().contains("Googlebot") || row.userAgent().contains("Lighthouse");
  }

  @Test
  void everyRecentRealStringIsClassifiedAsItsDataSetSays() throws IOException {
    List<String> wrong = new ArrayList<>();
    int n = 0;
    for (Row row : rows()) {
      if (row.source().equals("intoli")) {
        n++;
        String found = rules.classify(row.userAgent(), null);
        if (!found.equals(row.deviceClass())) {
          wrong.add(row.deviceClass() + " classified " + found + ": " + row.userAgent());
        }
      }
    }
    assertEquals(952, n);
    assertEquals(List.of(), wrong);
  }

  @Test
  void mobileDetectsCollectionIsMostlyClassifiedAsItSays() throws IOException {
    Map<String, int[]> byClass = new TreeMap<>(); // class -> {agreed, all}
    List<String> wrong = new ArrayList<>();
    for (Row row : rows()) {
      if (!row.source().equals("mobile-detect") || bot(row)) {
        continue;
      }
      String found = rules.classify(row.userAgent(), null);
      int[] counts = byClass.computeIfAbsent(row.deviceClass(), k -> new int[2]);
      counts[1]++;
      if (found.equals(row.deviceClass())) {
        counts[0]++;
      } else {
        wrong.add(row.deviceClass() + " classified " + found + ": " + row.userAgent());
      }
    }
    int agreed = byClass.values().stream().mapToInt(c -> c[0]).sum();
    int all = byClass.values().stream().mapToInt(c -> c[1]).sum();
    String report = String.format("%d of %d agree; by class %s; first disagreements: %s", agreed, all,
        byClass.entrySet().stream().map(e -> e.getKey() + " " + e.getValue()[0] + "/" + e.getValue()[1]).toList(),
        wrong.subList(0, Math.min(5, wrong.size())));
    System.out.println("pagecache device rules, Mobile-Detect's strings: " + report);
    assertTrue(agreed >= 0.93 * all, report);
    assertTrue(byClass.get("mobile")[0] >= 0.97 * byClass.get("mobile")[1], report);
    assertTrue(byClass.get("tablet")[0] >= 0.85 * byClass.get("tablet")[1], report);
  }

  @Test
  void botsAreDesktopsUnlessTheRulesSayOtherwise() {
    String googlebotSmartphone = "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36"
        + " (KHTML, like Gecko) Chrome/80.0.3987.92 Mobile Safari/537.36 (compatible; Googlebot/2.1;"
        + " +http://www.google.com/bot.html)";
    assertEquals("desktop", rules.classify(googlebotSmartphone, null));
    DeviceRules asAgents = DeviceRules.parse("", "", "", "agent", "", "", "");
    assertEquals("mobile", asAgents.classify(googlebotSmartphone, null));
    DeviceRules botsMobile = DeviceRules.parse("", "", "", "mobile", "", "", "");
    assertEquals("mobile", botsMobile.classify("Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
        null));
    assertEquals("mobile", rules.classify("Mozilla/5.0 (Linux; Android 9; CUBOT X19) AppleWebKit/537.36 (KHTML, like"
        + " Gecko) Chrome/120.0.0.0 Mobile Safari/537.36", null), "a Cubot phone is no bot");
  }

  @Test
  void theClientHintWinsWhereItIsSent() {
    String windows = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko)"
        + " Chrome/149.0.0.0 Safari/537.36";
    assertEquals("mobile", rules.classify(windows, "?1"));
    assertEquals("desktop", rules.classify(DeviceRules.DEFAULT_MOBILE_AGENT, "?0"), "a phone asking for the desktop site");
    assertEquals("tablet", rules.classify(DeviceRules.DEFAULT_TABLET_AGENT, "?0"));
    assertEquals("desktop", rules.classify(null, null));
    assertEquals("desktop", rules.classify("", "?x"));
  }

  @Test
  void eachClassCanBeRedefinedBySetting() {
    DeviceRules ipadIsAPhone = DeviceRules.parse("kindle|silk/", "ipad|iphone|android", "", "", "",
        "Mozilla/5.0 (Linux; Android 9; KFTRWI) AppleWebKit/537.36 (KHTML, like Gecko) Silk/120.3.1 like"
            + " Chrome/120.0.0.0 Safari/537.36", "");
    assertEquals("mobile", ipadIsAPhone.classify("Mozilla/5.0 (iPad; CPU OS 9_0_2 like Mac OS X)", null));
  }

  @Test
  void badSettingsFailNamingTheSettingTheValueAndWhatIsAccepted() {
    IllegalArgumentException pattern = assertThrows(IllegalArgumentException.class,
        () -> DeviceRules.parse("ipad|(", "", "", "", "", "", ""));
    assertTrue(pattern.getMessage().startsWith("device.tablet: 'ipad|(' is not a regular expression"), pattern.getMessage());
    IllegalArgumentException bots = assertThrows(IllegalArgumentException.class,
        () -> DeviceRules.parse("", "", "", "phone", "", "", ""));
    assertTrue(bots.getMessage().startsWith("device.bots: 'phone' is not accepted; use desktop"), bots.getMessage());
    IllegalArgumentException agent = assertThrows(IllegalArgumentException.class,
        () -> DeviceRules.parse("", "", "", "", "", "Mozilla/5.0 (Windows NT 10.0; Win64; x64)", ""));
    assertTrue(agent.getMessage().startsWith("device.tablet.agent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64)' is"
        + " classified desktop by the device rules, not tablet"), agent.getMessage());
  }
}
