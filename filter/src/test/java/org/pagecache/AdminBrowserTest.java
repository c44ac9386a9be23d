package org.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.pagecache.testing.HeadlessChromium;
import org.pagecache.testing.Http;
import org.pagecache.testing.MemcachedExtension;

/**
 * What an editor does, in a real browser ({@link HeadlessChromium}): sign in, open the admin
 * page, press Refresh on one handler, read the confirmation; that handler's next page is rebuilt
 * while another handler's is still served from memcached. (The demo WAR's own editor flow, with
 * its BASIC sign-in, runs in the same browser in webapp-demo's deployment tests.)
 *
 * <p>The page fits a 1280 px window: no sideways scrolling, nothing clipped. Leaves a
 * screenshot of the admin page in {@code filter/target/admin.png}.
 */
class AdminBrowserTest {
  @RegisterExtension
  static MemcachedExtension memcached = MemcachedExtension.nodes(1);

  private static final Path SCREENSHOT = Path.of("target", "admin.png");

  private AdminSite site;
  private HeadlessChromium chromium;

  @BeforeEach
  void start() {
    site = AdminSite.on(memcached.servers()).start();
    chromium = HeadlessChromium.start();
  }

  @AfterEach
  void stop() {
    if (chromium != null) {
      chromium.close();
    }
    if (site != null) {
      site.close();
    }
  }

  @Test
  void anEditorRefreshesOneHandlerAndSeesItsPagesRebuilt() {
    // Given a site whose pages are cached (and some traffic for the counters)
    for (int i = 1; i <= 4; i++) {
      xcache("/article/" + i);
      xcache("/home/" + i);
    }
    for (int i = 0; i < 3; i++) {
      xcache("/article/1");
      xcache("/home/1");
    }
    assertEquals("HIT", xcache("/article/1"));
    assertEquals("HIT", xcache("/home/1"));

    // When the editor signs in, opens the admin page and presses Refresh on "article"
    WebDriver browser = chromium.browser();
    browser.get(site.admin("/").toString());
    chromium.await(By.id("user")).sendKeys("editor");
    browser.findElement(By.id("password")).sendKeys("editor");
    browser.findElement(By.id("sign-in")).click();
    WebElement row = chromium.await(By.cssSelector("tr[data-h='article']"));
    assertTrue(browser.getTitle().contains("PageCache admin"));
    row.findElement(By.tagName("button")).click();

    // Then the page confirms, naming the handler and its new token
    WebElement flash = chromium.await(By.id("flash"));
    long token = site.cache().stats().handler("article").lastToken();
    assertTrue(flash.getText().contains("Refreshed handler \u201carticle\u201d: new token " + token), flash.getText());
    assertTrue(browser.findElement(By.cssSelector("tr[data-h='article']")).getText().contains("by editor"));

    // and that handler's next page is rebuilt, while the other handler's is still served from memcached
    assertEquals("MISS", xcache("/article/1"));
    assertEquals("HIT", xcache("/home/1"));

    // and the row counts the rebuilt page (the page's script keeps it live)
    chromium.awaitText(By.cssSelector("tr[data-h='article'] [data-f='rebuiltSinceRefresh']"), "1");

    // and the whole page fits a laptop's 1280 px window, long policies included
    chromium.screenshot(SCREENSHOT);
    assertEquals(1280, chromium.viewportWidth());
    assertEquals(List.of(), chromium.overflowing(), "what does not fit in 1280 px");
  }

  private String xcache(String path) {
    return Http.get(site.uri(path)).headers().firstValue("X-Cache").orElse(null);
  }
}
