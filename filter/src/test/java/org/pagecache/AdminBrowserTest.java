package org.pagecache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.pagecache.testing.Http;
import org.pagecache.testing.MemcachedExtension;

/**
 * What an editor does, in a real browser: sign in, open the admin page, press Refresh on one
 * handler, read the confirmation; that handler's next page is rebuilt while another handler's is
 * still served from memcached. Headless Chromium from the Debian packages {@code chromium} and
 * {@code chromium-driver} (scripts/test.sh installs them); without them this test fails, it never
 * skips. Nothing is downloaded: the driver and the browser are given by path, so Selenium
 * Manager has nothing to look up.
 *
 * <p>Leaves a screenshot of the admin page in {@code filter/target/admin.png}.
 */
class AdminBrowserTest {
  @RegisterExtension
  static MemcachedExtension memcached = MemcachedExtension.nodes(1);

  private static final String CHROMIUM = "/usr/bin/chromium";
  private static final String CHROMEDRIVER = "/usr/bin/chromedriver";
  private static final Path SCREENSHOT = Path.of("target", "admin.png");

  private AdminSite site;
  private WebDriver browser;
  private Path profile;

  @BeforeEach
  void start() throws IOException {
    for (String binary : new String[] {CHROMIUM, CHROMEDRIVER}) {
      if (!Files.isExecutable(Path.of(binary))) {
        fail(binary + " is missing: the admin browser test needs headless Chromium. Install it with"
            + " 'apt-get install -y chromium chromium-driver' (scripts/test.sh does this).");
      }
    }
    site = AdminSite.on(memcached.servers()).start();
    profile = Files.createTempDirectory("pagecache-chromium-");
    System.setProperty("webdriver.chrome.driver", CHROMEDRIVER);
    ChromeOptions options = new ChromeOptions();
    options.setBinary(CHROMIUM);
    options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
        "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
        "--user-data-dir=" + profile);
    ChromeDriverService service = new ChromeDriverService.Builder()
        .usingDriverExecutable(new File(CHROMEDRIVER))
        .usingAnyFreePort()
        .build();
    browser = new ChromeDriver(service, options);
    browser.manage().window().setSize(new Dimension(1400, 1700));
  }

  @AfterEach
  void stop() throws IOException {
    if (browser != null) {
      browser.quit();
    }
    if (site != null) {
      site.close();
    }
    if (profile != null) {
      try (Stream<Path> files = Files.walk(profile)) {
        files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  @Test
  void anEditorRefreshesOneHandlerAndSeesItsPagesRebuilt() throws IOException {
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
    browser.get(site.admin("/").toString());
    WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(10));
    wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("user"))).sendKeys("editor");
    browser.findElement(By.id("password")).sendKeys("editor");
    browser.findElement(By.id("sign-in")).click();
    WebElement row = wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("tr[data-h='article']")));
    assertTrue(browser.getTitle().contains("PageCache admin"));
    row.findElement(By.tagName("button")).click();

    // Then the page confirms, naming the handler and its new token
    WebElement flash = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("flash")));
    long token = site.cache().stats().handler("article").lastToken();
    assertTrue(flash.getText().contains("Refreshed handler \u201carticle\u201d: new token " + token), flash.getText());
    assertTrue(browser.findElement(By.cssSelector("tr[data-h='article']")).getText().contains("by editor"));

    // and that handler's next page is rebuilt, while the other handler's is still served from memcached
    assertEquals("MISS", xcache("/article/1"));
    assertEquals("HIT", xcache("/home/1"));

    // and the row counts the rebuilt page (the page's script keeps it live)
    wait.until(ExpectedConditions.textToBe(By.cssSelector("tr[data-h='article'] [data-f='rebuiltSinceRefresh']"), "1"));

    Files.createDirectories(SCREENSHOT.getParent());
    Files.copy(((ChromeDriver) browser).getScreenshotAs(OutputType.FILE).toPath(), SCREENSHOT,
        StandardCopyOption.REPLACE_EXISTING);
  }

  private String xcache(String path) {
    return Http.get(site.uri(path)).headers().firstValue("X-Cache").orElse(null);
  }
}
