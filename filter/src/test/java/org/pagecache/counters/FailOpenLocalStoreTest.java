package org.pagecache.counters;

class FailOpenLocalStoreTest extends FailOpenContract {
  private final LocalBackend backend = new LocalBackend(clock);

  @Override
  Backend backend() {
    return backend;
  }
}
