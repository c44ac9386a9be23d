package org.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.pagecache.SiteUnderTest.Backend;
import org.pagecache.SiteUnderTest.BothStores;
import org.pagecache.SiteUnderTest.Response;
import org.pagecache.internal.vary.DeviceRules;
import org.pagecache.testing.MemcachedExtension;

/**
 * Specification, on both stores: declared classes of visitors ({@code vary=device},
 * {@code vary=language}, {@code vary=format}). One page per class, built from the class's
 * representative request whoever asks first, served to every visitor of the class, and a
 * {@code Vary} that keeps the caches in front as safe.
 */
class ClassesSpec {
  @RegisterExtension
  static MemcachedExtension memcached = MemcachedExtension.nodes(1);

  @RegisterExtension
  final SiteUnderTest.Sites sites = new SiteUnderTest.Sites(memcached);

  /** The application's own phone detection, as a classic MVC application does it (not PageCache's rules). */
  static final Pattern PHONE = Pattern.compile("iphone|ipod|android.+mobile|windows phone|blackberry|opera mini|iemobile",
      Pattern.CASE_INSENSITIVE);

  static String appDevice(String userAgent) {
    return userAgent != null && PHONE.matcher(userAgent).find() ? "phone" : "standard";
  }

  /** The application picks its language from getLocales() among en, de and fr itself; en by default. */
  static String appLanguage(jakarta.servlet.http.HttpServletRequest req) {
    for (Locale l : Collections.list(req.getLocales())) {
      if (List.of("en", "de", "fr").contains(l.getLanguage())) {
        return l.getLanguage();
      }
    }
    return "en";
  }

  private SiteUnderTest site(Backend backend, String policy) {
    return sites.on(backend).set("near.trust", "0s").set("policies", "page: " + policy)
        .handler("page", SiteServlets.of((req, res, call) -> {
          String accept = req.getHeader("Accept");
          if (accept != null && accept.contains("application/json") && !accept.contains("text/html")) {
            res.setContentType("application/json");
            res.getWriter().print("{\"page\":\"" + req.getRequestURI() + "\",\"call\":" + call + "}");
            return;
          }
          res.setContentType("text/html;charset=UTF-8");
          res.getWriter().print("<p>" + req.getRequestURI() + " device=" + appDevice(req.getHeader("User-Agent"))
              + " lang=" + appLanguage(req) + " agent=" + req.getHeader("User-Agent") + " call " + call + "</p>");
        }), "/page/*").start();
  }

