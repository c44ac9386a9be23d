package org.pagecache.store;

import java.time.Duration;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.pagecache.testing.MemcachedExtension;

/**
 * The contract on one real memcached over the binary protocol: xmemcached implements incr, touch
 * and multi-get differently there, and the setting exists, so it must behave the same.
 */
class MemcachedBinaryStoreContractTest extends AbstractMemcachedStoreContractTest {
  @RegisterExtension
  static final MemcachedExtension memcached = MemcachedExtension.nodes(1);

  @Override
  protected MemcachedExtension memcached() {
    return memcached;
  }

  @Override
  protected MemcachedStore.Settings settings() {
    return new MemcachedStore.Settings(memcached.servers(), true, Duration.ofSeconds(1),
        MemcachedExtension.TEST_OP_TIMEOUT, 1);
  }

  /** The binary protocol's quiet add answers its failure: the add, then the reads. */
  @Override
  protected int addThenGetRoundTrips() {
    return 2;
  }

  /** Its quiet delete answers "not found": an ordinary delete. */
  @Override
  protected int deleteNoReplyRoundTrips() {
    return 1;
  }
}
