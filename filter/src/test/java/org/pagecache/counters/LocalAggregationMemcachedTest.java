package org.pagecache.counters;

import org.junit.jupiter.api.extension.RegisterExtension;
import org.pagecache.testing.MemcachedExtension;

class LocalAggregationMemcachedTest extends LocalAggregationContract {
  @RegisterExtension
  static final MemcachedExtension MEMCACHED = MemcachedExtension.nodes(1);

  private final Backend backend = new MemcachedBackend(MEMCACHED);

  @Override
  Backend backend() {
    return backend;
  }
}
