package org.pagecache.counters;

class LocalAggregationLocalStoreTest extends LocalAggregationContract {
  private final LocalBackend backend = new LocalBackend(clock);

  @Override
  Backend backend() {
    return backend;
  }
}
