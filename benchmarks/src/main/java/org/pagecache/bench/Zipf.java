package org.pagecache.bench;

import java.util.Arrays;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Zipf-distributed page popularity: page {@code i} (0-based) is requested with probability
 * proportional to {@code 1 / (i + 1)^s}. With {@code s = 1} and 200 pages, the first page takes
 * about 17% of requests and the last about 0.1%, like the front page and the archive of a site.
 */
final class Zipf {
  private final double[] cumulative;

  Zipf(int n, double s) {
    if (n < 1) {
      throw new IllegalArgumentException("n: " + n + " must be at least 1");
    }
    cumulative = new double[n];
    double sum = 0;
    for (int i = 0; i < n; i++) {
      sum += 1 / Math.pow(i + 1, s);
      cumulative[i] = sum;
    }
    for (int i = 0; i < n; i++) {
      cumulative[i] /= sum;
    }
  }

  /** The next page index, 0 to n-1. Thread-safe. */
  int next() {
    double u = ThreadLocalRandom.current().nextDouble();
    int i = Arrays.binarySearch(cumulative, u);
    return Math.min(i >= 0 ? i : -i - 1, cumulative.length - 1);
  }

  /** The probability of page {@code i}. */
  double probability(int i) {
    return i == 0 ? cumulative[0] : cumulative[i] - cumulative[i - 1];
  }
}
