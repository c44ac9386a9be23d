package org.pagecache.internal.config;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one duration syntax of every setting ({@code 500ms, 30s, 5m, 1h, 1d}; {@code 0} and
 * {@code off} are zero; a space before the unit and upper case are forgiven), read and written.
 */
public final class Durations {
  private static final Pattern SYNTAX = Pattern.compile("(\\d{1,9})\\s*(ms|s|m|h|d)");

  private Durations() {}

  /**
   * The duration, or an error naming the parameter, the value and what is accepted.
   *
   * @throws IllegalArgumentException when {@code value} is not a duration
   */
  public static Duration parse(String param, String value) {
    Duration d = parse(value);
    if (d == null) {
      throw new IllegalArgumentException(notADuration(param, value));
    }
    return d;
  }

  /** The one wording of this error, for callers that collect errors instead of throwing the first. */
  public static String notADuration(String param, String value) {
    return param + ": '" + value + "' is not a duration; use a number with ms, s, m, h or d, e.g. 500ms, 30s, 5m, 1h";
  }

  /** The duration, or null when {@code text} is not one. */
  public static Duration parse(String text) {
    String trimmed = text.trim().toLowerCase(Locale.ROOT);
    if (trimmed.equals("0") || trimmed.equals("off")) {
      return Duration.ZERO;
    }
    Matcher m = SYNTAX.matcher(trimmed);
    if (!m.matches()) {
      return null;
    }
    long amount = Long.parseLong(m.group(1));
    return switch (m.group(2)) {
      case "ms" -> Duration.ofMillis(amount);
      case "s" -> Duration.ofSeconds(amount);
      case "m" -> Duration.ofMinutes(amount);
      case "h" -> Duration.ofHours(amount);
      default -> Duration.ofDays(amount);
    };
  }

  /** The largest unit that shows the duration exactly, so messages and specs echo what was configured. */
  public static String format(Duration d) {
    if (d == null) {
      return "null";
    }
    long ms = d.toMillis();
    if (ms == 0 || d.isNegative()) {
      return ms == 0 ? "0s" : d.toString();
    }
    long[] units = {86_400_000L, 3_600_000L, 60_000L, 1_000L};
    String[] names = {"d", "h", "m", "s"};
    for (int i = 0; i < units.length; i++) {
      if (ms % units[i] == 0) {
        return ms / units[i] + names[i];
      }
    }
    return ms + "ms";
  }

  /** Whole seconds for a memcached expiry, rounded up so a key never dies before it should. */
  public static int ceilSeconds(long millis) {
    return (int) Math.max(1, (millis + 999) / 1000);
  }
}
