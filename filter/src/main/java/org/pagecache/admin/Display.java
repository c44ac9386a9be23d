package org.pagecache.admin;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/** How numbers, sizes and times read on the admin page (the JSON keeps raw values). */
final class Display {
  private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'", Locale.ROOT)
      .withZone(ZoneOffset.UTC);

  private Display() {}

  /** 1536 → "1.5 KiB". */
  static String bytes(long n) {
    if (n < 1024) {
      return n + " B";
    }
    String[] units = {"KiB", "MiB", "GiB", "TiB"};
    double v = n;
    int u = -1;
    while (v >= 1024 && u < units.length - 1) {
      v /= 1024;
      u++;
    }
    return String.format(Locale.ROOT, "%.1f %s", v, units[u]);
  }

  /** 0.9512 → "95.1 %". */
  static String percent(double ratio) {
    return String.format(Locale.ROOT, "%.1f %%", ratio * 100);
  }

  /** 93784 → "1 d 2 h 3 min". */
  static String duration(long seconds) {
    long d = seconds / 86_400;
    long h = seconds % 86_400 / 3600;
    long m = seconds % 3600 / 60;
    if (d > 0) {
      return d + " d " + h + " h " + m + " min";
    }
    if (h > 0) {
      return h + " h " + m + " min";
    }
    return m > 0 ? m + " min " + seconds % 60 + " s" : seconds + " s";
  }

  /** "2026-11-22 10:15:03 UTC". */
  static String time(long epochMillis) {
    return TIME.format(Instant.ofEpochMilli(epochMillis));
  }

  /** "just now", "12 s ago", "3 min ago", "2 h ago". */
  static String ago(long epochMillis, Instant now) {
    long s = Math.max(0, (now.toEpochMilli() - epochMillis) / 1000);
    if (s < 5) {
      return "just now";
    }
    if (s < 60) {
      return s + " s ago";
    }
    if (s < 3600) {
      return s / 60 + " min ago";
    }
    return s < 86_400 ? s / 3600 + " h ago" : s / 86_400 + " d ago";
  }

  /** Grouped thousands: 1234567 → "1,234,567"; null → "–". */
  static String count(Long n) {
    return n == null ? "–" : String.format(Locale.ROOT, "%,d", n);
  }
}
