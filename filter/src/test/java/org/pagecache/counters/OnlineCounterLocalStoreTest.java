package org.pagecache.counters;

class OnlineCounterLocalStoreTest extends OnlineCounterContract {
  private final LocalBackend backend = new LocalBackend(clock);

  @Override
  Backend backend() {
    return backend;
  }
}
