package org.pagecache.testing;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
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

/**
 * A real browser for tests: headless Chromium from the Debian packages {@code chromium} and
 * {@code chromium-driver} (scripts/test.sh installs them), driven by Selenium. Without them a
 * test fails, it never skips. Nothing is downloaded: the driver and the browser are given by path,
 * so Selenium Manager has nothing to look up. Each instance has a fresh profile, deleted on close.
 *
 * <pre>{@code
 * try (HeadlessChromium chromium = HeadlessChromium.start()) {
 *   chromium.browser().get(url);
 *   chromium.await(By.id("flash"));
 *   chromium.screenshot(Path.of("target", "admin.png"));
 * }
 * }</pre>
 */
public final class HeadlessChromium implements AutoCloseable {
  private static final String CHROMIUM = "/usr/bin/chromium";
  private static final String CHROMEDRIVER = "/usr/bin/chromedriver";
  private static final Duration WAIT = Duration.ofSeconds(10);

  private final ChromeDriver browser;
  private final Path profile;

  private HeadlessChromium(ChromeDriver browser, Path profile) {
    this.browser = browser;
    this.profile = profile;
  }

  /**
   * The window of every test: as wide as a common laptop's screen (what the admin page must fit),
   * and tall enough that a screenshot shows the whole page.
   */
  public static final Dimension WINDOW = new Dimension(1280, 1700);

  /** Starts Chromium with a {@link #WINDOW}-sized window; fails, naming the packages, when it is missing. */
  public static HeadlessChromium start() {
    for (String binary : new String[] {CHROMIUM, CHROMEDRIVER}) {
      if (!Files.isExecutable(Path.of(binary))) {
        throw new AssertionError(binary + " is missing: browser tests need headless Chromium. Install it with"
            + " 'apt-get install -y chromium chromium-driver' (scripts/test.sh does this).");
      }
    }
    Path profile;
    try {
      profile = Files.createTempDirectory("pagecache-chromium-");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    ChromeOptions options = new ChromeOptions();
    options.setBinary(CHROMIUM);
    // Without the background-networking flags Chromium keeps calling home, which this closed network refuses.
    options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
        "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
        "--user-data-dir=" + profile);
    ChromeDriverService service = new ChromeDriverService.Builder()
        .usingDriverExecutable(new File(CHROMEDRIVER))
        .usingAnyFreePort()
        .build();
    ChromeDriver browser = new ChromeDriver(service, options);
    browser.manage().window().setSize(WINDOW);
    return new HeadlessChromium(browser, profile);
  }

  public WebDriver browser() {
    return browser;
  }

  /** Waits (at most 10 s) until an element is visible, and returns it. */
  public WebElement await(By locator) {
    return new WebDriverWait(browser, WAIT).until(ExpectedConditions.visibilityOfElementLocated(locator));
  }

  /** Waits (at most 10 s) until an element's text is exactly {@code text}. */
  public void awaitText(By locator, String text) {
    new WebDriverWait(browser, WAIT).until(ExpectedConditions.textToBe(locator, text));
  }

  /** The width of the page's viewport in CSS pixels ({@code window.innerWidth}). */
  public long viewportWidth() {
    return ((Number) browser.executeScript("return window.innerWidth;")).longValue();
  }

  /**
   * What does not fit: the page when it is wider than the window (a sideways scroll bar), and
   * every element whose content is wider than its box (scrolled or clipped), each described
   * with its widths (inside an SVG chart only the chart itself counts). Empty when everything
   * fits.
   */
  @SuppressWarnings("unchecked")
  public List<String> overflowing() {
    return (List<String>) browser.executeScript("""
        var found = [];
        var page = document.documentElement;
        if (page.scrollWidth > window.innerWidth) {
          found.push('the page: ' + page.scrollWidth + ' px wide in a ' + window.innerWidth + ' px window');
        }
        document.querySelectorAll('body *').forEach(function (el) {
          // a chart's parts are laid out by its viewBox, which scales the whole chart to fit
          if (el.closest('svg')) { return; }
          if (el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1) {
            var name = el.tagName.toLowerCase() + (el.id ? '#' + el.id : '')
                + (typeof el.className === 'string' && el.className ? '.' + el.className.trim().split(' ').join('.') : '');
            found.push(name + ': ' + el.scrollWidth + ' px of content in ' + el.clientWidth + ' px');
          }
        });
        return found;
        """);
  }

  /** Saves what the window shows as a PNG. */
  public void screenshot(Path file) {
    try {
      if (file.getParent() != null) {
        Files.createDirectories(file.getParent());
      }
      Files.copy(browser.getScreenshotAs(OutputType.FILE).toPath(), file, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    try {
      browser.quit();
    } finally {
      try (Stream<Path> files = Files.walk(profile)) {
        files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      } catch (IOException e) {
        // a leftover temporary profile is not worth failing a test for
      }
    }
  }
}
