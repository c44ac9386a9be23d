package org.pagecache.demo;

import jakarta.servlet.ServletContext;
import java.util.Locale;
import java.util.function.Function;

/**
 * The demo's own settings (the cache's come from PageCacheConfig). Each is looked up like the
 * cache's parameters: system property {@code demo.name}, environment variable {@code DEMO_NAME},
 * context-param {@code demo.name}, then the default. So the WAR is deployed unchanged and tuned
 * from the outside, e.g. {@code DEMO_DELAY_MS=50}.
 *
 * @param delayMillis what every CMS call costs, to make the cache's effect visible (default 300)
 * @param pageSize articles per section page (default 5)
 */
public record DemoSettings(long delayMillis, int pageSize) {
  public static final long DEFAULT_DELAY_MILLIS = 300;
  public static final int DEFAULT_PAGE_SIZE = 5;

  public DemoSettings {
    if (delayMillis < 0 || delayMillis > 60_000) {
      throw new IllegalArgumentException("demo.delay.ms: " + delayMillis + " must be from 0 to 60000 (milliseconds)");
    }
    if (pageSize < 1 || pageSize > 100) {
      throw new IllegalArgumentException("demo.page.size: " + pageSize + " must be from 1 to 100");
    }
  }

  /** Reads the settings of a deployed WAR: system properties, environment, then context-params. */
  public static DemoSettings from(ServletContext context) {
    return from(context::getInitParameter, System::getProperty, System::getenv);
  }

  static DemoSettings from(Function<String, String> contextParams, Function<String, String> sysProps,
      Function<String, String> env) {
    Function<String, String> lookup = name -> {
      String value = sysProps.apply(name);
      if (value == null) {
        value = env.apply(name.toUpperCase(Locale.ROOT).replace('.', '_'));
      }
      return value != null ? value : contextParams.apply(name);
    };
    return new DemoSettings(
        number("demo.delay.ms", lookup.apply("demo.delay.ms"), DEFAULT_DELAY_MILLIS),
        (int) number("demo.page.size", lookup.apply("demo.page.size"), DEFAULT_PAGE_SIZE));
  }

  private static long number(String name, String value, long fallback) {
    if (value == null || value.isBlank()) {
      return fallback;
    }
    try {
      return Long.parseLong(value.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(name + ": '" + value + "' is not a whole number (env "
          + name.toUpperCase(Locale.ROOT).replace('.', '_') + ", system property " + name + ")");
    }
  }
}
