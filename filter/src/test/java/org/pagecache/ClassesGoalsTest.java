package org.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.pagecache.SiteUnderTest.Backend;
import org.pagecache.SiteUnderTest.Response;
import org.pagecache.internal.vary.DeviceRules;
import org.pagecache.testing.MemcachedExtension;

/**
 * Issue 46's goals, measured on real memcached through the real filter and Jetty (LocalConnector):
 * real visitors (RealVisitors: 1 000 distinct real User-Agent strings, 200 Accept-Language headers)
 * read the pages of a handler whose application detects phones, picks its language and negotiates
 * JSON itself, twice; the figures are printed, and the goals asserted.
 *
 * <p>Run: {@code mvn -B -o -q test -pl filter -Dtest=ClassesGoalsTest -Dsurefire.failIfNoSpecifiedTests=false}
 * (the figures are in the test's output, {@code pagecache goals: ...} lines).
 */
class ClassesGoalsTest {
  @RegisterExtension
  static MemcachedExtension memcached = MemcachedExtension.nodes(1);

  @RegisterExtension
  final SiteUnderTest.Sites sites = new SiteUnderTest.Sites(memcached);

  private static final int PAGES = 50;

  /** What a run of visitors found: pages of another class, pages the application would not have given them, hits. */
  record Run(String policy, int visitors, int reads, int wrongClass, int otherThanApplication, int secondPassReads,
      int secondPassHits, int builds) {
    double secondPassHitRatio() {
      return (double) secondPassHits / secondPassReads;
    }

    String line() {
      return String.format(Locale.ROOT, "pagecache goals: %-42s visitors %5d, reads %5d: another class's page %4d,"
          + " not the application's own answer %4d, second pass HIT %.2f, builds %5d", policy, visitors, reads,
          wrongClass, otherThanApplication, secondPassHitRatio(), builds);
    }
  }

  private SiteUnderTest site(String policy) {
    return sites.on(Backend.MEMCACHED).set("policies", "page: " + policy + "; raw: enabled=false")
        .handler("page", application(), "/page/*").handler("raw", application(), "/raw/*").start();
  }

  /** The application: detects phones itself, picks its language among en, de, fr from getLocales(), answers JSON to API clients. */
  private static SiteServlets.Handler application() {
    return SiteServlets.of((req, res, call) -> {
      String accept = req.getHeader("Accept");
      if (accept != null && accept.contains("application/json") && !accept.contains("text/html")) {
        res.setContentType("application/json");
        res.getWriter().print("{\"page\":\"" + req.getRequestURI() + "\"}");
        return;
      }
      res.setContentType("text/html;charset=UTF-8");
      res.getWriter().print("<p>" + req.getRequestURI() + "|" + ClassesSpec.appDevice(req.getHeader("User-Agent"))
          + "|" + ClassesSpec.appLanguage(req) + "|" + req.getHeader("User-Agent") + "|</p>");
    });
  }

  /** 1 000 distinct real strings: every desktop and tablet of the data sets, phones for the rest. */
  static List<RealVisitors.Agent> mix() {
    List<RealVisitors.Agent> all = RealVisitors.agents();
    List<RealVisitors.Agent> mix = new ArrayList<>();
    all.stream().filter(a -> !a.deviceClass().equals("mobile")).forEach(mix::add);
    all.stream().filter(a -> a.deviceClass().equals("mobile")).limit(1000 - mix.size()).forEach(mix::add);
    return mix;
  }

  private Run devices(String policy, List<RealVisitors.Agent> visitors) {
    SiteUnderTest site = site(policy);
    DeviceRules rules = DeviceRules.DEFAULTS;
    int wrong = 0;
    int other = 0;
    int reads = 0;
    int secondReads = 0;
    int secondHits = 0;
    for (int pass = 0; pass < 2; pass++) {
      for (int i = 0; i < visitors.size(); i++) {
        String ua = visitors.get(i).userAgent();
        { // a page a visit; the second pass reads another, one other visitors read in the first
          int page = (i + pass * PAGES / 2) % PAGES;
          Response r = site.get("/page/" + page, "User-Agent", ua);
          assertEquals(200, r.status(), r.toString());
          String[] f = r.text().split("\\|", -1);
          String seenAgent = f[3];
          reads++;
          if (!rules.classify(seenAgent, null).equals(rules.classify(ua, null))) {
            wrong++; // built for a visitor of another class
          }
          if (!f[1].equals(ClassesSpec.appDevice(ua))) {
            other++; // the application answers this visitor's own string otherwise
          }
          if (pass == 1) {
            secondReads++;
            secondHits += "HIT".equals(r.xcache()) ? 1 : 0;
          }
        }
      }
    }
    return new Run(policy, visitors.size(), reads, wrong, other, secondReads, secondHits, site.calls("page"));
  }

