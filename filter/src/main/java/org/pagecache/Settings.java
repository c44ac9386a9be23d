package org.pagecache;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parsing of configuration values, with errors that name the parameter, the value and what is accepted. */
final class Settings {
  private static final Pattern DURATION = Pattern.compile("(\\d{1,9})\\s*(ms|s|m|h|d)");
  private static final Pattern SIZE = Pattern.compile("(\\d{1,10})\\s*([kKmM]?)");

  private Settings() {}

  static Duration duration(String param, String value) {
    Matcher m = DURATION.matcher(value.trim().toLowerCase(Locale.ROOT));
    if (!m.matches()) {
      throw new IllegalArgumentException(param + ": '" + value
          + "' is not a duration; use a number with ms, s, m, h or d, e.g. 500ms, 30s, 5m, 1h");
    }
    long n = Long.parseLong(m.group(1));
    return switch (m.group(2)) {
      case "ms" -> Duration.ofMillis(n);
      case "s" -> Duration.ofSeconds(n);
      case "m" -> Duration.ofMinutes(n);
      case "h" -> Duration.ofHours(n);
      default -> Duration.ofDays(n);
    };
  }

  static int size(String param, String value) {
    Matcher m = SIZE.matcher(value.trim());
    if (!m.matches()) {
      throw new IllegalArgumentException(param + ": '" + value
          + "' is not a size; use bytes with an optional k or m, e.g. 900000, 900k, 1m");
    }
    long n = Long.parseLong(m.group(1));
    long bytes = switch (m.group(2).toLowerCase(Locale.ROOT)) {
      case "k" -> n * 1024;
      case "m" -> n * 1024 * 1024;
      default -> n;
    };
    if (bytes > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(param + ": '" + value + "' is too large");
    }
    return (int) bytes;
  }

  static int positiveInt(String param, String value, int max) {
    try {
      int n = Integer.parseInt(value.trim());
      if (n >= 1 && n <= max) {
        return n;
      }
    } catch (NumberFormatException e) {
      // fall through to the message below
    }
    throw new IllegalArgumentException(param + ": '" + value + "' is not a whole number from 1 to " + max);
  }

  static boolean bool(String param, String value) {
    return switch (value.trim().toLowerCase(Locale.ROOT)) {
      case "true", "on", "yes", "allow", "honor", "honour" -> true;
      case "false", "off", "no", "deny", "ignore" -> false;
      default -> throw new IllegalArgumentException(param + ": '" + value + "' is not a switch; use true or false");
    };
  }

  static String durationText(Duration d) {
    long ms = d.toMillis();
    if (ms % 3_600_000 == 0 && ms > 0) {
      return ms / 3_600_000 + "h";
    }
    if (ms % 60_000 == 0 && ms > 0) {
      return ms / 60_000 + "m";
    }
    if (ms % 1000 == 0) {
      return ms / 1000 + "s";
    }
    return ms + "ms";
  }
}
