package org.pagecache.counters;

import java.time.Clock;
import org.pagecache.store.MemcachedStore;
import org.pagecache.store.Store;
import org.pagecache.testing.MemcachedExtension;

/** A real memcached process; "down" kills it (its data is lost), "up" starts it again. */
final class MemcachedBackend implements Backend {
  private final MemcachedExtension memcached;

  MemcachedBackend(MemcachedExtension memcached) {
    this.memcached = memcached;
  }

  @Override
  public Store connect() {
    return new MemcachedStore(new MemcachedStore.Settings(memcached.servers(), false,
        java.time.Duration.ofSeconds(1), MemcachedExtension.TEST_OP_TIMEOUT, 1));
  }

  /** memcached expires by its own clock. */
  @Override
  public Clock expiryClock() {
    return null;
  }

  @Override
  public void down() {
    memcached.node(0).stop();
  }

  @Override
  public void up() {
    memcached.node(0).start();
  }
}
