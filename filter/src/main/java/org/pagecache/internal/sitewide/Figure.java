package org.pagecache.internal.sitewide;

import org.pagecache.internal.stats.HandlerRecorder;

/** The figures of a handler the cluster view sums, each read from this JVM's running totals. */
enum Figure {
  HITS("h") {
    @Override
    long total(HandlerRecorder s) {
      return s.hits() + s.stale();
    }
  },
  MISSES("m") {
    @Override
    long total(HandlerRecorder s) {
      return s.misses();
    }
  },
  REBUILDS("w") {
    @Override
    long total(HandlerRecorder s) {
      return s.rebuilds();
    }
  },
  BYPASSES("b") {
    @Override
    long total(HandlerRecorder s) {
      return s.bypasses();
    }
  };

  /** Its part of a memcached key: short, as a minute's keys are many. */
  final String key;

  Figure(String key) {
    this.key = key;
  }

  /** This JVM's total since it started. */
  abstract long total(HandlerRecorder s);
}
