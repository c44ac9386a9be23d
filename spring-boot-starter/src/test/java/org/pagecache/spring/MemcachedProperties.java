package org.pagecache.spring;

import org.pagecache.testing.MemcachedExtension;
import org.springframework.test.context.DynamicPropertyRegistry;

/** The test's own memcached for the starter, with the tests' op timeout (a loaded 2-core machine). */
public final class MemcachedProperties {
  private MemcachedProperties() {}

  /** Call from a {@code @DynamicPropertySource} method. */
  public static void register(DynamicPropertyRegistry registry, MemcachedExtension memcached) {
    registry.add("pagecache.memcached.servers", memcached::servers);
    registry.add("pagecache.memcached.op.timeout", () -> MemcachedExtension.TEST_OP_TIMEOUT.toMillis() + "ms");
  }
}