  private static final String IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_7 like Mac OS X) AppleWebKit/605.1.15"
      + " (KHTML, like Gecko) Version/26.6.1 Mobile/15E148 Safari/604.1";
  private static final String PIXEL = "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko)"
      + " Chrome/149.0.0.0 Mobile Safari/537.36";
  private static final String IPAD = "Mozilla/5.0 (iPad; CPU OS 9_0_2 like Mac OS X) AppleWebKit/601.1.46 (KHTML,"
      + " like Gecko) Version/9.0 Mobile/13A452 Safari/601.1";
  private static final String WINDOWS = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like"
      + " Gecko) Chrome/149.0.0.0 Safari/537.36";
  private static final String GOOGLEBOT_PHONE = "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P)"
      + " AppleWebKit/537.36 (KHTML, like Gecko) Chrome/80.0.3987.92 Mobile Safari/537.36 (compatible;"
      + " Googlebot/2.1; +http://www.google.com/bot.html)";

  @BothStores
  void eachDeviceClassHasOnePageBuiltForTheClass(Backend backend) {
    SiteUnderTest site = site(backend, "vary=device");
    Response iphone = site.get("/page/a", "User-Agent", IPHONE);
    Response pixel = site.get("/page/a", "User-Agent", PIXEL);
    Response ipad = site.get("/page/a", "User-Agent", IPAD);
    Response windows = site.get("/page/a", "User-Agent", WINDOWS);
    Response nobody = site.get("/page/a");
    Response bot = site.get("/page/a", "User-Agent", GOOGLEBOT_PHONE);
    assertEquals(List.of("MISS", "HIT", "MISS", "MISS", "HIT", "HIT"), List.of(iphone.xcache(), pixel.xcache(),
        ipad.xcache(), windows.xcache(), nobody.xcache(), bot.xcache()));
    assertEquals(3, site.calls("page"), "one build per class");
    // the iPhone's build saw the mobile class's agent, not the iPhone's: the page is the class's
    assertTrue(iphone.text().contains("device=phone"), iphone.text());
    assertTrue(iphone.text().contains("agent=" + DeviceRules.DEFAULT_MOBILE_AGENT + " "), iphone.text());
    assertEquals(iphone.text(), pixel.text());
    assertTrue(ipad.text().contains("device=standard"), ipad.text());
    assertTrue(ipad.text().contains("agent=" + DeviceRules.DEFAULT_TABLET_AGENT + " "), ipad.text());
    assertTrue(windows.text().contains("agent=" + DeviceRules.DEFAULT_DESKTOP_AGENT), windows.text());
    assertEquals(windows.text(), bot.text(), "bots are desktops unless device.bots says otherwise");
  }

  @BothStores
  void theClientHintDecidesWhereItIsSent(Backend backend) {
    SiteUnderTest site = site(backend, "vary=device");
    site.get("/page/a", "User-Agent", WINDOWS);
    Response hinted = site.get("/page/a", "User-Agent", WINDOWS, "Sec-CH-UA-Mobile", "?1");
    assertEquals("MISS", hinted.xcache(), "a phone that asks for the desktop site still says ?1: its class is mobile");
    assertTrue(hinted.text().contains("device=phone"), hinted.text());
    Response tablet = site.get("/page/a", "User-Agent", PIXEL.replace(" Mobile", ""), "Sec-CH-UA-Mobile", "?0");
    assertTrue(tablet.text().contains("agent=" + DeviceRules.DEFAULT_TABLET_AGENT), tablet.text());
  }

  @BothStores
  void readingTheClassesHeadersIsNoUnkeyedRead(Backend backend) {
    SiteUnderTest site = site(backend, "vary=device|language, languages=en|de|fr, headers=strict, harmless=Accept");
    assertEquals("MISS", site.get("/page/a", "User-Agent", IPHONE, "Accept-Language", "de-DE").xcache());
    Response hit = site.get("/page/a", "User-Agent", PIXEL, "Accept-Language", "de-AT,de;q=0.9");
    assertEquals("HIT", hit.xcache(), "headers=strict stores it: what it read is in its key, by class");
    assertTrue(hit.text().contains("lang=de"), hit.text());
    assertEquals(List.of(), site.cache.inspect().stats("page").unkeyedHeaders().keySet().stream().toList());
  }

  @BothStores
  void aPageOfClassesTellsTheCachesInFrontWhatItVariesOn(Backend backend) {
    SiteUnderTest site = site(backend, "vary=device|language|format, languages=en|de, formats=text/html|application/json");
    Response built = site.get("/page/a", "User-Agent", IPHONE);
    Response hit = site.get("/page/a", "User-Agent", IPHONE);
    assertEquals("HIT", hit.xcache());
    for (Response r : List.of(built, hit)) {
      assertEquals(List.of("user-agent", "sec-ch-ua-mobile", "accept-language", "accept"), varyNames(r), r.toString());
    }
  }

  @BothStores
  void languagesAreMatchedByLookupWithTheFirstAsDefault(Backend backend) {
    SiteUnderTest site = site(backend, "vary=language, languages=en|de|fr");
    assertTrue(site.get("/page/a", "Accept-Language", "de-CH").text().contains("lang=de"));
    assertTrue(site.get("/page/a", "Accept-Language", "pt-BR,pt;q=0.9,fr;q=0.8").text().contains("lang=fr"));
    assertTrue(site.get("/page/a", "Accept-Language", "ja").text().contains("lang=en"));
    assertTrue(site.get("/page/a").text().contains("lang=en"));
    Response de = site.get("/page/a", "Accept-Language", "de-DE,de;q=0.9,en-US;q=0.8,en;q=0.7");
    assertEquals("HIT", de.xcache());
    assertTrue(de.text().contains("lang=de"), de.text());
    assertEquals(3, site.calls("page"));
  }

  @BothStores
  void aJsonClientNeverGetsHtmlAndABrowserNeverJson(Backend backend) {
    SiteUnderTest site = site(backend, "vary=format, formats=text/html|application/json");
    String browser = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";
    List<String> json = List.of("application/json", "application/json, text/plain, */*",
        "application/json, text/javascript, */*; q=0.01");
    for (int round = 0; round < 2; round++) {
      for (String accept : json) {
        Response r = site.get("/page/a", "Accept", accept);
        assertTrue(r.header("Content-Type").startsWith("application/json"), accept + " got " + r);
      }
      for (String accept : List.of(browser, "*/*", "image/png")) {
        Response r = site.get("/page/a", "Accept", accept);
        assertTrue(r.header("Content-Type").startsWith("text/html"), accept + " got " + r);
      }
      Response none = site.get("/page/a");
      assertTrue(none.header("Content-Type").startsWith("text/html"), none.toString());
    }
    assertEquals(2, site.calls("page"));
  }

  @BothStores
  void anEvictReachesThePageOfEveryClass(Backend backend) {
    SiteUnderTest site = site(backend, "vary=device|language, languages=en|de");
    site.get("/page/a", "User-Agent", IPHONE);
    site.get("/page/a", "User-Agent", IPAD, "Accept-Language", "de");
    site.get("/page/a", "User-Agent", WINDOWS);
    site.cache.evict("http://localhost/page/a");
    assertEquals("MISS", site.get("/page/a", "User-Agent", IPHONE).xcache());
    assertEquals("MISS", site.get("/page/a", "User-Agent", IPAD, "Accept-Language", "de").xcache());
    assertEquals("MISS", site.get("/page/a", "User-Agent", WINDOWS).xcache());
  }

  @BothStores
  void hostileHeadersGetTheDefaultClassNeverAnError(Backend backend) {
    SiteUnderTest site = site(backend, "vary=device|language|format, languages=en|de, formats=text/html|application/json");
    List<String[]> hostile = new ArrayList<>();
    hostile.add(new String[] {"Accept-Language", "de;q=nope,,;;==*-*"});
    hostile.add(new String[] {"Accept-Language", "x".repeat(5000)});
    hostile.add(new String[] {"Accept-Language", "de-" + "a".repeat(300)});
    hostile.add(new String[] {"Accept", "application/json;q=NaN, text/html;q=2"});
    hostile.add(new String[] {"Accept", "application/json,".repeat(200)});
    hostile.add(new String[] {"User-Agent", "(".repeat(3000) + "Mobile"});
    hostile.add(new String[] {"Sec-CH-UA-Mobile", "?1, ?0; \"not a hint\""});
    for (String[] h : hostile) {
      Response r = site.get("/page/a", h[0], h[1]);
      assertEquals(200, r.status(), h[0] + " " + h[1].length());
    }
  }

  private static List<String> varyNames(Response r) {
    List<String> names = new ArrayList<>();
    for (String v : r.headers("Vary")) {
      for (String n : v.split(",")) {
        names.add(n.trim().toLowerCase(Locale.ROOT));
      }
    }
    return names;
  }
}
