package org.pagecache.store;

import org.junit.jupiter.api.extension.RegisterExtension;
import java.time.Duration;
import org.pagecache.testing.MemcachedExtension;

/** The contract on one real memcached, text protocol (the production setting). */
class MemcachedStoreContractTest extends AbstractMemcachedStoreContractTest {
  @RegisterExtension
  static final MemcachedExtension memcached = MemcachedExtension.nodes(1);

  @Override
  protected MemcachedExtension memcached() {
    return memcached;
  }

  @Override
  protected MemcachedStore.Settings settings() {
    return new MemcachedStore.Settings(memcached.servers(), false, Duration.ofSeconds(1),
        MemcachedExtension.TEST_OP_TIMEOUT, 1);
  }
}
