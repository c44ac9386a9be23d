package org.pagecache;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parsing of configuration values, with errors that name the parameter, the value and what is accepted. */
final class ParameterValues {
  private static final Pattern SIZE = Pattern.compile("(\\d{1,10})\\s*([kKmM]?)");

  private ParameterValues() {}

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

  static int wholeNumber(String param, String value, int min, int max) {
    try {
      int n = Integer.parseInt(value.trim());
      if (n >= min && n <= max) {
        return n;
      }
    } catch (NumberFormatException e) {
      // fall through to the message below
    }
    throw new IllegalArgumentException(param + ": '" + value + "' is not a whole number from " + min + " to " + max);
  }

  static boolean bool(String param, String value) {
    return switch (value.trim().toLowerCase(Locale.ROOT)) {
      case "true", "on", "yes", "allow", "honor", "honour" -> true;
      case "false", "off", "no", "deny", "ignore" -> false;
      default -> throw new IllegalArgumentException(param + ": '" + value + "' is not a switch; use true or false");
    };
  }



}
