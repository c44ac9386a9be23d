package org.pagecache.counters;

import java.util.concurrent.locks.ReentrantLock;

/**
 * One lock per object key (striped: keys share a fixed set of locks), so that within this JVM
 * sending an object's unsent views and rebuilding its counter from the sink's total never
 * overlap: a rebuild clears the unsent views, and a send already in flight would count them a
 * second time on the new counter.
 */
final class KeyLocks {
  private static final int STRIPES = 64;
  private final ReentrantLock[] locks = new ReentrantLock[STRIPES];

  KeyLocks() {
    for (int i = 0; i < STRIPES; i++) {
      locks[i] = new ReentrantLock();
    }
  }

  ReentrantLock of(String objectKey) {
    return locks[Math.floorMod(objectKey.hashCode(), STRIPES)];
  }
}
