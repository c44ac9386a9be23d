package org.pagecache.internal.near;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The default near.size for heaps of every size, computed without a JVM of that size. */
class NearSizeTest {
  private static final long MIB = 1L << 20;
  private static final long GIB = 1L << 30;

  @Test
  void tenPercentOfAMiddleSizedHeap() {
    NearSize size = NearSize.forHeap(3 * GIB);
    assertEquals(3 * GIB * 10 / 100, size.bytes());
    assertEquals("10 % of a 3.0 GiB heap", size.why());
    assertEquals(GIB * 10 / 100, NearSize.forHeap(GIB).bytes());
    assertEquals("10 % of a 1.0 GiB heap", NearSize.forHeap(GIB).why());
  }

  @Test
  void neverMoreThanOneGibibyteHoweverLargeTheHeap() {
    assertEquals(new NearSize(GIB, "1 GiB, the cap (10 % of a 16.0 GiB heap is more)"), NearSize.forHeap(16 * GIB));
    assertEquals(GIB, NearSize.forHeap(200 * GIB).bytes());
    assertEquals(10 * GIB * 10 / 100, NearSize.forHeap(10 * GIB).bytes(), "just under the cap: still the share");
  }

  @Test
  void atLeastTheOld64MebibytesWhileThatIsAtMostAQuarterOfTheHeap() {
    assertEquals(new NearSize(64 * MIB, "64 MiB, the floor (10 % of a 512 MiB heap is less)"),
        NearSize.forHeap(512 * MIB));
    assertEquals(64 * MIB, NearSize.forHeap(256 * MIB).bytes(), "64 MiB is a quarter of 256 MiB");
    assertEquals(new NearSize(128 * MIB * 25 / 100, "25 % of a 128 MiB heap (the 64 MiB floor would take more)"),
        NearSize.forHeap(128 * MIB));
  }

  @Test
  void aJvmWithoutAHeapLimitGetsTheFloor() {
    assertEquals(new NearSize(64 * MIB, "64 MiB: the JVM reports no heap limit"), NearSize.forHeap(Long.MAX_VALUE));
  }

  @Test
  void anExplicitShareIsExactlyThatShare() {
    assertEquals(new NearSize(16 * GIB * 30 / 100, "set by near.size: 30 % of a 16.0 GiB heap"),
        NearSize.share(30, 16 * GIB), "no cap for a share asked for");
    assertEquals(512 * MIB * 5 / 100, NearSize.share(5, 512 * MIB).bytes(), "no floor either");
    assertEquals(new NearSize(200 * MIB, "set by near.size"), NearSize.set(200 * MIB));
  }
}