  @Test
  void aThousandRealDevicesGetTheirClassesPagesAndHit() {
    List<RealVisitors.Agent> mix = mix();
    assertEquals(1000, new HashSet<>(mix.stream().map(RealVisitors.Agent::userAgent).toList()).size());
    long phonesAndTablets = mix.stream().filter(a -> !a.deviceClass().equals("desktop")).count();
    assertTrue(phonesAndTablets >= 300, "at least 30 % phones and tablets: " + phonesAndTablets);

    Run device = devices("vary=device", mix);
    Run agent = devices("vary=User-Agent", mix);
    Run unkeyed = devices("ttl=5m", mix);
    for (Run run : List.of(device, agent, unkeyed)) {
      System.out.println(run.line());
    }
    assertEquals(0, device.wrongClass(), device.line());
    assertTrue(device.secondPassHitRatio() >= 0.95, device.line());
    assertEquals(3 * PAGES, device.builds(), "one build per page and class");
    assertEquals(0, agent.wrongClass(), agent.line());
  }

  private Run languages(String policy) {
    SiteUnderTest site = site(policy);
    List<String> headers = RealVisitors.acceptLanguages();
    int pages = 10;
    int wrong = 0;
    int reads = 0;
    int secondReads = 0;
    int secondHits = 0;
    Set<String> seenLanguages = new HashSet<>();
    List<String> own = new ArrayList<>(); // what the application answers each visitor uncached: the truth
    for (String header : headers) {
      own.add(site.get("/raw/x", "Accept-Language", header).text().split("\\|")[2]);
    }
    for (int pass = 0; pass < 2; pass++) {
      for (int i = 0; i < headers.size(); i++) {
        String header = headers.get(i);
        for (int k = 0; k < 2; k++) {
          int page = (2 * i + k + pass * pages / 2) % pages;
          Response r = site.get("/page/" + page, "Accept-Language", header);
          String lang = r.text().split("\\|")[2];
          seenLanguages.add(lang);
          reads++;
          if (!lang.equals(own.get(i))) {
            wrong++;
          }
          if (pass == 1) {
            secondReads++;
            secondHits += "HIT".equals(r.xcache()) ? 1 : 0;
          }
        }
      }
    }
    assertEquals(Set.of("en", "de", "fr"), seenLanguages);
    return new Run(policy, headers.size(), reads, wrong, wrong, secondReads, secondHits, site.calls("page"));
  }

  @Test
  void twoHundredRealAcceptLanguagesGetTheirLanguageAndHit() {
    assertEquals(200, new HashSet<>(RealVisitors.acceptLanguages()).size());
    Run language = languages("vary=language, languages=en|de|fr");
    Run header = languages("vary=Accept-Language");
    System.out.println(language.line());
    System.out.println(header.line());
    assertEquals(0, language.wrongClass(), language.line());
    assertTrue(language.secondPassHitRatio() >= 0.95, language.line());
    assertEquals(0, header.wrongClass(), header.line());
  }

  @Test
  void aJsonClientNeverGetsHtmlAndABrowserNeverJson() {
    SiteUnderTest site = site("vary=format, formats=text/html|application/json");
    List<String> browsers = List.of(
        "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,"
            + "application/signed-exchange;v=b3;q=0.7", // Chrome, Edge, Opera
        "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", // Firefox, Safari
        "text/html, application/xhtml+xml, image/jxr, */*", // Internet Explorer 11
        "*/*"); // curl, a link checker
    List<String> json = List.of("application/json", "application/json, text/plain, */*", // axios
        "application/json, text/javascript, */*; q=0.01", // jQuery's getJSON
        "application/json, application/*+json"); // Spring's RestTemplate
    int wrong = 0;
    int reads = 0;
    for (int pass = 0; pass < 2; pass++) {
      for (int page = 0; page < 10; page++) {
        for (String accept : browsers) {
          reads++;
          wrong += site.get("/page/" + page, "Accept", accept).header("Content-Type").startsWith("text/html") ? 0 : 1;
        }
        for (String accept : json) {
          reads++;
          wrong += site.get("/page/" + page, "Accept", accept).header("Content-Type").startsWith("application/json") ? 0 : 1;
        }
      }
    }
    System.out.printf(Locale.ROOT, "pagecache goals: vary=format: %d reads, %d of another format, %d builds%n", reads,
        wrong, site.calls("page"));
    assertEquals(0, wrong);
    assertEquals(20, site.calls("page"), "one build per page and format");
  }
}
