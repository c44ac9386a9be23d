package org.pagecache.internal.capture;

import java.time.DateTimeException;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * HTTP dates (RFC 9110 5.6.7) as a recipient must read them: the IMF-fixdate
 * ({@code Sun, 06 Nov 1994 08:49:37 GMT}) and the two obsolete forms, RFC 850
 * ({@code Sunday, 06-Nov-94 08:49:37 GMT}) and asctime ({@code Sun Nov  6 08:49:37 1994}).
 * Anything else, such as a one-digit hour, a time zone other than GMT or a field repeated on two
 * lines, is not a date. Letters are read in any case, and a one-digit day (what Java's
 * {@code RFC_1123_DATE_TIME} writes) is read too, as most caches do.
 */
public final class HttpDates {
  private static final String MONTHS = "jan feb mar apr may jun jul aug sep oct nov dec";
  private static final Pattern IMF = Pattern.compile(
      "(?i)(mon|tue|wed|thu|fri|sat|sun), (\\d{1,2}) ([a-z]{3}) (\\d{4}) (\\d{2}):(\\d{2}):(\\d{2}) gmt");
  private static final Pattern RFC850 = Pattern.compile(
      "(?i)(monday|tuesday|wednesday|thursday|friday|saturday|sunday), (\\d{2})-([a-z]{3})-(\\d{2}) (\\d{2}):(\\d{2}):(\\d{2}) gmt");
  private static final Pattern ASCTIME = Pattern.compile(
      "(?i)(mon|tue|wed|thu|fri|sat|sun) ([a-z]{3}) ([ \\d]\\d) (\\d{2}):(\\d{2}):(\\d{2}) (\\d{4})");

  private HttpDates() {}

  /** The one date a field's lines hold, in epoch millis; null when absent, repeated or not a date. */
  public static Long parse(List<String> lines) {
    return lines.size() == 1 ? parse(lines.get(0)) : null;
  }

  /** The date in epoch millis, or null when the value is not an HTTP date. */
  public static Long parse(String value) {
    if (value == null) {
      return null;
    }
    String v = value.trim();
    Matcher m = IMF.matcher(v);
    if (m.matches()) {
      return millis(Integer.parseInt(m.group(4)), m.group(3), m.group(2), m.group(5), m.group(6), m.group(7));
    }
    m = RFC850.matcher(v);
    if (m.matches()) {
      int yy = Integer.parseInt(m.group(4));
      int year = yy + (yy < 70 ? 2000 : 1900); // RFC 9110: more than 50 years ahead means the past century
      return millis(year, m.group(3), m.group(2), m.group(5), m.group(6), m.group(7));
    }
    m = ASCTIME.matcher(v);
    if (m.matches()) {
      return millis(Integer.parseInt(m.group(7)), m.group(2), m.group(3), m.group(4), m.group(5), m.group(6));
    }
    return null;
  }

  private static Long millis(int year, String month, String day, String hour, String minute, String second) {
    int monthIndex = MONTHS.indexOf(month.toLowerCase(Locale.ROOT));
    if (monthIndex < 0 || monthIndex % 4 != 0) {
      return null;
    }
    try {
      return LocalDateTime.of(year, monthIndex / 4 + 1, Integer.parseInt(day.trim()), Integer.parseInt(hour),
          Integer.parseInt(minute), Integer.parseInt(second)).toInstant(ZoneOffset.UTC).toEpochMilli();
    } catch (DateTimeException e) {
      return null;
    }
  }
}
