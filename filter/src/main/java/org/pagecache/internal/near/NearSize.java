package org.pagecache.internal.near;

import java.util.Locale;

/**
 * How much memory the near cache may take, and why: by default a share of the JVM's maximum heap,
 * as Ehcache's {@code maxBytesLocalHeap="10%"} sized caches, within a floor and a cap.
 *
 * <ul>
 *   <li><b>10 %</b> of the heap: several applications in one JVM (WARs in one Tomcat) each take
 *       their own share, so the share is small enough that a few of them still leave the
 *       applications most of the heap;
 *   <li>at least <b>64 MiB</b> (the old fixed default), as long as that is at most a quarter of the
 *       heap: on a small heap the near cache takes that quarter instead;
 *   <li>at most <b>1 GiB</b>: beyond it the pages a near cache answers are few and the collector's
 *       work per GC grows with the live set.
 * </ul>
 *
 * <p>A pure function of the heap size, so every case is tested without a JVM of that size.
 *
 * @param bytes the bound, 0 when off
 * @param why   how it was chosen, for the start-up log line, the admin page and {@code api/stats}
 */
public record NearSize(long bytes, String why) {
  public static final int DEFAULT_PERCENT = 10;
  public static final long FLOOR = 64L << 20;
  public static final long CAP = 1L << 30;
  /** The floor applies while it is at most this share of the heap. */
  private static final int FLOOR_AT_MOST_PERCENT = 25;
  /** The largest share {@code near.size=N%} accepts: more leaves the application too little heap. */
  public static final int MAX_PERCENT = 50;

  /** The default for a JVM whose maximum heap is {@code maxHeap} ({@link Runtime#maxMemory()}). */
  public static NearSize forHeap(long maxHeap) {
    if (maxHeap <= 0 || maxHeap == Long.MAX_VALUE) {
      return new NearSize(FLOOR, "64 MiB: the JVM reports no heap limit");
    }
    long share = maxHeap * DEFAULT_PERCENT / 100;
    if (share > CAP) {
      return new NearSize(CAP, "1 GiB, the cap (" + DEFAULT_PERCENT + " % of a " + size(maxHeap) + " heap is more)");
    }
    if (share >= FLOOR) {
      return new NearSize(share, DEFAULT_PERCENT + " % of a " + size(maxHeap) + " heap");
    }
    long quarter = maxHeap * FLOOR_AT_MOST_PERCENT / 100;
    if (quarter >= FLOOR) {
      return new NearSize(FLOOR, "64 MiB, the floor (" + DEFAULT_PERCENT + " % of a " + size(maxHeap) + " heap is less)");
    }
    return new NearSize(quarter, FLOOR_AT_MOST_PERCENT + " % of a " + size(maxHeap)
        + " heap (the 64 MiB floor would take more)");
  }

  /** {@code near.size=N%}: exactly that share, no floor or cap (the setting wins). */
  public static NearSize share(int percent, long maxHeap) {
    if (maxHeap <= 0 || maxHeap == Long.MAX_VALUE) {
      return new NearSize(FLOOR, "64 MiB: near.size=" + percent + "% but the JVM reports no heap limit");
    }
    return new NearSize(maxHeap * percent / 100, "set by near.size: " + percent + " % of a " + size(maxHeap) + " heap");
  }

  /** {@code near.size} in bytes: it wins; 0 turns the near cache off. */
  public static NearSize set(long bytes) {
    return new NearSize(bytes, bytes == 0 ? "off: near.size=0" : "set by near.size");
  }

  /** A heap size as people say it: 3.0 GiB, 512 MiB. */
  static String size(long bytes) {
    if (bytes >= 1L << 30) {
      return String.format(Locale.ROOT, "%.1f GiB", bytes / (double) (1L << 30));
    }
    return String.format(Locale.ROOT, "%d MiB", Math.round(bytes / (double) (1L << 20)));
  }
}
